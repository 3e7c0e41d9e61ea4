import FoundationEssentials
import JuiceMakerCLI
import JuiceMakerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

FileDescriptorOutput.reserveStandardDescriptors()
let command = CLI(arguments: Array(CommandLine.arguments.dropFirst()))
let code = await command.run().rawValue
// Compiled packs and catalogs still being written to the cache.
CompiledCache.finishWriting()
// Every write went straight to its descriptor and was checked; what is left are threads
// that may still be inside libpq or SQLite (a store's watcher, a connection's reader).
// `exit` would run the libraries' exit handlers (OpenSSL's among them) under them.
_exit(code)
