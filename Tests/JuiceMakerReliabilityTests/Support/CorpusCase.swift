import Foundation
import Testing

/// One broken input of the corpus, as `Corpus/corpus.json` lists it.
///
/// Its files, if any, are in `Corpus/<kind>s/<name>/` (or the directory `input`
/// names); a `generate` step makes what cannot be committed (10 MB files, symlink
/// loops, FIFOs, damaged stores) at test time.
struct CorpusCase: Decodable, Sendable {
  /// What the case breaks.
  enum Kind: String, Decodable, Sendable, CaseIterable {
    /// A recipe pack in the recipes directory.
    case pack
    /// A string catalog in the localization directory, laid over the shipped ones.
    case catalog
    /// The command line.
    case argument
    /// The store file.
    case store

    /// The corpus directory of the kind's case files.
    var directory: String { rawValue + "s" }
  }

  /// A unique, descriptive name.
  let name: String
  let kind: Kind
  /// The arguments after the standard `--recipes`, `--localization`, `--store` and
  /// `--lang en`. `{workspace}` stands for the case's directory and `{long:N}` for
  /// N letters `x`.
  let args: [String]
  /// The exit code the contract demands.
  let exit: Int32
  /// A part of standard error that names the input and the problem.
  let stderr: String
  /// A part of standard output, when the case succeeds or warns.
  let stdout: String?
  /// The corpus directory of the case's files, relative to `Corpus/`, when not
  /// `<kind>s/<name>`.
  let input: String?
  /// For packs: copy the shipped packs into the recipes directory first.
  let shippedPacks: Bool?
  /// Put the case's files in the user's configuration directory
  /// (`~/.config/juice-maker/recipes/` or `…/localization/`), beside the shipped files in
  /// the given directories: a broken file there is left out with a warning, except by
  /// `validate`.
  let userLayer: Bool?
  /// A step that makes the case's files at test time; see `CorpusGenerator`.
  let generate: String?
  /// Why the case fails today, when it is a known failure outside this target's
  /// code. The test then expects the failure, and fails when it goes away.
  let knownIssue: String?
  /// Whether the command may change the store (a success or a refusal, which the
  /// journal records); then only its stock is compared.
  let storeChanges: Bool?
  /// The case's time limit in seconds; 30 unless given.
  let timeout: Int?
  /// The case needs Linux (`/proc`).
  let linuxOnly: Bool?
  /// The case needs file modes to bind, which they do not for the superuser.
  let needsFileModes: Bool?

  /// The corpus, read once.
  static let all: [CorpusCase] = {
    let url = Paths.corpus.appendingPathComponent("corpus.json")
    guard let data = try? Data(contentsOf: url),
      let cases = try? JSONDecoder().decode([CorpusCase].self, from: data)
    else { return [] }
    return cases
  }()

  /// The cases of one kind that can run here.
  static func cases(_ kind: Kind, needingFileModes: Bool = false) -> [CorpusCase] {
    all.filter { item in
      guard item.kind == kind, (item.needsFileModes ?? false) == needingFileModes else {
        return false
      }
      #if !os(Linux)
        if item.linuxOnly ?? false { return false }
      #endif
      return true
    }
  }
}

// MARK: - CustomTestStringConvertible

extension CorpusCase: CustomTestStringConvertible {
  var testDescription: String { "\(kind.rawValue)/\(name)" }
}
