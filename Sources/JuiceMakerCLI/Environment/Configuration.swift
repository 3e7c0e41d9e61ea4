import FoundationEssentials
import JuiceMakerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything the command takes from its environment, resolved in one place: the
/// `JUICE_MAKER_*` variables (each declared beside the option it stands for, in
/// `GlobalOptions`), the XDG base directories and `HOME`, the language variables, and the
/// choice of store.
///
/// | Setting | From, first found |
/// | --- | --- |
/// | Packs | built in, then `$XDG_CONFIG_HOME/juice-maker/recipes/` (else `~/.config/…`), then `--recipes` or `JUICE_MAKER_RECIPES` |
/// | String catalogs | built in, then `$XDG_CONFIG_HOME/juice-maker/localization/`, then `--localization` or `JUICE_MAKER_LOCALIZATION` |
/// | Language | `--lang`, `JUICE_MAKER_LANG`, `LC_ALL`, `LC_MESSAGES`, `LANG` |
/// | Compiled packs and catalogs | `$XDG_CACHE_HOME/juice-maker/compiled/` (else `~/.cache/…`) |
/// | Store | `--store`, `JUICE_MAKER_STORE`, else `$XDG_STATE_HOME/juice-maker/store.sqlite` (else `~/.local/state/…`) |
///
/// An XDG variable counts only when it holds an absolute path, as the XDG Base Directory
/// specification says; `HOME` only when it is not empty.
struct Configuration: Sendable {
  /// The process environment.
  let environment: [String: String]

  init(environment: [String: String]) {
    self.environment = environment
  }

  /// The home directory of the account the program runs as, from the password database;
  /// `/` when it has none.
  private static var accountHome: String {
    var entry = passwd()
    var found: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getpwuid_r(getuid(), &entry, &buffer, buffer.count, &found) == 0, found != nil,
      let directory = entry.pw_dir
    else { return "/" }
    return String(cString: directory)
  }

  /// `HOME` when set and not empty, else the account's home directory.
  var home: String {
    environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.accountHome
  }

  /// `HOME` when set and not empty: for expanding a `~` the user typed, which is nothing
  /// without it.
  var homeVariable: String? {
    environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The program's directory under an XDG base directory: `$VARIABLE/juice-maker` when the
  /// variable holds an absolute path, else `fallback` under `HOME`.
  private func directory(_ variable: String, fallback: String) -> String {
    if let base = environment[variable], base.hasPrefix("/") {
      return base + "/juice-maker"
    }
    return home + "/" + fallback + "/juice-maker"
  }

  /// Where the user's packs and catalogs live: `$XDG_CONFIG_HOME/juice-maker`, else
  /// `~/.config/juice-maker`.
  var configurationDirectory: String { directory("XDG_CONFIG_HOME", fallback: ".config") }

  /// Where the default store lives: `$XDG_STATE_HOME/juice-maker`, else
  /// `~/.local/state/juice-maker`.
  var stateDirectory: String { directory("XDG_STATE_HOME", fallback: ".local/state") }

  /// Where packs and catalogs are kept compiled between runs:
  /// `$XDG_CACHE_HOME/juice-maker/compiled`, else `~/.cache/juice-maker/compiled`.
  var compiledCache: CompiledCache {
    CompiledCache(directory: directory("XDG_CACHE_HOME", fallback: ".cache") + "/compiled")
  }

  /// The per-user store a command uses when neither `--store` nor `JUICE_MAKER_STORE`
  /// names one.
  var defaultStore: StoreAddress {
    StoreAddress(defaultPath: stateDirectory + "/store.sqlite")
  }

  /// The value of the environment variable an option stands for, when it is set.
  ///
  /// - Throws: `CLIError.emptyValue` naming a variable that is set but empty, as an empty
  ///   option is.
  func value(for spec: OptionSpec) throws(CLIError) -> String? {
    guard let name = spec.environmentVariable, let value = environment[name] else { return nil }
    guard !value.isEmpty else { throw .emptyValue(option: name) }
    return value
  }

  /// The language the user prefers: `given` (`--lang`), else `JUICE_MAKER_LANG`, `LC_ALL`,
  /// `LC_MESSAGES`, `LANG`; `nil` for the catalogs' source language.
  func language(given: String?) -> String? {
    Localizer.preferredLanguage(arguments: given, environment: environment)
  }

  /// The store: `--store`, else `JUICE_MAKER_STORE`, else `defaultStore`.
  func store(_ global: GlobalOptions) -> StoreAddress {
    global.store ?? global.storeVariable ?? defaultStore
  }
}
