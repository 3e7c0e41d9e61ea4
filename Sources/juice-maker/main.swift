import Foundation
import JuiceMakerCLI

FileDescriptorOutput.reserveStandardDescriptors()
let command = CLI(arguments: Array(CommandLine.arguments.dropFirst()))
exit(await command.run().rawValue)
