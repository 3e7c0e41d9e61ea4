/// One line of a recipe: a fruit and how many of it one juice takes.
public struct Ingredient: Hashable, Sendable, Codable {
  /// The fruit.
  public let fruit: Fruit.ID
  /// How many of the fruit one juice takes; always positive in a loaded catalog.
  public let count: Int

  /// Creates an ingredient.
  public init(fruit: Fruit.ID, count: Int) {
    self.fruit = fruit
    self.count = count
  }
}
