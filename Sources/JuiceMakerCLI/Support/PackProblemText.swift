import JuiceMakerKit

extension CatalogError.Problem {
  /// `file: path: reason`, the reason in the user's language; names, keys and numbers from
  /// the pack are shown escaped and cut short.
  func localized(_ texts: Texts) -> String {
    let reason = self.reason.localized(texts)
    let file = texts.shown(self.file)
    return path.isEmpty ? file + ": " + reason : file + ": " + texts.shown(path) + ": " + reason
  }
}

extension CatalogError.Reason {
  /// The reason in the user's language.
  func localized(_ texts: Texts) -> String {
    func s(_ text: String) -> LocalizedArgument { .string(texts.shown(text)) }
    let l = texts.localizer
    switch self {
    case .directoryMissing: return l.string("pack.directoryMissing")
    case .noPacks: return l.string("pack.noPacks")
    case .unreadable(let detail): return l.string("pack.unreadable", s(detail))
    case .notAFile: return l.string("pack.notAFile")
    case .malformedJSON(let detail, let line, let column):
      return l.string("pack.malformedJSON", .int(line), .int(column), s(detail))
    case .unknownKey(let key): return l.string("pack.unknownKey", s(key))
    case .missingKey(let key): return l.string("pack.missingKey", s(key))
    case .wrongType(let expected, let found):
      return l.string("pack.wrongType", s(expected), s(found))
    case .notWholeNumber(let text): return l.string("pack.notWholeNumber", s(text))
    case .numberOutOfRange(let text):
      return l.string(text.hasPrefix("-") ? "pack.tooSmall" : "pack.tooLarge", s(text))
    case .invalidID(let id):
      return l.string("pack.invalidID", s(id), .int(Fruit.maximumIDLength))
    case .duplicateFruit(let id, let firstFile, let firstPath):
      return l.string("pack.duplicateFruit", s(id.rawValue), s(firstFile + ": " + firstPath))
    case .duplicateJuice(let id, let firstFile, let firstPath):
      return l.string("pack.duplicateJuice", s(id.rawValue), s(firstFile + ": " + firstPath))
    case .unknownFruit(let id): return l.string("pack.unknownFruit", s(id.rawValue))
    case .repeatedIngredient(let id): return l.string("pack.repeatedIngredient", s(id.rawValue))
    case .nonPositiveCount(let count): return l.string("pack.nonPositiveCount", .int(count))
    case .negativeStock(let stock): return l.string("pack.negativeStock", .int(stock))
    case .emptyRecipe: return l.string("pack.emptyRecipe")
    case .moreProblems(let count): return l.string("pack.moreProblems", .int(count))
    case .invalidCurrency(let code): return l.string("pack.invalidCurrency", s(code))
    case .priceWithoutCurrency: return l.string("pack.priceWithoutCurrency")
    case .invalidPrice(let text, let currency, let reason):
      switch reason {
      case .notADecimal: return l.string("pack.priceNotDecimal", s(text))
      case .tooManyDecimals: return l.string("pack.priceTooManyDecimals", s(text), s(currency))
      case .tooLarge: return l.string("pack.tooLarge", s(text))
      }
    case .currencyConflict(let code, let first, let firstFile):
      return l.string("pack.currencyConflict", s(code), s(first), s(firstFile))
    case .negativeLimit(let value): return l.string("pack.negativeLimit", .int(value))
    case .parBelowMinimum(let minimum, let par):
      return l.string("pack.parBelowMinimum", .int(par), .int(minimum))
    }
  }

  /// Every catalog key ``localized(_:)`` uses, for `validate`.
  static let keys = [
    "pack.directoryMissing", "pack.noPacks", "pack.unreadable", "pack.notAFile",
    "pack.malformedJSON", "pack.unknownKey", "pack.missingKey", "pack.wrongType",
    "pack.notWholeNumber", "pack.tooSmall", "pack.tooLarge", "pack.invalidID",
    "pack.duplicateFruit", "pack.duplicateJuice", "pack.unknownFruit", "pack.repeatedIngredient",
    "pack.nonPositiveCount", "pack.negativeStock", "pack.emptyRecipe", "pack.moreProblems",
    "pack.invalidCurrency", "pack.priceWithoutCurrency", "pack.priceNotDecimal",
    "pack.priceTooManyDecimals", "pack.currencyConflict", "pack.negativeLimit",
    "pack.parBelowMinimum",
  ]
}
