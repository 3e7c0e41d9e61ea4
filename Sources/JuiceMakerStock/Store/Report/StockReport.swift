public import FoundationEssentials
public import JuiceMakerCatalog

/// What a report asks for: how to group orders, and which orders.
///
/// ```swift
/// let today = try store.report(ReportQuery(by: .hour, since: midnight))
/// ```
public struct ReportQuery: Hashable, Sendable {
  /// What one row of a report stands for.
  public enum Grouping: String, Hashable, Sendable, CaseIterable {
    /// One row per juice.
    case juice
    /// One row per fruit: the fruit used by the orders made, the juices made with it,
    /// and the juices refused for want of it.
    case fruit
    /// One row per shop.
    case shop
    /// One row per hour.
    case hour
    /// One row per day.
    case day
  }

  /// What one row stands for.
  public var grouping: Grouping
  /// Only orders made at or after this date; `nil` for all.
  public var since: Date?
  /// Only orders made before this date; `nil` for all.
  public var until: Date?
  /// Only orders of this shop; `nil` for all.
  public var editor: String?
  /// The offset from UTC, in seconds, of the clock days and hours are counted in.
  public var utcOffset: Int

  /// Creates a query; every filter is off by default, and hours and days are UTC's.
  public init(
    by grouping: Grouping = .juice, since: Date? = nil, until: Date? = nil,
    editor: String? = nil, utcOffset: Int = 0
  ) {
    self.grouping = grouping
    self.since = since
    self.until = until
    self.editor = editor
    self.utcOffset = utcOffset
  }

  /// Whether an entry's date and shop pass the filters.
  public func matches(_ entry: JournalEntry) -> Bool {
    (editor.map { $0 == entry.operation.editor } ?? true)
      && (since.map { entry.date >= $0 } ?? true) && (until.map { entry.date < $0 } ?? true)
  }

  /// The length of an hour or a day bucket, in seconds.
  package var bucketSeconds: Int64 { grouping == .day ? 86_400 : 3_600 }

  /// The start of the hour or day a date falls in, on the query's clock.
  package func bucket(of date: Date) -> Date {
    bucket(ofSecond: Int64(date.timeIntervalSince1970.rounded(.down)))
  }

  /// The start of the hour or day a second since 1970 falls in, on the query's clock.
  package func bucket(ofSecond second: Int64) -> Date {
    let seconds = second + Int64(utcOffset)
    let start = seconds - ((seconds % bucketSeconds) + bucketSeconds) % bucketSeconds
    return Date(timeIntervalSince1970: TimeInterval(start - Int64(utcOffset)))
  }
}

/// One row of a report: what was made and refused, taken, and used.
public struct ReportRow: Hashable, Sendable {
  /// What the row stands for.
  public enum Key: Hashable, Sendable {
    case juice(Juice.ID)
    case fruit(Fruit.ID)
    case shop(String)
    /// The start of an hour or a day.
    case time(Date)
  }

  /// What the row stands for.
  public let key: Key
  /// Juices made.
  public var made: Int
  /// Juices refused for want of fruit (by fruit: of the fruit).
  public var refused: Int
  /// What the juices made took, one amount per currency, by code; empty by fruit, and
  /// for juices without prices.
  public var takings: [Money]
  /// Fruit the juices made used (by fruit: of the fruit).
  public var used: Int

  /// Creates a row.
  public init(key: Key, made: Int = 0, refused: Int = 0, takings: [Money] = [], used: Int = 0) {
    self.key = key
    self.made = made
    self.refused = refused
    self.takings = takings
    self.used = used
  }

  /// Adds an amount to the takings of its currency.
  package mutating func take(_ amount: Money) {
    if let index = takings.firstIndex(where: { $0.currency == amount.currency }) {
      takings[index] = Money(
        minorUnits: takings[index].minorUnits &+ amount.minorUnits, currency: amount.currency)
    } else {
      takings.append(amount)
      takings.sort { $0.currency.code < $1.currency.code }
    }
  }

  /// Adds another row's figures, for the same key.
  package mutating func add(_ other: ReportRow) {
    made += other.made
    refused += other.refused
    used += other.used
    for amount in other.takings { take(amount) }
  }
}

// MARK: - The report rule

