import Foundation
import JuiceMakerCLI

var command = CLI(arguments: Array(CommandLine.arguments.dropFirst()))
exit(command.run().rawValue)
