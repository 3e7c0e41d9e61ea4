import JuiceMakerKit

extension JuiceMaker {
  /// Makes juice for the command line, turning the shop's refusal into the command's.
  ///
  /// - Parameters:
  ///   - juice: The juice.
  ///   - count: How many, all or nothing.
  /// - Returns: The order.
  /// - Throws: `CLIError.outOfStock` listing every short fruit, or the store's failure.
  func serve(_ juice: Juice, count: Int) throws(CLIError) -> Order {
    do throws(JuiceMakerError) {
      return try make(juice, count: count)
    } catch {
      switch error {
      case .outOfStock(let shortages): throw .outOfStock(shortages)
      case .unknownJuice(let id): throw .unknownJuice(id.rawValue)
      case .unknownFruit(let id): throw .unknownFruit(id.rawValue)
      case .invalidCount(let count): throw .tooLarge(value: String(count), option: "--count")
      case .overflow(let fruit, let stock, let amount):
        throw .overflow(fruit: fruit, stock: stock, amount: amount)
      case .stockChanged(let fruit, let expected, let actual):
        throw .stockChanged(fruit: fruit, expected: expected, actual: actual)
      case .storage(let storageError): throw CLIError(storageError)
      }
    }
  }
}
