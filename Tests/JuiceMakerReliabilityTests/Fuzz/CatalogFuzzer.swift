// libFuzzer entry for the string catalog loader and formatter; built by fuzz.sh
// together with the JuiceMakerLocalization sources.

import Foundation

/// Loads one input as a catalog file; when it loads, validates it and renders every
/// key in every language with a few argument lists.
@_cdecl("LLVMFuzzerTestOneInput")
public func catalogFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Data(UnsafeBufferPointer(start: data, count: size))
  guard let catalog = try? StringCatalog(data: bytes, fileName: "Fuzz.xcstrings") else {
    return 0
  }
  _ = catalog.validationIssues(
    nameKeys: ["fruit.kiwi", "juice.kiwi-juice"], namePrefixes: ["fruit.", "juice."],
    requiredKeys: [])
  let argumentLists: [[LocalizedArgument]] = [
    [], [.string("Kiwi"), .int(2)], [.int(Int.min), .int(Int.max), .string("\u{1B}")],
    [.double(.nan), .double(-0.0), .int(-4_096)], [.int(4_096), .double(1e308), .string("")],
  ]
  for language in catalog.languages {
    let localizer = catalog.localizer(for: language)
    for key in catalog.keys {
      for arguments in argumentLists {
        _ = localizer.string(key, arguments: arguments)
        _ = localizer.string(key, arguments: arguments, count: -1)
      }
    }
  }
  return 0
}
