// swift-tools-version:6.0
import PackageDescription

// A storage written outside JuiceMaker, checked by the public conformance suite: it sees
// only JuiceMaker's public products, as a third party's package does.
// `swift test --package-path Tests/ExternalStorage` runs it.
let package = Package(
  name: "ExternalStorage",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "JuiceMaker", path: "../..")],
  targets: [
    .testTarget(
      name: "ExternalStorageTests",
      dependencies: [
        .product(name: "JuiceMakerKit", package: "JuiceMaker"),
        .product(name: "JuiceMakerStorageTesting", package: "JuiceMaker"),
      ])
  ]
)
