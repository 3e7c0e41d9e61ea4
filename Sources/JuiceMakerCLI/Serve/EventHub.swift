import FoundationEssentials
import JuiceMakerCatalog
import JuiceMakerHTTP
import JuiceMakerKit
import Synchronization

/// The event streams of `GET /api/v1/events`, fed from the store's journal.
///
/// One thread follows the journal: it waits for the storage's changes (any process's,
/// any machine's) and reads the entries it has not seen, so refusals and edits arrive as
/// well as orders. Each entry is rendered once per language and written to every stream.
/// A stream opened after a sequence first gets the entries it missed from the journal,
/// then `event: live`, under the same lock the thread writes with, so nothing is missed
/// or sent twice.
final class EventHub: Sendable {
  /// One open stream.
  private struct Subscriber {
    let stream: EventStream
    let texts: Texts
    /// Entries up to this sequence are the client's already.
    let floor: Int64
    /// Entries above `floor` it was sent while catching up, not to be sent again.
    var caughtUp: Set<Int64>
  }

  private struct State {
    var subscribers: [ObjectIdentifier: Subscriber] = [:]
    /// The newest sequence the thread has read.
    var seen: Int64 = 0
    /// Sequences delivered lately, for entries that commit out of order.
    var recent: Set<Int64> = []
    /// Whether the thread stopped following the journal while no stream was open.
    var idle = true
    var stopped = false
  }

  /// How far below the newest sequence the thread reads again, for an entry numbered
  /// before a later one but committed after it.
  private static let window: Int64 = 64
  /// The most missed entries a resuming stream is sent; beyond them it gets
  /// `event: reset` and reads the stock again.
  static let backlogLimit = 1000
  /// How often a comment keeps idle streams open.
  static let heartbeat: Duration = .seconds(15)

  private let storage: any StockStorage
  private let state = Mutex(State())
  /// The limits `event: low` is raised by, if any.
  /// The limits of the menu the server sells; a changed menu brings its own.
  private let boardBox: Mutex<LimitsBoard?>
  private var board: LimitsBoard? { boardBox.withLock { $0 } }
  /// The words of each language of a changed menu, for streams opened before it changed;
  /// empty until the menu changes.
  private let menuTexts = Mutex<[String: Texts]>([:])

  /// Follows a storage's journal.
  ///
  /// - Parameters:
  ///   - storage: The store.
  ///   - board: The limits by which a change that takes a fruit to or below its minimum
  ///     raises one `event: low`; `nil` for none.
  init(storage: any StockStorage, board: LimitsBoard? = nil) throws(CLIError) {
    boardBox = Mutex(board)
    self.storage = storage
    let newest = try Self.newestSequence(storage)
    let known: [JournalEntry]
    do throws(StockStorageError) {
      known = try storage.journal(JournalQuery(after: max(0, newest - Self.window)))
    } catch {
      throw CLIError(error)
    }
    state.withLock { state in
      state.seen = newest
      state.recent = Set(known.map(\.sequence))
    }
  }

  /// The newest journal sequence.
  static func newestSequence(_ storage: any StockStorage) throws(CLIError) -> Int64 {
    do throws(StockStorageError) {
      return try storage.journal(JournalQuery(limit: 1)).first?.sequence ?? 0
    } catch {
      throw CLIError(error)
    }
  }

  /// How many streams are open.
  var count: Int { state.withLock { $0.subscribers.count } }

  /// Opens a stream.
  ///
  /// - Parameters:
  ///   - after: The last sequence the client has, from `Last-Event-ID` or `?after=`;
  ///     `nil` for the entries after now.
  ///   - texts: The language of the entries' text.
  /// - Throws: `CLIError` when the journal cannot be read.
  func open(after: Int64?, texts: Texts) throws(CLIError) -> EventStream {
    let box = LockedValue<ObjectIdentifier?>(nil)
    let stream = EventStream { [weak self] in
      guard let self, let id = box.withLock({ $0 }) else { return }
      self.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
    }
    let id = ObjectIdentifier(stream)
    box.withLock { $0 = id }
    stream.send(Array("retry: 1000\n\n".utf8))
    try state.withLock { state throws(CLIError) in
      // The journal's newest entry, read now: the hub's thread may not have seen it yet.
      let newest = try Self.newestSequence(storage)
      var caughtUp: Set<Int64> = []
      var last = after ?? newest
      if let after, after < newest {
        let missed: [JournalEntry]
        do throws(StockStorageError) {
          missed = try storage.journal(
            JournalQuery(after: after, limit: Self.backlogLimit + 1))
        } catch {
          throw CLIError(error)
        }
        if missed.count > Self.backlogLimit {
          stream.send(Self.named("reset", sequence: newest))
          stream.send(Self.named("live", sequence: newest))
          state.subscribers[id] = Subscriber(
            stream: stream, texts: texts, floor: newest, caughtUp: [])
          return
        }
        for entry in missed.reversed() {
          stream.send(Self.event(entry, texts))
          last = max(last, entry.sequence)
          // Those the thread has read already never come again.
          if !state.recent.contains(entry.sequence), entry.sequence > state.seen - Self.window {
            caughtUp.insert(entry.sequence)
          }
        }
      }
      let floor = after ?? newest
      stream.send(Self.named("live", sequence: last))
      state.subscribers[id] = Subscriber(
        stream: stream, texts: texts, floor: floor, caughtUp: caughtUp)
    }
    return stream
  }

  /// Ends every stream with a hint to reconnect, and stops following the journal.
  func finishAll() {
    let streams = state.withLock { state in
      state.stopped = true
      return state.subscribers.values.map(\.stream)
    }
    for stream in streams { stream.finish(with: Array("retry: 1000\n\n".utf8)) }
  }

