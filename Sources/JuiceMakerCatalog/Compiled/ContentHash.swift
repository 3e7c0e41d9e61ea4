#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// XXH64, the 64-bit hash of the xxHash family: what a compiled data file is keyed and
/// checked by.
///
/// It tells one file's contents from another's and notices a damaged compiled file; it is
/// not a cryptographic hash, and the compiled cache does not rely on it against someone who
/// may write to the user's own files (see ``CompiledCache``).
package enum ContentHash {
  private static let prime1: UInt64 = 11_400_714_785_074_694_791
  private static let prime2: UInt64 = 14_029_467_366_897_019_727
  private static let prime3: UInt64 = 1_609_587_929_392_839_161
  private static let prime4: UInt64 = 9_650_029_242_287_828_579
  private static let prime5: UInt64 = 2_870_177_450_012_600_261

  /// The size of the blocks ``of(_:)`` and ``ofFile(atPath:maximumSize:)`` chain: a file is
  /// hashed a block at a time, so reading it takes one block of memory.
  package static let blockSize = 64 << 10

  /// XXH64 of the bytes with a seed.
  package static func xxh64(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
    let count = bytes.count
    var offset = 0
    var hash: UInt64
    func word(_ at: Int) -> UInt64 {
      UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }
    if count >= 32 {
      var v1 = seed &+ prime1 &+ prime2
      var v2 = seed &+ prime2
      var v3 = seed
      var v4 = seed &- prime1
      while offset + 32 <= count {
        v1 = round(v1, word(offset))
        v2 = round(v2, word(offset + 8))
        v3 = round(v3, word(offset + 16))
        v4 = round(v4, word(offset + 24))
        offset += 32
      }
      hash = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
      hash = merge(hash, v1)
      hash = merge(hash, v2)
      hash = merge(hash, v3)
      hash = merge(hash, v4)
    } else {
      hash = seed &+ prime5
    }
    hash &+= UInt64(count)
    while offset + 8 <= count {
      hash ^= round(0, word(offset))
      hash = rotate(hash, 27) &* prime1 &+ prime4
      offset += 8
    }
    if offset + 4 <= count {
      let half = UInt64(
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
      hash ^= half &* prime1
      hash = rotate(hash, 23) &* prime2 &+ prime3
      offset += 4
    }
    while offset < count {
      hash ^= UInt64(bytes[offset]) &* prime5
      hash = rotate(hash, 11) &* prime1
      offset += 1
    }
    hash ^= hash >> 33
    hash &*= prime2
    hash ^= hash >> 29
    hash &*= prime3
    hash ^= hash >> 32
    return hash
  }

  /// The hash of a data file's contents: XXH64 of each ``blockSize`` block in turn, each
  /// seeded with the hash of the blocks before it.
  package static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0
    var start = 0
    repeat {
      let end = min(start + blockSize, bytes.count)
      hash = xxh64(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), seed: hash)
      start = end
    } while start < bytes.count
    return hash
  }

  /// ``of(_:)`` of bytes in an array.
  package static func of(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBytes { of($0) }
  }

  /// ``of(_:)`` of a regular file's contents, read a block at a time, and its size; `nil`
  /// when it is not a regular file, cannot be read, or is larger than `maximumSize`.
  package static func ofFile(atPath path: String, maximumSize: Int) -> (hash: UInt64, size: Int)? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
      Int(status.st_size) <= maximumSize
    else { return nil }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 8)
    defer { buffer.deallocate() }
    var hash: UInt64 = 0
    var size = 0
    var finished = false
    repeat {
      var filled = 0
      while filled < blockSize {
        let count = read(descriptor, buffer.baseAddress.map { $0 + filled }, blockSize - filled)
        if count < 0 {
          if errno == EINTR { continue }
          return nil
        }
        if count == 0 {
          finished = true
          break
        }
        filled += count
      }
      size += filled
      guard size <= maximumSize else { return nil }
      // An empty last block counts only for an empty file, as in `of(_:)`.
      if filled > 0 || size == 0 {
        hash = xxh64(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]), seed: hash)
      }
    } while !finished
    return (hash, size)
  }

  private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
    (value << count) | (value >> (64 - count))
  }

  private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
    rotate(accumulator &+ input &* prime2, 31) &* prime1
  }

  private static func merge(_ hash: UInt64, _ value: UInt64) -> UInt64 {
    (hash ^ round(0, value)) &* prime1 &+ prime4
  }
}
