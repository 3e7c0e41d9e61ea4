/// A Korean particle whose form depends on whether the word before it ends in a consonant.
///
/// ## Notation
///
/// A catalog value writes the particle in its usual two-form notation, directly after a format
/// specifier or after literal text:
///
/// | Particle | Accepted notations | After a consonant | After a vowel |
/// | --- | --- | --- | --- |
/// | ``subject`` | `(이)가`, `이(가)`, `가(이)` | 이 | 가 |
/// | ``topic`` | `(은)는`, `은(는)`, `는(은)` | 은 | 는 |
/// | ``object`` | `(을)를`, `을(를)`, `를(을)` | 을 | 를 |
/// | ``conjunction`` | `(과)와`, `과(와)`, `와(과)` | 과 | 와 |
/// | ``direction`` | `(으)로` | 으로 | 로 (also after ㄹ) |
/// | ``alternative`` | `(이)나` | 이나 | 나 |
/// | ``companion`` | `(이)랑` | 이랑 | 랑 |
/// | ``copula`` | `(이)라` (as in `(이)라는`, `(이)라고`) | 이라 | 라 |
///
/// When rendering, the formatter looks at the last character rendered before the notation,
/// looking through closing quotes and brackets (`”`, `’`, `"`, `'`, `)`, `]`, `}`, `」`, `』`,
/// `》`, `〉`, `»`, …) to the word inside, and picks the form by how that word is read aloud in
/// Korean:
///
/// - a Hangul syllable: a final consonant is `(code - 0xAC00) % 28 != 0`; for `(으)로` a final
///   ㄹ (index 8) takes 로, like a vowel;
/// - a digit: its Korean reading, so 0 영, 1 일, 3 삼, 6 육, 7 칠, 8 팔 end in a consonant and
///   2 이, 4 사, 5 오, 9 구 do not (1, 7, 8 end in ㄹ); trailing zeros read as 십, 백, 천, 만, 억, …;
/// - a Latin letter standing alone (`N`, `“n”`, `비타민C`) or ending a word written all in
///   capitals (`URL`, `API`), which Korean reads letter by letter: the letter's Korean name, so
///   L 엘 and R 알 end in ㄹ, M 엠 and N 엔 in another consonant, and every other letter (A 에이,
///   B 비, F 에프, X 엑스, …) in a vowel. Full-width letters and digits read as the ASCII ones;
/// - anything else keeps the notation as written, which still reads correctly: a Latin word
///   in lower or mixed case (`kiwi`, `stock`, `iPhone`), whose reading follows its
///   pronunciation rather than its spelling, other scripts, symbols, or nothing at all.
///
/// So `%1$@(이)가` renders 딸기가, 파인애플이, 수박이, N이, 2가, and `kiwi(이)가` for an
/// untranslated name, with no code change for new fruit.
package enum KoreanParticle: Sendable, Hashable, CaseIterable {
  /// 이/가, the subject particle.
  case subject
  /// 은/는, the topic particle.
  case topic
  /// 을/를, the object particle.
  case object
  /// 과/와, "and".
  case conjunction
  /// 으로/로, "to, with, as"; ㄹ takes 로.
  case direction
  /// 이나/나, "or".
  case alternative
  /// 이랑/랑, "with" (spoken).
  case companion
  /// 이라/라, the copula before a quoting ending: `“수박”이라는`, `“딸기”라는`.
  case copula

  /// The form after a word that ends in a consonant.
  package var afterConsonant: String {
    switch self {
    case .subject: "이"
    case .topic: "은"
    case .object: "을"
    case .conjunction: "과"
    case .direction: "으로"
    case .alternative: "이나"
    case .companion: "이랑"
    case .copula: "이라"
    }
  }

  /// The form after a word that ends in a vowel.
  package var afterVowel: String {
    switch self {
    case .subject: "가"
    case .topic: "는"
    case .object: "를"
    case .conjunction: "와"
    case .direction: "로"
    case .alternative: "나"
    case .companion: "랑"
    case .copula: "라"
    }
  }

  /// The form of the particle after some text.
  ///
  /// ```swift
  /// KoreanParticle.subject.form(after: "딸기")      // "가"
  /// KoreanParticle.subject.form(after: "파인애플")  // "이"
  /// KoreanParticle.direction.form(after: "딸기쥬스 1")  // "로"
  /// KoreanParticle.direction.form(after: "“L”")    // "로"
  /// KoreanParticle.object.form(after: "kiwi")      // nil
  /// ```
  ///
  /// - Parameter text: The text the particle follows.
  /// - Returns: The form, or `nil` when the reading of the end of `text` is not known: see the
  ///   type's discussion.
  /// - Complexity: O(*k*) for the *k* trailing digits or closing brackets of `text`.
  package func form(after text: some StringProtocol) -> String? {
    switch FinalSound(endOf: text.unicodeScalars) {
    case .vowel: afterVowel
    case .rieul: self == .direction ? afterVowel : afterConsonant
    case .consonant: afterConsonant
    case nil: nil
    }
  }

  /// Every accepted notation in UTF-8, with its particle.
  private static let notations: [(bytes: [UInt8], particle: KoreanParticle)] = {
    let spellings: [(String, KoreanParticle)] = [
      ("(이)가", .subject), ("이(가)", .subject), ("가(이)", .subject),
      ("(은)는", .topic), ("은(는)", .topic), ("는(은)", .topic),
      ("(을)를", .object), ("을(를)", .object), ("를(을)", .object),
      ("(과)와", .conjunction), ("과(와)", .conjunction), ("와(과)", .conjunction),
      ("(으)로", .direction), ("(이)나", .alternative), ("(이)랑", .companion),
      ("(이)라", .copula),
    ]
    return spellings.map { (Array($0.utf8), $1) }
  }()

  /// Whether a notation may start at a position of some UTF-8 text, checked in a byte or two.
  ///
  /// Every notation opens its bracket either first, as in `(이)가`, or right after one Hangul
  /// syllable (three bytes from 가, EA B0 80, to 힣, ED 9E A3), as in `이(가)`.
  ///
  /// - Parameters:
  ///   - text: The text's UTF-8 bytes.
  ///   - position: A position in the text.
  static func mayStartNotation(in text: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
    let byte = text[position]
    return byte == UInt8(ascii: "(")
      || ((0xEA...0xED).contains(byte) && text.count - position > 3
        && text[position + 3] == UInt8(ascii: "("))
  }

  /// The notation starting at a position of some UTF-8 text, if any.
  ///
  /// Check ``mayStartNotation(in:at:)`` first to pass over most positions cheaply.
  ///
  /// - Parameters:
  ///   - text: The text's UTF-8 bytes.
  ///   - position: Where the notation would start, at a character boundary.
  /// - Returns: The particle and the notation's length in bytes, or `nil`.
  static func notation(
    in text: UnsafeBufferPointer<UInt8>, at position: Int
  ) -> (particle: KoreanParticle, length: Int)? {
    for notation in notations
    where notation.bytes[0] == text[position] && text.count - position >= notation.bytes.count {
      if text[position..<position + notation.bytes.count].elementsEqual(notation.bytes) {
        return (notation.particle, notation.bytes.count)
      }
    }
    return nil
  }
}

