import Foundation
import JuiceMakerKit
import JuiceMakerSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Python's `sqlite3` module running the order transaction of `SQLiteStockStorage`, as a
/// baseline for durable orders.
///
/// One `python3` process (found on `PATH`) opens a store file that `SQLiteStockStorage`
/// created, applies the same connection settings (`StoreStatements.connectionPragmas`,
/// the same busy timeout) and places orders on command, each one transaction of the same
/// statements (`StoreStatements`): `BEGIN IMMEDIATE`, the request-id look-up, the levels,
/// one update per changed level, one journal entry with the same columns (a new random
/// request id, the time, the changed levels as JSON; a refusal journals its
/// shortages), `COMMIT`. The orders follow the same plan of juices as the Swift side.
///
/// The parent writes one JSON line to set it up, then one line per run with a number of
/// orders; Python answers each with the orders made and the seconds they took, timed in
/// Python the way the Swift side times itself.
final class PythonSQLiteOrders {
  private let process: Process
  private let input: FileHandle
  private let output: FileHandle
  private var buffered = Data()
  /// The version of the SQLite library Python's `sqlite3` module runs on.
  private(set) var sqliteVersion = ""

  /// The `python3` on `PATH`, or `nil` when there is none.
  static func locate() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":") where !directory.isEmpty {
      let candidate = String(directory) + "/python3"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Starts `python` on the store file at `path`.
  ///
  /// - Parameters:
  ///   - python: The interpreter.
  ///   - path: A store file `SQLiteStockStorage` created and no connection holds.
  ///   - durability: The durability whose settings the connection applies.
  ///   - busyTimeout: The busy timeout, as `SQLiteStockStorage` has it.
  ///   - editor: The shop name journaled with each order.
  ///   - menu: The juices; the plan is `menu.mixed`.
  /// - Throws: `BenchmarkError.failed` when Python cannot start or open the store.
  init(
    python: String, path: String, durability: SQLiteStockStorage.Durability,
    busyTimeout: Duration, editor: String, menu: Menu
  ) throws(BenchmarkError) {
    // A Python that has died must fail a write, not end the benchmark.
    signal(SIGPIPE, SIG_IGN)
    let juices: [[String: Any]] = menu.catalog.juices.map { juice in
      [
        "id": juice.id.rawValue,
        "ingredients": juice.ingredients.map { [$0.fruit.rawValue, $0.count] as [Any] },
      ]
    }
    let setup: [String: Any] = [
      "path": path,
      "pragmas": StoreStatements.connectionPragmas(durability),
      "busyTimeout": busyTimeout.seconds,
      "editor": editor,
      "juices": juices,
      "plan": menu.mixed.runs.map(\.juice),
      "sql": [
        "begin": StoreStatements.begin, "commit": StoreStatements.commit,
        "rollback": StoreStatements.rollback, "selectRequest": StoreStatements.selectRequest,
        "selectLevels": StoreStatements.selectLevels, "updateLevel": StoreStatements.updateLevel,
        "insertEntry": StoreStatements.insertEntry,
      ],
    ]
    let toPython = Pipe()
    let fromPython = Pipe()
    process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-c", Self.script]
    process.standardInput = toPython
    process.standardOutput = fromPython
    input = toPython.fileHandleForWriting
    output = fromPython.fileHandleForReading
    do {
      try process.run()
    } catch {
      throw .failed("cannot start \(python): \(error)")
    }
    do {
      var line = try JSONSerialization.data(withJSONObject: setup)
      line.append(UInt8(ascii: "\n"))
      try input.write(contentsOf: line)
    } catch {
      throw stopped()
    }
    let answer = try readLine()
    guard answer.hasPrefix("ready ") else {
      finish()
      throw .failed("\(python) cannot run the sqlite3 baseline: \(answer)")
    }
    sqliteVersion = String(answer.dropFirst("ready ".count))
  }

  deinit {
    finish()
  }

  /// Places `orders` orders, continuing the plan where the last run stopped.
  ///
  /// - Returns: The orders made and the time Python measured for them.
  /// - Throws: `BenchmarkError.failed` when an order fails or Python stops answering.
  func run(orders: Int) throws(BenchmarkError) -> Throughput.Timed {
    do {
      try input.write(contentsOf: Data("\(orders)\n".utf8))
    } catch {
      throw stopped()
    }
    let answer = try readLine()
    let parts = answer.split(separator: " ")
    guard parts.count == 2, let made = Int(parts[0]), let seconds = Double(parts[1]), made == orders
    else {
      throw .failed("python3's sqlite3 baseline failed: \(answer)")
    }
    return Throughput.Timed(operations: made, elapsed: .seconds(seconds))
  }

  /// Ends the Python process; called again, it does nothing.
  func finish() {
    guard process.isRunning else { return }
    try? input.close()
    process.waitUntilExit()
  }

  /// The error for a Python that stopped answering, once it has exited.
  private func stopped() -> BenchmarkError {
    finish()
    return .failed(
      "python3's sqlite3 baseline exited with status \(process.terminationStatus)"
        + " (its standard error is above)")
  }

  private func readLine() throws(BenchmarkError) -> String {
    while true {
      if let end = buffered.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffered[buffered.startIndex..<end], as: UTF8.self)
        buffered.removeSubrange(buffered.startIndex...end)
        return line
      }
      let more = output.availableData
      guard !more.isEmpty else { throw stopped() }
      buffered.append(more)
    }
  }

  /// The baseline, as a Python program would write it with the standard `sqlite3` module.
  private static let script = #"""
    import json, sqlite3, sys, time, traceback, uuid

    def main():
        setup = json.loads(sys.stdin.readline())
        sql = setup["sql"]
        db = sqlite3.connect(setup["path"], timeout=setup["busyTimeout"], isolation_level=None)
        db.executescript(setup["pragmas"])
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
        if mode != "wal":
            raise RuntimeError("the store is not in WAL mode: " + mode)
        rows = dict(db.execute("SELECT fruit, id FROM stock"))
        juices = [(juice["id"], [(rows[fruit], fruit, count) for fruit, count in juice["ingredients"]])
                  for juice in setup["juices"]]
        plan = [juices[index] for index in setup["plan"]]
        editor = setup["editor"]

        def order(juice, recipe):
            request = str(uuid.uuid4())
            db.execute(sql["begin"])
            try:
                if db.execute(sql["selectRequest"], (request,)).fetchone() is None:
                    levels = dict(db.execute(sql["selectLevels"]).fetchall())
                    short = [(fruit, count, levels[row]) for row, fruit, count in recipe
                             if levels[row] < count]
                    changes, shortages, outcome = [], None, "done"
                    if short:
                        outcome = "refused"
                        shortages = "[" + ",".join('["%s",%d,%d]' % item for item in short) + "]"
                    else:
                        for row, fruit, count in recipe:
                            before = levels[row]
                            db.execute(sql["updateLevel"], (row, before - count))
                            changes.append('["%s",%d,%d]' % (fruit, before, before - count))
                    used = 0 if short else sum(count for _, _, count in recipe)
                    db.execute(sql["insertEntry"], (
                        request, time.time(), editor, "order", juice, 1, None, outcome, None,
                        shortages, "[" + ",".join(changes) + "]", None, None, used, None))
                db.execute(sql["commit"])
            except BaseException:
                db.execute(sql["rollback"])
                raise

        print("ready " + sqlite3.sqlite_version, flush=True)
        position = 0
        for line in sys.stdin:
            orders = int(line)
            start = time.perf_counter()
            for _ in range(orders):
                juice, recipe = plan[position]
                position = (position + 1) % len(plan)
                order(juice, recipe)
            elapsed = time.perf_counter() - start
            print("%d %.9f" % (orders, elapsed), flush=True)
        db.close()

    try:
        main()
    except Exception as error:
        print("error: " + " ".join(traceback.format_exception_only(type(error), error)).strip(),
              flush=True)
    """#
}
