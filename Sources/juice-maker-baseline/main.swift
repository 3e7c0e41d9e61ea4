import Foundation

// The bare Foundation program `juice-maker stock` is measured against: it reads the two
// default packs, `Recipes/fruits.json` and `Recipes/juices.json`, with `JSONDecoder`, and
// prints each fruit with its stock. It opens no store and loads no strings.

struct FruitsPack: Decodable {
  struct Fruit: Decodable {
    let id: String
    let stock: Int?
  }

  let fruits: [Fruit]
}

struct JuicesPack: Decodable {
  struct Juice: Decodable {
    struct Ingredient: Decodable {
      let fruit: String
      let count: Int
    }

    let id: String
    let ingredients: [Ingredient]
  }

  let juices: [Juice]
}

do {
  let recipes = URL(fileURLWithPath: "Recipes", isDirectory: true)
  let fruits = try JSONDecoder().decode(
    FruitsPack.self, from: Data(contentsOf: recipes.appendingPathComponent("fruits.json")))
  let juices = try JSONDecoder().decode(
    JuicesPack.self, from: Data(contentsOf: recipes.appendingPathComponent("juices.json")))
  let width = fruits.fruits.map(\.id.count).max() ?? 0
  for fruit in fruits.fruits {
    print(fruit.id.padding(toLength: width, withPad: " ", startingAt: 0), fruit.stock ?? 10)
  }
  if juices.juices.isEmpty { exit(65) }
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(74)
}