// MARK: - Final sound

/// How the Korean reading of some text ends.
private enum FinalSound {
  /// No final consonant (받침).
  case vowel
  /// The final consonant ㄹ.
  case rieul
  /// Any other final consonant.
  case consonant

  /// The final sound of the text's Korean reading, or `nil` when it is not known.
  init?(endOf scalars: some BidirectionalCollection<Unicode.Scalar>) {
    guard let lastIndex = scalars.lastIndex(where: { !Self.closingCharacters.contains($0) }) else {
      return nil
    }
    let last = scalars[lastIndex]
    if (0xAC00...0xD7A3).contains(last.value) {
      switch (last.value - 0xAC00) % 28 {
      case 0: self = .vowel
      case 8: self = .rieul
      default: self = .consonant
      }
    } else if last.asciiDigitValue != nil {
      self.init(readingDigitsBackward: scalars[...lastIndex].reversed())
    } else if let letter = last.latinLetter {
      // Read letter by letter only when it stands alone or ends a word in capitals.
      let word = scalars[...lastIndex].reversed().prefix { $0.latinLetter != nil }
      guard word.count == 1 || word.allSatisfy({ $0.latinLetter?.isUppercase == true }) else {
        return nil
      }
      switch letter.uppercased() {
      case "L", "R": self = .rieul  // 엘, 알
      case "M", "N": self = .consonant  // 엠, 엔
      default: self = .vowel  // 에이, 비, 씨, …, 에프, 엑스, 제트
      }
    } else {
      return nil
    }
  }

  /// The final sound of the Korean reading of a number, given its characters from the last.
  ///
  /// Trailing zeros are read as units: 30 삼십, 500 오백, 20000 이만; group separators are skipped.
  private init?(readingDigitsBackward digits: some Sequence<Unicode.Scalar>) {
    var trailingZeros = 0
    var lastNonZero: UInt32?
    for scalar in digits {
      if scalar == "," { continue }
      guard let digit = scalar.asciiDigitValue else { break }
      if digit != 0 {
        lastNonZero = digit
        break
      }
      trailingZeros += 1
    }
    guard let lastNonZero else {
      self = .consonant  // 영
      return
    }
    switch trailingZeros {
    case 0:
      switch lastNonZero {
      case 1, 7, 8: self = .rieul  // 일, 칠, 팔
      case 3, 6: self = .consonant  // 삼, 육
      default: self = .vowel  // 이, 사, 오, 구
      }
    case 1, 2, 3:
      self = .consonant  // 십, 백, 천
    default:
      switch trailingZeros / 4 {
      case 1, 2, 4: self = .consonant  // 만, 억, 경
      case 3, 5: self = .vowel  // 조, 해
      default: return nil
      }
    }
  }

  private static let closingCharacters: Set<Unicode.Scalar> = [
    "\"", "'", "”", "’", "»", "›", "」", "』", ")", "]", "}", "）", "］", "｝", "〉", "》", "〕",
    "】", "〗", "＂", "＇",
  ]
}

extension Unicode.Scalar {
  /// The value of an ASCII or full-width digit.
  fileprivate var asciiDigitValue: UInt32? {
    switch value {
    case 0x30...0x39: value - 0x30
    case 0xFF10...0xFF19: value - 0xFF10
    default: nil
    }
  }

  /// An ASCII or full-width Latin letter as its ASCII character.
  fileprivate var latinLetter: Character? {
    switch value {
    case 0x41...0x5A, 0x61...0x7A: Character(self)
    case 0xFF21...0xFF3A, 0xFF41...0xFF5A: Unicode.Scalar(value - 0xFEE0).map(Character.init)
    default: nil
    }
  }
}
