public import JuiceMakerCatalog
public import JuiceMakerLocalization

// MARK: - Names and messages of the shop

extension Localizer {
  /// A fruit's localized name, from the key `fruit.<id>`; the id itself when no
  /// language names it.
  ///
  /// - Parameters:
  ///   - fruit: The fruit.
  ///   - count: The count that chooses the name's plural form ("1 kiwi", "6 kiwis");
  ///     `nil` for the singular form.
  /// - Returns: The name.
  public func name(of fruit: Fruit.ID, count: Int? = nil) -> String {
    let text = rendering(LocalizationKey.fruit(fruit.rawValue), count: count ?? 1)
    return text.language == nil ? fruit.rawValue : text.value
  }

  /// A juice's localized name, from the key `juice.<id>`; the id itself when no
  /// language names it.
  public func name(of juice: Juice.ID) -> String {
    let text = rendering(LocalizationKey.juice(juice.rawValue), count: 1)
    return text.language == nil ? juice.rawValue : text.value
  }

  /// The message a customer sees when juice is served: "딸바쥬스 나왔습니다! 맛있게 드세요!".
  public func message(for order: Order) -> String {
    let name = LocalizedArgument.string(name(of: order.juice))
    if order.count == 1 {
      return string(LocalizationKey.orderMade, name)
    }
    return string(LocalizationKey.orderMadeMany, name, .int(order.count))
  }

  /// Every shortage as one phrase: "6 more strawberries, 1 more kiwi" or "딸기 6개, 키위 1개".
  ///
  /// - Complexity: O(*k*) for *k* shortages.
  public func phrase(for shortages: [Shortage]) -> String {
    list(
      shortages.map { shortage in
        string(
          LocalizationKey.orderShortage,
          .string(name(of: shortage.fruit, count: shortage.missing)), .int(shortage.missing))
      })
  }

  /// The message a customer sees when juice cannot be made: the out-of-stock question
  /// and every missing fruit, such as
  /// "재료가 모자라요. 재고를 수정할까요? 모자란 재료: 딸기 10개".
  public func message(for shortages: [Shortage]) -> String {
    string(LocalizationKey.orderOutOfStock) + " "
      + string(LocalizationKey.orderShortages, .string(phrase(for: shortages)))
  }
}
