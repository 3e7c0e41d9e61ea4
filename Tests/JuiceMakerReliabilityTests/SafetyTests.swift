import Foundation
import JuiceMakerCatalog
import JuiceMakerKit
import JuiceMakerSQLite
import Testing

/// What hostile data must never do: drive the terminal, or make the tool write
/// anywhere but its own store, or leave the store readable by others.
struct SafetyTests {
  /// Names laid over the shipped catalog, each with terminal controls: a screen
  /// clear, a bell, a title change, DEL and the one-byte C1 CSI.
  static let hostileNames: [String: String] = [
    "juice.kiwi-juice": "Kiwi\u{1B}[2J Juice\u{07}",
    "fruit.kiwi": "ki\u{1B}]0;owned\u{07}wi\u{7F}",
    "fruit.banana": "ba\u{9B}31mnana",
  ]

  /// A workspace with the shipped packs and catalogs, the hostile names laid over them.
  static func hostileWorkspace() throws -> Workspace {
    let workspace = try Workspace("safety")
    try workspace.copyFiles(of: Paths.recipes, to: "recipes")
    try workspace.copyFiles(of: Paths.localization, to: "localization")
    let url = workspace.url.appendingPathComponent("localization/Localizable.xcstrings")
    var document = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var strings = try #require(document["strings"] as? [String: Any])
    for (key, name) in hostileNames {
      let unit: [String: Any] = ["stringUnit": ["state": "translated", "value": name]]
      strings[key] = ["localizations": ["en": unit, "ko": unit]]
    }
    document["strings"] = strings
    try JSONSerialization.data(withJSONObject: document).write(to: url)
    let created = try JuiceMakerProcess.run(
      [
        "--recipes", workspace.path("recipes"), "--localization", workspace.path("localization"),
        "--store", workspace.path("store/store.sqlite"), "init",
      ], in: workspace)
    try #require(created.status == 0, "\(created)")
    return workspace
  }

  static let commands: [[String]] = [
    ["menu"], ["stock"], ["order", "kiwi-juice"], ["order", "kiwi-juice", "--count", "50"],
    ["order", "banana-juice", "--count", "50"], ["stock", "add", "kiwi", "2"],
    ["stock", "remove", "banana", "500"], ["history"], ["validate"], ["menu", "--json"],
    ["order", "\u{1B}[2J"], ["stock", "add", "\u{07}kiwi", "1"],
    ["--lang", "ko", "menu"], ["rush", "--orders", "20"],
  ]

  @Test(arguments: commands)
  func controlCharactersInNamesAreEscaped(_ command: [String]) throws {
    let workspace = try Self.hostileWorkspace()
    let outcome = try JuiceMakerProcess.run(
      [
        "--recipes", workspace.path("recipes"), "--localization", workspace.path("localization"),
        "--store", workspace.path("store/store.sqlite"), "--lang", "en",
      ] + command, in: workspace)
    #expect(outcome.exited && !outcome.timedOut, "\(outcome)")
    Self.expectNoTerminalControls(outcome)
  }

  @Test func shopScreensEscapeControlCharacters() throws {
    let workspace = try Self.hostileWorkspace()
    let outcome = try JuiceMakerProcess.run(
      [
        "--recipes", workspace.path("recipes"), "--localization", workspace.path("localization"),
        "--store", workspace.path("store/store.sqlite"), "--lang", "en", "shop",
      ], in: workspace,
      input: Array("3\n3\n3\n3\nyes\n+ kiwi 1\nclose\n\u{1B}[2J\nq\n".utf8))
    #expect(outcome.status == 0, "\(outcome)")
    Self.expectNoTerminalControls(outcome)
    #expect(outcome.standardOutput.contains(#"Kiwi\u{1B}[2J Juice\u{7}"#), "\(outcome)")
    #expect(outcome.standardOutput.contains(#"ki\u{1B}]0;owned\u{7}wi\u{7F}"#), "\(outcome)")
  }

