/// Where each line of a document starts, to name the line and column of a byte offset.
///
/// Parsed values keep their offsets only, so that a document's tokens stay small; a problem's
/// message finds its line and column here, once the document is read to the end.
struct LineTable {
  /// The offset of each line's first byte, the first line's after any byte order mark.
  private var starts: [Int]

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    let hasByteOrderMark =
      bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    starts = [hasByteOrderMark ? 3 : 0]
    for offset in bytes.indices where bytes[offset] == 0x0A { starts.append(offset + 1) }
  }

  /// The 1-based line and column (in bytes) of the byte at `offset`.
  func position(of offset: Int) -> (line: Int, column: Int) {
    // The last line that starts at or before the offset.
    var low = 0
    var high = starts.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if starts[middle] <= offset { low = middle } else { high = middle }
    }
    return (low + 1, offset - starts[low] + 1)
  }
}
