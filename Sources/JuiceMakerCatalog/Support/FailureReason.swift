import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The words for why a file operation failed, as the system says them: `No such file or
/// directory`, `Permission denied`.
package enum FailureReason {
  /// The reason of an error a file operation of `FoundationEssentials` threw: the system's
  /// words for the error beneath it, or what the error says of itself.
  package static func of(_ error: any Error) -> String {
    if let posix = error as? POSIXError { return describing(posix) }
    guard let cocoa = error as? CocoaError else { return "\(error)" }
    if let posix = cocoa.underlying as? POSIXError { return describing(posix) }
    switch cocoa.code {
    case .fileReadInapplicableStringEncoding, .fileReadCorruptFile: return "it is not UTF-8 text"
    case .fileReadNoSuchFile, .fileNoSuchFile: return String(cString: strerror(ENOENT))
    case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
    default: return "error \(cocoa.code.rawValue)"
    }
  }

  private static func describing(_ error: POSIXError) -> String {
    String(cString: strerror(error.code.rawValue))
  }
}
