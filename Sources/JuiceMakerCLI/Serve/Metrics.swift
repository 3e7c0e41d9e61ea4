import FoundationEssentials
import JuiceMakerKit
import Synchronization

/// What `GET /metrics` exposes, in Prometheus's text format: orders by juice and outcome,
/// each fruit's level, HTTP requests by route and status, a request-duration histogram
/// by route, and the open event streams.
final class Metrics: Sendable {
  /// The histogram's upper bounds, in seconds.
  static let bounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]

  /// One route's requests: counts by status, the histogram's buckets, and the sum of
  /// their times.
  fileprivate struct RouteRequests {
    var counts: [Int: Int] = [:]
    var buckets = Array(repeating: 0, count: Metrics.bounds.count)
    var sum = 0.0
  }

  private let juices: [Juice.ID]
  /// Orders per juice: made, refused.
  private let orders: Mutex<[Int]>
  private let requests = Mutex<[String: RouteRequests]>([:])
  /// How many times each fruit crossed its minimum downwards.
  private let crossings = Mutex([Fruit.ID: Int]())

  init(juices: [Juice.ID]) {
    self.juices = juices
    orders = Mutex(Array(repeating: 0, count: juices.count * 2))
  }

  /// Counts an order of the juice at `index`.
  func order(_ index: Int, made: Bool) {
    orders.withLock { $0[index * 2 + (made ? 0 : 1)] += 1 }
  }

  /// Counts a fruit crossing its minimum.
  func lowCrossing(_ fruit: Fruit.ID) {
    crossings.withLock { $0[fruit, default: 0] += 1 }
  }

  /// Counts an answered request.
  func request(route: String, status: Int, seconds: Double) {
    let bucket = Self.bounds.firstIndex { seconds <= $0 }
    requests.withLock { requests in
      requests[route, default: RouteRequests()].record(
        status: status, bucket: bucket, seconds: seconds)
    }
  }

  /// The exposition.
  func text(
    fruits: [Fruit.ID], levels: [Int]?, limits: [Fruit.ID: StockLimits] = [:], streams: Int
  ) -> String {
    var lines: [String] = []
    lines.append("# HELP juice_maker_orders_total Orders this server took, by juice and outcome.")
    lines.append("# TYPE juice_maker_orders_total counter")
    let orders = orders.withLock { $0 }
    for (index, juice) in juices.enumerated() {
      for (offset, outcome) in ["made", "refused"].enumerated() {
        let count = orders[index * 2 + offset]
        lines.append(
          "juice_maker_orders_total{juice=\"\(Self.label(juice.rawValue))\",outcome=\"\(outcome)\"} \(count)"
        )
      }
    }
    if let levels {
      lines.append("# HELP juice_maker_stock_level Each fruit's level in the store.")
      lines.append("# TYPE juice_maker_stock_level gauge")
      for (fruit, level) in zip(fruits, levels) {
        lines.append("juice_maker_stock_level{fruit=\"\(Self.label(fruit.rawValue))\"} \(level)")
      }
      lines.append("# HELP juice_maker_stock_low Whether a fruit is at or below its minimum.")
      lines.append("# TYPE juice_maker_stock_low gauge")
      for (fruit, level) in zip(fruits, levels) where limits[fruit] != nil {
        let low = limits[fruit]?.isLow(level) == true ? 1 : 0
        lines.append("juice_maker_stock_low{fruit=\"\(Self.label(fruit.rawValue))\"} \(low)")
      }
    }
    lines.append(
      "# HELP juice_maker_low_stock_crossings_total Orders and edits this server took that took a fruit to or below its minimum."
    )
    lines.append("# TYPE juice_maker_low_stock_crossings_total counter")
    let crossings = crossings.withLock { $0 }
    for fruit in fruits where limits[fruit] != nil {
      lines.append(
        "juice_maker_low_stock_crossings_total{fruit=\"\(Self.label(fruit.rawValue))\"} \(crossings[fruit, default: 0])"
      )
    }
    let routes = requests.withLock { $0 }
    lines.append(
      "# HELP juice_maker_http_requests_total HTTP requests answered, by route and status.")
    lines.append("# TYPE juice_maker_http_requests_total counter")
    for route in routes.keys.sorted() {
      for (status, count) in routes[route, default: RouteRequests()].counts.sorted(by: {
        $0.key < $1.key
      }) {
        lines.append(
          "juice_maker_http_requests_total{route=\"\(Self.label(route))\",status=\"\(status)\"} \(count)"
        )
      }
    }
    lines.append("# HELP juice_maker_http_request_duration_seconds Time to answer a request.")
    lines.append("# TYPE juice_maker_http_request_duration_seconds histogram")
    for route in routes.keys.sorted() {
      let requests = routes[route, default: RouteRequests()]
      let buckets = requests.buckets
      var cumulative = 0
      let label = Self.label(route)
      for (bound, count) in zip(Self.bounds, buckets) {
        cumulative += count
        lines.append(
          "juice_maker_http_request_duration_seconds_bucket{route=\"\(label)\",le=\"\(bound)\"} \(cumulative)"
        )
      }
      let total = requests.counts.values.reduce(0, +)
      lines.append(
        "juice_maker_http_request_duration_seconds_bucket{route=\"\(label)\",le=\"+Inf\"} \(total)")
      lines.append(
        "juice_maker_http_request_duration_seconds_sum{route=\"\(label)\"} \(requests.sum)"
      )
      lines.append("juice_maker_http_request_duration_seconds_count{route=\"\(label)\"} \(total)")
    }
    lines.append("# HELP juice_maker_event_streams Open event streams.")
    lines.append("# TYPE juice_maker_event_streams gauge")
    lines.append("juice_maker_event_streams \(streams)")
    return lines.joined(separator: "\n") + "\n"
  }

  /// A label value with `\`, `"` and line feeds escaped.
  private static func label(_ text: String) -> String {
    // Scalar by scalar, so a line feed in a `\r\n` pair is escaped too.
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": escaped += "\\\\"
      case "\"": escaped += "\\\""
      case "\n": escaped += "\\n"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}

extension Metrics.RouteRequests {
  fileprivate mutating func record(status: Int, bucket: Int?, seconds: Double) {
    counts[status, default: 0] += 1
    if let bucket { buckets[bucket] += 1 }
    sum += seconds
  }
}
