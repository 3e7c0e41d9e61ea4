import JuiceMakerKit

extension JuiceMaker {
  /// Makes juice for the command line, turning the shop's refusal into the command's.
  ///
  /// - Parameters:
  ///   - juice: The juice.
  ///   - count: How many, all or nothing.
  ///   - requestID: The request's id, so a retried order is made once.
  /// - Returns: The order.
  /// - Throws: `CLIError.outOfStock` listing every short fruit, or the store's failure.
  func serve(_ juice: Juice, count: Int, requestID: RequestID? = nil) throws(CLIError) -> Order {
    do throws(JuiceMakerError) {
      return try make(juice, count: count, requestID: requestID)
    } catch {
      throw CLIError(error)
    }
  }
}

extension CLIError {
  /// The command's error for a shop's.
  init(_ error: JuiceMakerError) {
    switch error {
    case .outOfStock(let shortages): self = .outOfStock(shortages)
    case .unknownJuice(let id): self = .unknownJuice(id.rawValue)
    case .foreignJuice(let handle): self = .unknownJuice(handle.description)
    case .unknownFruit(let id): self = .unknownFruit(id.rawValue)
    case .invalidCount(let count): self = .tooLarge(value: String(count), option: "--count")
    case .overflow(let fruit, let stock, let amount):
      self = .overflow(fruit: fruit, stock: stock, amount: amount)
    case .stockChanged(let fruit, let expected, let actual):
      self = .stockChanged(fruit: fruit, expected: expected, actual: actual)
    case .requestIDReused(let id, let firstUse): self = .requestIDReused(id, firstUse: firstUse)
    case .storage(let storageError): self = CLIError(storageError)
    }
  }
}

extension JuiceMaker {
  /// How many of each juice can be made, in menu order, or the command's error when the
  /// store cannot be read.
  func makeable() throws(CLIError) -> [Int] {
    do {
      return try makeableCounts()
    } catch {
      guard case .storage(let cause) = error else { return [] }
      throw CLIError(cause)
    }
  }
}
