import Foundation

/// A chain's own menu: the shipped juices with prices in won, and the shipped fruits with
/// minimum and par levels, as user packs that replace the built-in ones of the same name.
enum ChainMenu {
  static let juices = #"""
    {
      "currency": "KRW",
      "juices": [
        { "id": "strawberry-juice", "price": "5500", "ingredients": [{ "fruit": "strawberry", "count": 16 }] },
        { "id": "banana-juice", "price": "4000", "ingredients": [{ "fruit": "banana", "count": 2 }] },
        { "id": "kiwi-juice", "price": "4500", "ingredients": [{ "fruit": "kiwi", "count": 3 }] },
        { "id": "pineapple-juice", "price": "4500", "ingredients": [{ "fruit": "pineapple", "count": 2 }] },
        { "id": "strawberry-banana-juice", "price": "6000",
          "ingredients": [{ "fruit": "strawberry", "count": 10 }, { "fruit": "banana", "count": 1 }] },
        { "id": "mango-juice", "price": "5000", "ingredients": [{ "fruit": "mango", "count": 3 }] },
        { "id": "mango-kiwi-juice", "price": "5500",
          "ingredients": [{ "fruit": "mango", "count": 2 }, { "fruit": "kiwi", "count": 1 }] }
      ]
    }
    """#

  static let fruits = #"""
    {
      "fruits": [
        { "id": "strawberry", "stock": 10, "min": 4, "par": 20 },
        { "id": "banana", "stock": 10, "min": 3, "par": 12 },
        { "id": "pineapple", "stock": 10, "min": 2, "par": 10 },
        { "id": "kiwi", "stock": 10, "min": 3, "par": 10 },
        { "id": "mango", "stock": 10 }
      ]
    }
    """#
}

extension Sandbox {
  /// Writes the chain's menu into the sandbox's user recipes directory.
  ///
  /// - Returns: The environment that makes commands read it.
  func writeChainMenu() throws -> [String: String?] {
    let config = directory.appending(path: "config")
    let recipes = config.appending(path: "juice-maker/recipes")
    try FileManager.default.createDirectory(at: recipes, withIntermediateDirectories: true)
    try Data(ChainMenu.juices.utf8).write(to: recipes.appending(path: "juices.json"))
    try Data(ChainMenu.fruits.utf8).write(to: recipes.appending(path: "fruits.json"))
    return ["XDG_CONFIG_HOME": config.path]
  }
}
