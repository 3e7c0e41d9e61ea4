import FoundationEssentials
import JuiceMakerKit

/// The JSON documents the HTTP API answers with, each written in one place.
enum APIDocuments {
  /// `"shortages":[{"fruit","name","needed","available"}]`.
  static func shortages(_ shortages: [Shortage], _ texts: Texts, into json: inout JSONWriter) {
    json.key("shortages")
    json.array { json in
      for shortage in shortages {
        json.object { json in
          json.member("fruit", shortage.fruit.rawValue)
          json.member("name", texts.localizer.name(of: shortage.fruit))
          json.member("needed", shortage.needed)
          json.member("available", shortage.available)
        }
      }
    }
  }

  /// An order made: what a retry under the same key answers again, built from the
  /// journal entry alone.
  ///
  /// - Parameter words: The juice's name and the message for the order's juice and count,
  ///   when the caller has them already.
  static func order(
    _ entry: JournalEntry, _ texts: Texts, words: (name: String, message: String)? = nil
  ) -> [UInt8] {
    var json = JSONWriter()
    let action = entry.operation.action
    json.object { json in
      json.member("requestId", entry.id.rawValue)
      json.member("sequence", entry.sequence)
      if case .order(let juice, let count) = action {
        json.member("juice", juice.rawValue)
        let words = words ?? orderWords(juice, count: count, texts)
        json.member("name", words.name)
        json.member("count", count)
        json.member("message", words.message)
      }
      json.key("levels")
      json.array { json in
        for change in entry.changes {
          json.object { json in
            json.member("fruit", change.fruit.rawValue)
            json.member("name", texts.localizer.name(of: change.fruit, count: change.after))
            json.member("level", change.after)
          }
        }
      }
    }
    return json.bytes
  }

  /// A juice's name and the message for an order of it.
  static func orderWords(_ juice: Juice.ID, count: Int, _ texts: Texts) -> (
    name: String, message: String
  ) {
    (
      texts.localizer.name(of: juice),
      texts.localizer.message(for: Order(juice: juice, count: count))
    )
  }

  /// A stock edit done, from its journal entry; `level` is the fruit's level when the
  /// edit changed nothing.
  static func stockEdit(_ entry: JournalEntry, fruit: Fruit.ID, level: Int, _ texts: Texts)
    -> [UInt8]
  {
    let change =
      entry.changes.first { $0.fruit == fruit }
      ?? StockChange.Level(fruit: fruit, before: level, after: level)
    var json = JSONWriter()
    json.object { json in
      json.member("requestId", entry.id.rawValue)
      json.member("sequence", entry.sequence)
      json.member("fruit", fruit.rawValue)
      json.member("name", texts.localizer.name(of: fruit, count: change.after))
      json.member("before", change.before)
      json.member("after", change.after)
      json.member(
        "message",
        texts.localizer.string(
          "stock.updated", .string(texts.localizer.name(of: fruit, count: change.after)),
          .int(change.after)))
    }
    return json.bytes
  }

  /// `{"sequence","fruits":[{"id","name","level","low","min","par"}]}`; `min` and `par`
  /// only for a fruit with limits, `low` when it is at or below its minimum.
  static func stock(
    _ fruits: [Fruit.ID], levels: [Int], limits: [Fruit.ID: StockLimits] = [:],
    sequence: Int64, _ texts: Texts
  ) -> [UInt8] {
    var json = JSONWriter(capacity: 64 + fruits.count * 48)
    json.object { json in
      json.member("sequence", sequence)
      json.key("fruits")
      json.array { json in
        for (fruit, level) in zip(fruits, levels) {
          json.object { json in
            json.member("id", fruit.rawValue)
            json.member("name", texts.localizer.name(of: fruit, count: level))
            json.member("level", level)
            let limits = limits[fruit]
            json.member("low", limits?.isLow(level) ?? false)
            if let limits {
              json.member("min", limits.minimum)
              json.member("par", limits.par)
            }
          }
        }
      }
    }
    return json.bytes
  }

  /// `{"sequence","juices":[{"id","name","recipe":[…],"makeable","price"}]}`, `price`
  /// only for a juice that has one.
  static func menu(_ catalog: Catalog, makeable: [Int], sequence: Int64, _ texts: Texts)
    -> [UInt8]
  {
    var json = JSONWriter(capacity: 128 + catalog.juices.count * 160)
    json.object { json in
      json.member("sequence", sequence)
      json.key("juices")
      json.array { json in
        for (juice, count) in zip(catalog.juices, makeable) {
          json.object { json in
            json.member("id", juice.id.rawValue)
            json.member("name", texts.localizer.name(of: juice.id))
            json.key("recipe")
            json.array { json in
              for ingredient in juice.ingredients {
                json.object { json in
                  json.member("fruit", ingredient.fruit.rawValue)
                  json.member(
                    "name", texts.localizer.name(of: ingredient.fruit, count: ingredient.count))
                  json.member("count", ingredient.count)
                }
              }
            }
            json.member("makeable", count)
            if let price = juice.price {
              json.key("price")
              json.object { json in
                json.member("amount", price.decimalText)
                json.member("currency", price.currency.code)
                json.member("text", texts.price(price))
              }
            }
          }
        }
      }
    }
    return json.bytes
  }

  /// One journal entry, as `history` and the event stream give it.
  static func entry(
    _ entry: JournalEntry, _ texts: Texts, into json: inout JSONWriter
  ) {
    let action = entry.operation.action
    json.object { json in
      json.member("sequence", entry.sequence)
      json.member("requestId", entry.id.rawValue)
      json.member("time", TimeStamp.utc(entry.date))
      json.member("shop", entry.operation.editor)
      json.member("action", action.name)
      if let juice = action.juice { json.member("juice", juice.rawValue) }
      if let fruit = action.fruit { json.member("fruit", fruit.rawValue) }
      json.member("count", action.count)
      if let price = entry.operation.price {
        json.key("price")
        json.object { json in
          json.member("amount", price.decimalText)
          json.member("currency", price.currency.code)
          json.member("text", texts.price(price))
        }
      }
      if case .set(_, _, let expected?) = action { json.member("expected", expected) }
      json.member("outcome", entry.outcome.name)
      switch entry.outcome {
      case .refused(let shortages) where !shortages.isEmpty:
        APIDocuments.shortages(shortages, texts, into: &json)
      case .conflict(let fruit, let expected, let actual):
        json.key("conflict")
        json.object { json in
          json.member("fruit", fruit.rawValue)
          json.member("expected", expected)
          json.member("actual", actual)
        }
      default: break
      }
      json.key("changes")
      json.array { json in
        for change in entry.changes {
          json.object { json in
            json.member("fruit", change.fruit.rawValue)
            json.member("name", texts.localizer.name(of: change.fruit, count: change.after))
            json.member("before", change.before)
            json.member("after", change.after)
          }
        }
      }
      json.member("text", ChangeText.line(entry, texts))
    }
  }
}

/// Times as the API writes them: ISO 8601 in UTC with milliseconds.
enum TimeStamp {
  static func utc(_ date: Date) -> String {
    date.formatted(
      Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
  }
}