/// What a report counts, written once: SQL storages compute the same with `GROUP BY`,
/// and the conformance suite checks that they agree with this over random journals.
///
/// Only orders count. A made order adds its count to `made`, its price × count to
/// `takings`, and the fruit it withdrew to `used`; a refused one adds its count to
/// `refused`. By fruit, a made order counts for each fruit it withdrew (`used` that
/// fruit's amount), and a refused one for each fruit it was short of.
package enum StockReport {
  /// The rows of a report over journal entries, in key order.
  package static func rows(_ entries: some Sequence<JournalEntry>, _ query: ReportQuery)
    -> [ReportRow]
  {
    var rows: [ReportRow.Key: ReportRow] = [:]
    func add(_ key: ReportRow.Key, _ body: (inout ReportRow) -> Void) {
      body(&rows[key, default: ReportRow(key: key)])
    }
    for entry in entries where query.matches(entry) {
      guard case .order(let juice, let count) = entry.operation.action else { continue }
      let made = entry.outcome == .done
      if query.grouping == .fruit {
        if made {
          for change in entry.changes {
            add(.fruit(change.fruit)) { row in
              row.made += count
              row.used += change.before - change.after
            }
          }
        } else if case .refused(let shortages) = entry.outcome {
          for shortage in shortages { add(.fruit(shortage.fruit)) { $0.refused += count } }
        }
        continue
      }
      let key: ReportRow.Key
      switch query.grouping {
      case .juice: key = .juice(juice)
      case .shop: key = .shop(entry.operation.editor)
      case .hour, .day: key = .time(query.bucket(of: entry.date))
      case .fruit: continue
      }
      add(key) { row in
        if made {
          row.made += count
          row.used += entry.changes.reduce(0) { $0 + $1.before - $1.after }
          if let total = entry.operation.price?.times(count) { row.take(total) }
        } else if case .refused = entry.outcome {
          row.refused += count
        }
      }
    }
    return sorted(Array(rows.values))
  }

  /// Rows of the same key merged, in key order: what an SQL storage's `GROUP BY` key,
  /// currency gives, as report rows.
  package static func merged(_ rows: [ReportRow]) -> [ReportRow] {
    var merged: [ReportRow.Key: ReportRow] = [:]
    for row in rows {
      merged[row.key, default: ReportRow(key: row.key)].add(row)
    }
    return sorted(Array(merged.values))
  }

  /// Rows in key order: names and ids alphabetically, times oldest first.
  package static func sorted(_ rows: [ReportRow]) -> [ReportRow] {
    rows.sorted { lhs, rhs in
      switch (lhs.key, rhs.key) {
      case (.juice(let a), .juice(let b)): a < b
      case (.fruit(let a), .fruit(let b)): a < b
      case (.shop(let a), .shop(let b)): a < b
      case (.time(let a), .time(let b)): a < b
      default: false
      }
    }
  }
}

// MARK: - Rows read from SQL

extension StockReport {
  /// A report row an SQL storage read: the group's key as text (a juice or fruit id, a
  /// shop, or the second an hour or day starts at), the currency of its takings, and
  /// its sums.
  ///
  /// - Returns: The row, or `nil` when the key is not one of the grouping (a damaged
  ///   entry), which the storage reports.
  package static func row(
    key: String, currency: String?, made: Int64, refused: Int64, takings: Int64, used: Int64,
    grouping: ReportQuery.Grouping
  ) -> ReportRow? {
    let rowKey: ReportRow.Key
    switch grouping {
    case .juice:
      guard let juice = try? Juice.ID(validating: key) else { return nil }
      rowKey = .juice(juice)
    case .fruit:
      guard let fruit = try? Fruit.ID(validating: key) else { return nil }
      rowKey = .fruit(fruit)
    case .shop: rowKey = .shop(key)
    case .hour, .day:
      guard let second = Int64(key) else { return nil }
      rowKey = .time(Date(timeIntervalSince1970: TimeInterval(second)))
    }
    var row = ReportRow(key: rowKey, made: Int(made), refused: Int(refused), used: Int(used))
    if let currency, let code = try? Currency(code: currency), takings != 0 {
      row.take(Money(minorUnits: takings, currency: code))
    }
    return row
  }
}
