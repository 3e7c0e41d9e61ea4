// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "JuiceMaker",
  platforms: [.macOS(.v15)],
  products: [
    // The three libraries below, as one import.
    .library(name: "JuiceMakerKit", targets: ["JuiceMakerKit"]),
    .library(name: "JuiceMakerCatalog", targets: ["JuiceMakerCatalog"]),
    .library(name: "JuiceMakerLocalization", targets: ["JuiceMakerLocalization"]),
    .library(name: "JuiceMakerStock", targets: ["JuiceMakerStock"]),
    // The storage conformance suite, for the tests of any `StockStorage`.
    .library(name: "JuiceMakerStorageTesting", targets: ["JuiceMakerStorageTesting"]),
    .library(name: "JuiceMakerSQLite", targets: ["JuiceMakerSQLite"]),
    .library(name: "JuiceMakerPostgres", targets: ["JuiceMakerPostgres"]),
    .executable(name: "juice-maker", targets: ["juice-maker"]),
  ],
  targets: [
    // Fruit, juice, packs, and the JSON parser they are read with.
    .target(name: "JuiceMakerCatalog"),
    // A general `.xcstrings` runtime: it reads catalogs with the catalog's JSON parser.
    .target(name: "JuiceMakerLocalization", dependencies: ["JuiceMakerCatalog"]),
    // The stock ledger, the store and its storages, and the shop over them.
    .target(
      name: "JuiceMakerStock", dependencies: ["JuiceMakerCatalog", "JuiceMakerLocalization"]),
    // Re-exports the three, so `import JuiceMakerKit` is all a user writes.
    .target(
      name: "JuiceMakerKit",
      dependencies: ["JuiceMakerCatalog", "JuiceMakerLocalization", "JuiceMakerStock"]),
    .target(name: "JuiceMakerStorageTesting", dependencies: ["JuiceMakerKit"]),
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    .target(name: "JuiceMakerSQLite", dependencies: ["JuiceMakerKit", "CSQLite"]),
    .systemLibrary(
      name: "CLibPQ",
      pkgConfig: "libpq",
      providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
    ),
    .target(name: "JuiceMakerPostgres", dependencies: ["JuiceMakerKit", "CLibPQ"]),
    .systemLibrary(
      name: "CMicroHTTPD",
      pkgConfig: "libmicrohttpd",
      providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
    ),
    // An HTTP/1.1 server over libmicrohttpd: requests in, responses and event streams out.
    .target(name: "JuiceMakerHTTP", dependencies: ["CMicroHTTPD"]),
    // A throwaway PostgreSQL server in a temporary directory, for the tests and the benchmark.
    .target(name: "TemporaryPostgres"),
    .target(
      name: "JuiceMakerCLI",
      dependencies: ["JuiceMakerKit", "JuiceMakerSQLite", "JuiceMakerPostgres", "JuiceMakerHTTP"],
      // The kiosk page's files, compiled in by EmbedData.
      exclude: ["Kiosk/Assets"],
      plugins: ["EmbedData"]),
    // Compiles Recipes/ and Localization/ into JuiceMakerCLI, so the binary needs no files.
    .plugin(
      name: "EmbedData", capability: .buildTool(), dependencies: ["embed-data"],
      path: "Sources/EmbedDataPlugin"),
    .executableTarget(name: "embed-data", path: "Sources/embed-data"),
    .executableTarget(name: "juice-maker", dependencies: ["JuiceMakerCLI"]),
    // `swift run -c release juice-maker-benchmark` builds the three programs it starts too.
    .executableTarget(
      name: "juice-maker-benchmark",
      dependencies: [
        "JuiceMakerKit", "JuiceMakerSQLite", "JuiceMakerPostgres", "TemporaryPostgres",
        "JuiceMakerCLI", "juice-maker", "juice-maker-baseline", "juice-maker-http-floor",
      ]
    ),
    // The bare Foundation program the benchmark times `juice-maker stock` against.
    .executableTarget(name: "juice-maker-baseline"),
    // The bare libmicrohttpd program the benchmark drives `juice-maker serve` against:
    // the server's daemon options, one fixed answer.
    .executableTarget(
      name: "juice-maker-http-floor", dependencies: ["CMicroHTTPD", "JuiceMakerHTTP"]),
    .testTarget(
      name: "JuiceMakerKitTests",
      // The CLI for the language it picks from its environment variable and `LANG`.
      dependencies: ["JuiceMakerKit", "JuiceMakerCatalog", "JuiceMakerStock", "JuiceMakerCLI"],
      exclude: ["Fixtures"]),
    .testTarget(name: "JuiceMakerSQLiteTests", dependencies: ["JuiceMakerSQLite", "CSQLite"]),
    // The full-screen shop's tests hold an SQLite store's lock and restart a PostgreSQL
    // server under it.
    .testTarget(
      name: "JuiceMakerCLITests", dependencies: ["JuiceMakerCLI", "CSQLite", "TemporaryPostgres"]),
    // Every storage of the package runs the public conformance suite; a new storage
    // joins it with one `StorageUnderTest` and a dependency here.
    .testTarget(
      name: "JuiceMakerStorageConformanceTests",
      dependencies: [
        "JuiceMakerKit", "JuiceMakerSQLite", "JuiceMakerPostgres", "TemporaryPostgres",
        "JuiceMakerStorageTesting",
      ]),
    .testTarget(
      name: "JuiceMakerPostgresTests",
      dependencies: ["JuiceMakerPostgres", "CLibPQ", "TemporaryPostgres", "juice-maker"]),
    .testTarget(
      name: "JuiceMakerReliabilityTests",
      dependencies: [
        "JuiceMakerKit", "JuiceMakerCatalog", "JuiceMakerLocalization", "JuiceMakerSQLite",
        "JuiceMakerCLI", "juice-maker",
      ],
      exclude: ["Corpus", "Fuzz"]),
  ]
)

for target in package.targets where target.type != .system && target.type != .plugin {
  var settings = target.swiftSettings ?? []
  settings.append(contentsOf: [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
  ])
  target.swiftSettings = settings
}
