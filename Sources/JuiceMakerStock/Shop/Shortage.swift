public import JuiceMakerCatalog

/// A fruit there is not enough of.
public struct Shortage: Hashable, Sendable, Codable {
  /// The fruit.
  public let fruit: Fruit.ID
  /// How many the operation needs.
  public let needed: Int
  /// How many the store holds (0 for a fruit it does not hold).
  public let available: Int

  /// How many more are needed: `needed - available`.
  public var missing: Int { needed - available }

  /// Creates a shortage.
  public init(fruit: Fruit.ID, needed: Int, available: Int) {
    self.fruit = fruit
    self.needed = needed
    self.available = available
  }

  private enum CodingKeys: String, CodingKey {
    case fruit, needed, available, missing
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      fruit: try container.decode(Fruit.ID.self, forKey: .fruit),
      needed: try container.decode(Int.self, forKey: .needed),
      available: try container.decode(Int.self, forKey: .available))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(fruit, forKey: .fruit)
    try container.encode(needed, forKey: .needed)
    try container.encode(available, forKey: .available)
    try container.encode(missing, forKey: .missing)
  }
}
