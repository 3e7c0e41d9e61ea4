import Foundation
import JuiceMakerCLI

let command = CLI(arguments: Array(CommandLine.arguments.dropFirst()))
exit(await command.run().rawValue)
