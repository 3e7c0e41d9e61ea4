import Foundation

/// Data directories built in a sandbox from the shipped data, for what the shipped data
/// cannot show.
enum Fixtures {
  /// The shipped recipes and string catalogs plus a berries pack whose names collide: the
  /// Korean name of `berry-blend` is the English name of `berry-mix` ("Berry Mix"), and
  /// both `raspberry` and `lime` are "라즈베리" in Korean.
  ///
  /// - Returns: The `--recipes` and `--localization` options that select the data.
  static func ambiguous(in sandbox: Sandbox) throws -> [String] {
    let (recipes, localization) = try copyShippedData(into: sandbox, named: "ambiguous")
    try write(
      """
      {
        "fruits": [
          { "id": "blueberry", "stock": 10 },
          { "id": "raspberry", "stock": 10 },
          { "id": "lime", "stock": 10 }
        ],
        "juices": [
          {
            "id": "berry-mix",
            "ingredients": [{ "fruit": "blueberry", "count": 1 }, { "fruit": "raspberry", "count": 1 }]
          },
          { "id": "berry-blend", "ingredients": [{ "fruit": "blueberry", "count": 2 }] }
        ]
      }
      """, to: recipes.appending(path: "berries.json"))
    try write(
      """
      {
        "sourceLanguage": "en",
        "version": "1.0",
        "strings": {
          "fruit.blueberry": { "localizations": {
            "en": { "stringUnit": { "state": "translated", "value": "blueberry" } },
            "ko": { "stringUnit": { "state": "translated", "value": "블루베리" } } } },
          "fruit.raspberry": { "localizations": {
            "en": { "stringUnit": { "state": "translated", "value": "raspberry" } },
            "ko": { "stringUnit": { "state": "translated", "value": "라즈베리" } } } },
          "fruit.lime": { "localizations": {
            "en": { "stringUnit": { "state": "translated", "value": "lime" } },
            "ko": { "stringUnit": { "state": "translated", "value": "라즈베리" } } } },
          "juice.berry-mix": { "localizations": {
            "en": { "stringUnit": { "state": "translated", "value": "Berry Mix" } },
            "ko": { "stringUnit": { "state": "translated", "value": "베리믹스" } } } },
          "juice.berry-blend": { "localizations": {
            "en": { "stringUnit": { "state": "translated", "value": "Berry Blend" } },
            "ko": { "stringUnit": { "state": "translated", "value": "Berry Mix" } } } }
        }
      }
      """, to: localization.appending(path: "Berries.xcstrings"))
    return ["--recipes", recipes.path, "--localization", localization.path]
  }

  /// The shipped data plus a melon pack whose English names are other ids: the juice
  /// `melon-juice` is called "kiwi-juice", and the fruit `melon` "cantaloupe", the id of
  /// the pack's other fruit (called "rockmelon").
  ///
  /// - Returns: The `--recipes` and `--localization` options that select the data.
  static func namesThatAreOtherIDs(in sandbox: Sandbox) throws -> [String] {
    let (recipes, localization) = try copyShippedData(into: sandbox, named: "names-are-ids")
    try write(
      """
      {
        "fruits": [{ "id": "melon", "stock": 10 }, { "id": "cantaloupe", "stock": 10 }],
        "juices": [{ "id": "melon-juice", "ingredients": [{ "fruit": "melon", "count": 1 }] }]
      }
      """, to: recipes.appending(path: "melon.json"))
    try write(
      """
      {
        "sourceLanguage": "en",
        "version": "1.0",
        "strings": {
          "fruit.melon": { "localizations": {
            "en": { "stringUnit": { "state": "translated", "value": "cantaloupe" } },
            "ko": { "stringUnit": { "state": "translated", "value": "멜론" } } } },
          "fruit.cantaloupe": { "localizations": {
            "en": { "stringUnit": { "state": "translated", "value": "rockmelon" } },
            "ko": { "stringUnit": { "state": "translated", "value": "칸탈루프" } } } },
          "juice.melon-juice": { "localizations": {
            "en": { "stringUnit": { "state": "translated", "value": "kiwi-juice" } },
            "ko": { "stringUnit": { "state": "translated", "value": "멜론쥬스" } } } }
        }
      }
      """, to: localization.appending(path: "Melon.xcstrings"))
    return ["--recipes", recipes.path, "--localization", localization.path]
  }

  /// The shipped data plus a pack that is not JSON.
  ///
  /// - Returns: The `--recipes` and `--localization` options that select the data.
  static func brokenPack(in sandbox: Sandbox) throws -> [String] {
    let (recipes, localization) = try copyShippedData(into: sandbox, named: "broken-pack")
    try write("{ \"fruits\": [", to: recipes.appending(path: "broken.json"))
    return ["--recipes", recipes.path, "--localization", localization.path]
  }

  /// The shipped data plus a string catalog that is not JSON.
  ///
  /// - Returns: The `--recipes` and `--localization` options that select the data.
  static func brokenCatalog(in sandbox: Sandbox) throws -> [String] {
    let (recipes, localization) = try copyShippedData(into: sandbox, named: "broken-catalog")
    try write("{ \"strings\": ", to: localization.appending(path: "Broken.xcstrings"))
    return ["--recipes", recipes.path, "--localization", localization.path]
  }

  /// The shipped data plus a string catalog whose Korean juice name is missing.
  ///
  /// - Returns: The `--recipes` and `--localization` options that select the data.
  static func untranslatedJuice(in sandbox: Sandbox) throws -> [String] {
    let (recipes, localization) = try copyShippedData(into: sandbox, named: "untranslated")
    try write(
      """
      { "juices": [{ "id": "melon-juice", "ingredients": [{ "fruit": "kiwi", "count": 1 }] }] }
      """, to: recipes.appending(path: "melon.json"))
    try write(
      """
      {
        "sourceLanguage": "en",
        "version": "1.0",
        "strings": {
          "juice.melon-juice": { "localizations": {
            "en": { "stringUnit": { "state": "translated", "value": "Melon Juice" } } } }
        }
      }
      """, to: localization.appending(path: "Melon.xcstrings"))
    return ["--recipes", recipes.path, "--localization", localization.path]
  }

  private static func copyShippedData(into sandbox: Sandbox, named name: String) throws -> (
    recipes: URL, localization: URL
  ) {
    let root = sandbox.directory.appending(path: name)
    let recipes = root.appending(path: "Recipes")
    let localization = root.appending(path: "Localization")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Paths.recipes, to: recipes)
    try FileManager.default.copyItem(at: Paths.localization, to: localization)
    return (recipes, localization)
  }

  private static func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
  }
}