  /// Fails when the output holds a C0 control other than newline, DEL, or a C1
  /// control.
  static func expectNoTerminalControls(
    _ outcome: JuiceMakerProcess.Outcome, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for (name, bytes) in [("stdout", outcome.stdout), ("stderr", outcome.stderr)] {
      let text = String(decoding: bytes, as: UTF8.self)
      let controls = text.unicodeScalars.filter {
        ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
      }
      #expect(
        controls.isEmpty,
        "\(name) holds \(controls.map { String($0.value, radix: 16) }): \(outcome)",
        sourceLocation: sourceLocation)
    }
  }

  @Test func storeIsCreatedPrivateWhateverTheUmask() throws {
    let workspace = try Workspace("modes")
    let store = workspace.path("deep/er/store.sqlite")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      "-c", #"umask 000; exec "$0" "$@""#, Paths.binary, "--recipes", Paths.recipes.path,
      "--localization", Paths.localization.path, "--store", store, "init",
    ]
    process.environment = workspace.environment
    process.standardOutput = FileHandle.nullDevice
    _ = try JuiceMakerProcess.wait(for: process, timeout: .seconds(30))
    #expect(process.terminationStatus == 0)
    #expect(Self.mode(store) == 0o600)
    #expect(Self.mode(workspace.path("deep")) == 0o700)
    #expect(Self.mode(workspace.path("deep/er")) == 0o700)
    // While a connection is open, SQLite's log and index files exist: they take the
    // store's mode.
    let storage = try SQLiteStockStorage(path: store, fruits: try Stores.shippedCatalog().fruits)
    _ = try storage.levels()
    for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix) {
      #expect(Self.mode(store + suffix) == 0o600, "\(suffix)")
    }
  }

  static func mode(_ path: String) -> mode_t {
    var status = stat()
    guard stat(path, &status) == 0 else { return 0o7777 }
    return status.st_mode & 0o777
  }

  /// Commands that read, write, fail and refuse, each with an explicit store.
  static let writingCommands: [[String]] = [
    ["menu"], ["stock"], ["stock", "add", "kiwi", "3"], ["order", "kiwi-juice"],
    ["order", "kiwi-juice", "--count", "99"], ["history"], ["validate"],
    ["rush", "--orders", "50"],
    ["order", "nothing"], ["--json", "stock", "set", "mango", "4"], ["shop"],
    ["--recipes", "/nonexistent", "menu"], ["stock", "add", "kiwi", "9223372036854775807"],
  ]

  @Test func commandsWriteNothingButTheirStore() throws {
    let workspace = try Workspace("writes")
    try workspace.copyFiles(of: Paths.recipes, to: "recipes")
    try workspace.copyFiles(of: Paths.localization, to: "localization")
    let allowed: Set<String> = [
      "store", "store/store.sqlite", "store/store.sqlite-wal", "store/store.sqlite-shm",
    ]
    let created = try JuiceMakerProcess.run(
      [
        "--recipes", workspace.path("recipes"), "--localization", workspace.path("localization"),
        "--store", workspace.path("store/store.sqlite"), "init",
      ], in: workspace)
    try #require(created.status == 0, "\(created)")
    for command in Self.writingCommands {
      let before = workspace.snapshot()
      let outcome = try JuiceMakerProcess.run(
        [
          "--recipes", workspace.path("recipes"), "--localization",
          workspace.path("localization"), "--store", workspace.path("store/store.sqlite"),
        ] + command, in: workspace, input: Array("1\nno\ns\n+ kiwi 1\nclose\nq\n".utf8))
      #expect(outcome.exited, "\(command): \(outcome)")
      let after = workspace.snapshot()
      let changed = Set(after.keys).union(before.keys).filter { after[$0] != before[$0] }
      #expect(changed.subtracting(allowed).isEmpty, "\(command) wrote \(changed.sorted())")
    }
  }

  @Test func defaultStoreGoesUnderTheStateDirectoryOnly() throws {
    let workspace = try Workspace("default-store")
    let before = workspace.snapshot()
    let common = ["--recipes", Paths.recipes.path, "--localization", Paths.localization.path]
    let withState = try JuiceMakerProcess.run(
      common + ["stock", "add", "kiwi", "1"], in: workspace)
    #expect(withState.status == 0, "\(withState)")
    // An empty XDG_STATE_HOME counts as unset: the store goes under the home.
    let withHome = try JuiceMakerProcess.run(
      common + ["order", "kiwi-juice"], in: workspace, environment: ["XDG_STATE_HOME": ""])
    #expect(withHome.status == 0, "\(withHome)")
    let created = Set(workspace.snapshot().keys).subtracting(before.keys)
    let stores = ["state/juice-maker/store.sqlite", "home/.local/state/juice-maker/store.sqlite"]
    // The given packs and catalogs compiled, under the cache directory (XDG_CACHE_HOME is
    // unset here).
    let cache = "home/.cache/juice-maker/compiled"
    let compiled = created.filter { $0.hasPrefix(cache + "/") }
    let allowed = Set(
      ["state/juice-maker", "home/.local", "home/.local/state", "home/.local/state/juice-maker"]
        + ["home/.cache", "home/.cache/juice-maker", cache]
        + stores + stores.map { $0 + "-wal" } + stores.map { $0 + "-shm" })
    #expect(created.subtracting(allowed).subtracting(compiled).isEmpty, "\(created.sorted())")
    #expect(created.isSuperset(of: stores), "\(created.sorted())")
    #expect(Self.mode(workspace.path("state/juice-maker")) == 0o700)
    #expect(Self.mode(workspace.path("home/.local/state/juice-maker/store.sqlite")) == 0o600)
    // One compiled form for each of the two packs and three catalogs given, each private,
    // named by its file's contents as the cache looks them up.
    var expected: Set<String> = []
    for (folder, kind) in [(Paths.recipes, CompiledForm.Kind.pack), (Paths.localization, .strings)]
    {
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
        let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
        let path = CompiledCache(directory: cache).path(
          kind, source: (ContentHash.of(bytes), bytes.count))
        expected.insert(path)
      }
    }
    #expect(Set(compiled) == expected, "\(compiled.sorted())")
    #expect(Self.mode(workspace.path(cache)) == 0o700)
    for file in compiled { #expect(Self.mode(workspace.path(file)) == 0o600, "\(file)") }
  }
}