  /// Follows the journal on a thread of its own until `finishAll()`.
  func start() {
    Threads.detach { [self] in run() }
  }

  private func run() {
    var lastBeat = ContinuousClock.now
    var lastSweep = ContinuousClock.now
    while !state.withLock({ $0.stopped }) {
      if ContinuousClock.now - lastBeat >= Self.heartbeat {
        lastBeat = .now
        let streams = state.withLock { $0.subscribers.values.map(\.stream) }
        for stream in streams { stream.send(Array(": heartbeat\n\n".utf8)) }
      }
      let listening = state.withLock { state in
        if state.subscribers.isEmpty { state.idle = true }
        return !state.subscribers.isEmpty
      }
      guard listening else {
        // Nobody listens: the journal is not read at all, so orders never wait on the
        // hub; a stream that opens reads the journal's newest entry itself.
        Threads.sleep(seconds: 0.05)
        continue
      }
      do {
        let seen = state.withLock { $0.seen }
        if try Self.newestSequence(storage) <= seen {
          try storage.waitForChanges(timeout: .seconds(1))
        }
        // Now and then the entries below the newest are read again, for one numbered
        // before another and committed after it.
        let sweep = ContinuousClock.now - lastSweep >= .seconds(1)
        if sweep { lastSweep = .now }
        try deliver(sweep: sweep)
        // Changes arriving together are read together.
        Threads.sleep(seconds: 0.005)
      } catch {
        // The store does not answer: try again after a while; `/healthz` says why.
        Threads.sleep(seconds: 0.5)
      }
    }
  }

  /// Reads the entries not seen yet and writes them to every stream.
  private func deliver(sweep: Bool) throws(StockStorageError) {
    let after = state.withLock { state in
      if state.idle {
        // The thread did not follow the journal while nobody listened: it starts from
        // the oldest entry a stream still needs.
        state.idle = false
        let floor = state.subscribers.values.map(\.floor).min() ?? state.seen
        state.seen = floor
        return max(0, floor - Self.window)
      }
      return sweep ? max(0, state.seen - Self.window) : state.seen
    }
    let entries = try storage.journal(JournalQuery(after: after)).reversed()
    let menuTexts = menuTexts.withLock { $0 }
    state.withLock { state in
      var rendered: [String: [UInt8]] = [:]
      for entry in entries where !state.recent.contains(entry.sequence) {
        state.recent.insert(entry.sequence)
        state.seen = max(state.seen, entry.sequence)
        rendered.removeAll(keepingCapacity: true)
        board?.note(entry)
        // One event per crossing of the minimum, not one per order below it.
        let lows = board?.crossings(entry.changes) ?? []
        for (id, subscriber) in state.subscribers {
          if entry.sequence <= subscriber.floor { continue }
          if subscriber.caughtUp.contains(entry.sequence) {
            state.subscribers[id]?.caughtUp.remove(entry.sequence)
            continue
          }
          let language = subscriber.texts.localizer.language
          let texts = menuTexts[language] ?? subscriber.texts
          let bytes =
            rendered[language]
            ?? {
              let bytes = Self.event(entry, texts)
              rendered[language] = bytes
              return bytes
            }()
          subscriber.stream.send(bytes)
          for (change, limits) in lows {
            subscriber.stream.send(
              Self.low(change, limits: limits, sequence: entry.sequence, texts))
          }
        }
      }
      let floor = state.seen - Self.window
      if state.recent.count > Int(Self.window) * 4 {
        state.recent = state.recent.filter { $0 > floor }
      }
      for (id, subscriber) in state.subscribers where !subscriber.caughtUp.isEmpty {
        state.subscribers[id]?.caughtUp = subscriber.caughtUp.filter { $0 > floor }
      }
    }
  }

  /// `id: SEQ` and `data: ENTRY` of one entry.
  static func event(_ entry: JournalEntry, _ texts: Texts) -> [UInt8] {
    var json = JSONWriter()
    APIDocuments.entry(entry, texts, into: &json)
    return Array("id: \(entry.sequence)\ndata: ".utf8) + json.bytes + Array("\n\n".utf8)
  }

  /// Takes up the limits and the words of a changed menu.
  func adopt(_ board: LimitsBoard, texts: [String: Texts]) {
    boardBox.withLock { $0 = board }
    menuTexts.withLock { $0 = texts }
  }

  /// Sends `event: menu` to every stream: the menu the server sells changed, or a changed
  /// menu was not taken up for `problem`.
  func announceMenu(version: Int, problem: String?) {
    var json = JSONWriter()
    json.object { json in
      json.member("version", version)
      if let problem { json.member("problem", problem) }
    }
    let bytes = Array("event: menu\ndata: ".utf8) + json.bytes + Array("\n\n".utf8)
    let streams = state.withLock { $0.subscribers.values.map(\.stream) }
    for stream in streams { _ = stream.send(bytes) }
  }

  /// `event: low` of a fruit that crossed its minimum with the entry `sequence`.
  static func low(
    _ change: StockChange.Level, limits: StockLimits, sequence: Int64, _ texts: Texts
  ) -> [UInt8] {
    var json = JSONWriter()
    json.object { json in
      json.member("sequence", sequence)
      json.member("fruit", change.fruit.rawValue)
      json.member("name", texts.name(of: change.fruit, count: change.after))
      json.member("level", change.after)
      json.member("min", limits.minimum)
      json.member("par", limits.par)
    }
    return Array("event: low\ndata: ".utf8) + json.bytes + Array("\n\n".utf8)
  }

  /// A named event carrying a sequence: `live`, `reset`.
  static func named(_ name: String, sequence: Int64) -> [UInt8] {
    Array("event: \(name)\ndata: {\"sequence\":\(sequence)}\n\n".utf8)
  }
}
