import FoundationEssentials
import JuiceMakerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `juice-maker report [--by juice|fruit|shop|hour|day] [--since T] [--until T]
/// [--shop NAME] [--csv]`: juices made and refused, takings and fruit used, counted by the
/// store (`GROUP BY` in SQL), as a table with a bar chart, `--json` or `--csv`.
struct ReportCommand: Command {
  static let byOption = Option<ReportQuery.Grouping>(
    spec: OptionSpec(name: "by", metavariable: "GROUP"),
    convert: { text throws(CLIError) in
      guard let grouping = ReportQuery.Grouping(rawValue: text) else {
        throw .invalidChoice(value: text, option: "--by", choices: groupings)
      }
      return grouping
    })
  static let groupings = ReportQuery.Grouping.allCases.map(\.rawValue)
  static let sinceOption = HistoryCommand.sinceOption
  static let untilOption = HistoryCommand.untilOption
  static let csvFlag = ReorderCommand.csvFlag
  static let definition = CommandDefinition(
    name: "report", options: [byOption.spec, sinceOption.spec, untilOption.spec, csvFlag.spec],
    showsOneLanguage: true, loadsMenu: true)

  let context: Context
  let query: ReportQuery
  let csv: Bool

  init(parsing line: ParsedCommandLine, context: Context) throws(CLIError) {
    self.context = context
    csv = line.isSet(Self.csvFlag)
    if csv, context.json { throw .conflictingOptions("--csv", "--json") }
    let since = try line.value(Self.sinceOption)
    let until = try line.value(Self.untilOption)
    query = ReportQuery(
      by: try line.value(Self.byOption) ?? .juice, since: since, until: until,
      editor: context.global.shopGiven ? context.global.shop : nil,
      utcOffset: TimeText.localOffset(at: since ?? until ?? Date()))
  }

  func run(input: inout any LineInput) throws(CLIError) {
    let opened = try self.context.openShop()
    let (context, store) = (opened.context, opened.store)
    let rows: [ReportRow]
    do {
      rows = try store.report(query)
    } catch {
      throw CLIError(error)
    }
    var total = ReportRow(key: .shop(""))
    for row in rows { total.add(row) }
    let texts = context.texts
    if context.json {
      context.emit(
        ReportDocument(
          by: query.grouping.rawValue, since: query.since.map(TimeStamp.utc),
          until: query.until.map(TimeStamp.utc),
          rows: rows.map { ReportDocument.Row($0, key: key($0), name: name($0, texts)) },
          total: ReportDocument.Row(total, key: nil, name: nil)))
      return
    }
    if csv {
      context.output.write(
        CSV.document(
          header: ["key", "name", "made", "refused", "takings", "currency", "used"],
          rows: rows.map { row in
            [
              key(row), name(row, texts), String(row.made), String(row.refused),
              row.takings.map(\.decimalText).joined(separator: ";"),
              row.takings.map(\.currency.code).joined(separator: ";"), String(row.used),
            ]
          }))
      return
    }
    guard !rows.isEmpty else {
      context.say(texts.string("report.empty"))
      return
    }
    for line in table(rows, total: total, texts: texts) { context.say(line) }
  }

  /// The table with its chart: one bar per row, of takings where there are any, else of
  /// juices made (by fruit: of fruit used).
  func table(_ rows: [ReportRow], total: ReportRow, texts: Texts) -> [String] {
    let hasTakings = !total.takings.isEmpty
    var header = [
      texts.string("report.column." + query.grouping.rawValue), texts.string("report.made"),
      texts.string("report.refused"),
    ]
    var alignments: [TextTable.Alignment] = [.left, .right, .right]
    if hasTakings {
      header.append(texts.string("report.takings"))
      alignments.append(.right)
    }
    header.append(texts.string("report.used"))
    alignments.append(.right)
    var table = TextTable(header: header, alignments: alignments)
    func cells(_ row: ReportRow, name: String) -> [String] {
      var cells = [name, String(row.made), String(row.refused)]
      if hasTakings { cells.append(row.takings.map(texts.price).joined(separator: " + ")) }
      cells.append(String(row.used))
      return cells
    }
    for row in rows { table.rows.append(cells(row, name: name(row, texts))) }
    table.rows.append(cells(total, name: texts.string("report.total")))
    let lines = table.lines()
    let measure: (ReportRow) -> Int64 = { row in
      if self.query.grouping == .fruit { return Int64(row.used) }
      return hasTakings ? row.takings.first?.minorUnits ?? 0 : Int64(row.made)
    }
    let maximum = rows.map(measure).max() ?? 0
    let tableWidth = lines.map(\.displayWidth).max() ?? 0
    let width = BarChart.width(terminal: terminalWidth, table: tableWidth)
    let colors = isTerminal && ScreenWriter.colorsEnabled(environment: context.environment)
    var result: [String] = []
    for (index, line) in lines.enumerated() {
      // The header and the total get no bar.
      guard index > 0, index <= rows.count else {
        result.append(line)
        continue
      }
      let bar = BarChart.bar(measure(rows[index - 1]), of: maximum, width: width)
      let shown = colors && !bar.isEmpty ? "\u{1B}[32m" + bar + "\u{1B}[0m" : bar
      result.append(bar.isEmpty ? line : line.padded(to: tableWidth) + "  " + shown)
    }
    return result
  }

  /// Whether standard output is a terminal, where bars may be coloured.
  private var isTerminal: Bool { isatty(1) == 1 }

  /// The terminal's width, else `COLUMNS`, else 80.
  private var terminalWidth: Int {
    if isTerminal, let size = TerminalSize.of(descriptor: 1) { return size.width }
    return context.environment["COLUMNS"].flatMap { Int($0) } ?? 80
  }

  /// A row's key as data: the id, the shop, or the time in ISO 8601.
  private func key(_ row: ReportRow) -> String {
    switch row.key {
    case .juice(let juice): juice.rawValue
    case .fruit(let fruit): fruit.rawValue
    case .shop(let shop): shop
    case .time(let date): timeText(date, iso: true)
    }
  }

  /// A row's key as people read it: the localized name, the shop, or the local hour or day.
  private func name(_ row: ReportRow, _ texts: Texts) -> String {
    switch row.key {
    case .juice(let juice): texts.name(of: juice)
    case .fruit(let fruit): texts.name(of: fruit)
    case .shop(let shop): texts.shown(shop)
    case .time(let date): timeText(date, iso: false)
    }
  }

  /// An hour or day on the report's clock: `2026-11-25 09:00` or `2026-11-25`, or with
  /// its offset in ISO 8601 for data.
  private func timeText(_ date: Date, iso: Bool) -> String {
    let style: TimeText.Style = iso ? .iso : query.grouping == .day ? .date : .minute
    return TimeText.text(date, offset: query.utcOffset, style: style)
  }
}

/// `{"by","since","until","rows":[{"key","name","made","refused","takings","used"}],"total"}`.
struct ReportDocument: Encodable {
  struct Row: Encodable {
    let key: String?
    let name: String?
    let made: Int
    let refused: Int
    let takings: [PriceDocument]
    let used: Int

    init(_ row: ReportRow, key: String?, name: String?) {
      self.key = key
      self.name = name
      made = row.made
      refused = row.refused
      takings = row.takings.map(PriceDocument.init)
      used = row.used
    }
  }

  let by: String
  let since: String?
  let until: String?
  let rows: [Row]
  let total: Row
}
