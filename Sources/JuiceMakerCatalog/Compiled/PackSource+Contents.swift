/// What a pack's or catalog's source holds, for its loader: its compiled form, read; or the
/// bytes to parse; or why it cannot be read.
package enum SourceContents<Value> {
  /// The compiled form, compiled into the program or found sound in the cache.
  case compiled(Value)
  /// The bytes to parse, with the content hash and size to compile them under when a cache
  /// is given and they did not come compiled into the program.
  case bytes([UInt8], key: (hash: UInt64, size: Int)?)
  /// Why the file cannot be read.
  case unreadable(CatalogError.Reason)
}

extension PackSource {
  /// The source's compiled form when there is a sound one, else its bytes: the one way the
  /// pack and catalog loaders reach their sources.
  ///
  /// A file is hashed a block at a time and looked up before it is read; bytes in memory
  /// are hashed and looked up; a form compiled into the program is read in place, and its
  /// text is parsed should it not read.
  ///
  /// - Parameters:
  ///   - kind: What the source is.
  ///   - cache: Where compiled forms are kept, if anywhere.
  ///   - decode: Reads a compiled form's body.
  package func contents<Value>(
    _ kind: CompiledForm.Kind, cache: CompiledCache?,
    decode: (inout CompiledReader) throws(CompiledForm.Damaged) -> Value
  ) -> SourceContents<Value> {
    let bytes: [UInt8]
    switch self {
    case .file(let path):
      if let cache,
        let key = ContentHash.ofFile(atPath: path, maximumSize: Catalog.maximumPackSize),
        let hit = cache.lookUp(kind, source: key, decode: decode)
      {
        return .compiled(hit)
      }
      switch Catalog.readFile(atPath: path) {
      case .bytes(let read): bytes = read
      case .unreadable(let reason): return .unreadable(reason)
      }
    case .bytes(let given, _):
      bytes = given
    case .compiled(let form, _, let text):
      if let read = CompiledForm.read(form, kind: kind, decode: decode) { return .compiled(read) }
      return .bytes(Array(text.utf8), key: nil)
    }
    guard let cache else { return .bytes(bytes, key: nil) }
    let key = (hash: ContentHash.of(bytes), size: bytes.count)
    if case .bytes = self, let hit = cache.lookUp(kind, source: key, decode: decode) {
      return .compiled(hit)
    }
    return .bytes(bytes, key: key)
  }
}
