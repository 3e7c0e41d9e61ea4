// libFuzzer entry for the pack decoder; built by fuzz.sh together with the
// JuiceMakerCatalog sources, so it sees the module's internals.

/// Decodes one input as a pack and checks what the in-process fuzz tests check:
/// a malformed document is one located problem, and what decodes is valid.
@_cdecl("LLVMFuzzerTestOneInput")
public func packFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let (pack, problems) = PackDecoder.decode(bytes, file: "fuzz.json")
  for problem in problems {
    precondition(!problem.description.isEmpty)
    precondition(problem.description.utf8.count <= 2_000)
  }
  precondition(problems.count <= PackDecoder.maximumProblems + 1)
  for entry in pack.fruits {
    precondition(
      (try? Fruit.ID(validating: entry.fruit.id.rawValue)) != nil
        && entry.fruit.initialStock >= 0)
  }
  for entry in pack.juices {
    precondition(
      (try? Juice.ID(validating: entry.id.rawValue)) != nil && !entry.ingredients.isEmpty)
    precondition(entry.ingredients.allSatisfy { $0.count > 0 })
  }
  return 0
}
