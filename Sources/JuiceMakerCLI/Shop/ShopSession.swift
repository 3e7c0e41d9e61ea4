import JuiceMakerKit
import Synchronization

/// One shop's session with the store: the rules every face of the shop follows.
///
/// The line shop and the full-screen shop (and any later face) only read input and
/// render; the session carries out what the person asks and keeps what they see
/// current:
///
/// - orders with their count, and a refusal naming every short fruit, which a face
///   follows with the offer to edit the stock;
/// - stock edits; a new level is a compare-and-set against the level the person saw,
///   so another shop's edit is never overwritten;
/// - the levels and makeable counts, with other shops' changes applied from each
///   change's before and after values, and the last thing another shop did;
/// - the store's health: when the store does not answer (a server restarting,
///   another process holding the file locked), a request is kept under its request
///   id and tried again by `refresh()` until the store answers, so nothing is lost
///   and nothing is applied twice.
///
/// The session does no terminal or stream I/O. It is used from one thread; the store
/// calls `wake` from other threads when a change arrives, and the face then calls
/// `refresh()`.
final class ShopSession {
  /// The shop the session sells for.
  let shop: JuiceMaker
  /// The words, in the person's language.
  let texts: Texts
  /// The words that answer yes or no.
  let answers: AnswerWords
  /// Each fruit's level as the session knows it, in the store's order.
  private(set) var levels: [Int]
  /// How many of each juice the levels allow, in menu order.
  private(set) var makeable: [Int]
  /// Each fruit's minimum and par (the store's over the packs'), as the session opened,
  /// in the store's order; `nil` for a fruit that is never low.
  let limits: [StockLimits?]
  /// Whether the store answered the last operation.
  private(set) var health = ShopHealth.good
  /// The store's last failure, while `health` is not `.good`.
  private(set) var failure: StockStorageError?
  /// What another shop did last, for the status line.
  private(set) var lastOtherChange: String?
  /// Why a changed menu was not taken up, for the status line; the face sets it from its
  /// `MenuWatcher`.
  var menuProblem: String?

  /// A request kept until the store answers, with the id it is retried under.
  private struct Kept {
    var request: ShopRequest
    var id: RequestID
  }

  private var kept: [Kept] = []
  private var own: Set<RequestID> = []
  private let inbox = ChangeInbox()
  private var observation: StockObservation?
  /// Whether a change did not follow from the levels known (one was missed, or an
  /// operation of this shop's was replayed), so the levels must be read again.
  private var mustRead = false

  /// Starts a session at the store's current levels, watching its changes.
  ///
  /// - Parameters:
  ///   - shop: The shop.
  ///   - texts: The words in the person's language.
  ///   - strings: The string catalog, for the yes and no words of every language.
  ///   - wake: Called, on any thread, when the store changed; the face then calls
  ///     `refresh()`.
  ///   - continuing: The session this one follows when the menu changed, whose status
  ///     line (another shop's last change, a menu problem) it keeps.
  /// - Throws: `CLIError` when the store cannot be read.
  init(
    shop: JuiceMaker, texts: Texts, strings: StringCatalog,
    wake: @escaping @Sendable () -> Void = {}, continuing previous: ShopSession? = nil
  ) throws(CLIError) {
    self.shop = shop
    lastOtherChange = previous?.lastOtherChange
    menuProblem = previous?.menuProblem
    self.texts = texts
    answers = AnswerWords(strings: strings)
    do throws(FruitStoreError) {
      levels = try shop.store.levels()
      limits = try shop.store.limits(over: shop.catalog)
    } catch {
      throw CLIError(error)
    }
    makeable = shop.makeableCounts(levels: levels)
    let inbox = inbox
    observation = shop.store.observe { change in
      inbox.put(change)
      wake()
    }
  }

  deinit {
    observation?.cancel()
  }

  /// Whether the fruit at a level index is at or below its minimum now.
  func isLow(_ index: Int) -> Bool {
    limits[index]?.isLow(levels[index]) ?? false
  }

  /// Whether requests wait for the store.
  var isWaiting: Bool { !kept.isEmpty }

  /// How many requests wait for the store.
  var waitingCount: Int { kept.count }

  /// The status line: the store's health while it does not answer, else a changed menu
  /// that was not taken up, else what another shop did last.
  var status: String? {
    if let key = health.statusKey {
      return kept.isEmpty
        ? texts.string(key)
        : texts.string(key) + " " + texts.string("shop.health.kept", .int(kept.count))
    }
    return menuProblem ?? lastOtherChange
  }

  // MARK: - Requests

  /// Carries out a request now, or keeps it when the store does not answer (or
  /// earlier requests still wait), to be tried again by `refresh()` in order.
  ///
  /// - Returns: The outcome; `.waiting` when the request was kept.
  /// - Throws: `CLIError` only when the store holds data that cannot be trusted.
  func submit(_ request: ShopRequest) throws(CLIError) -> ShopOutcome {
    let id = RequestID.random()
    own.insert(id)
    let kept = Kept(request: request, id: id)
    if self.kept.isEmpty, let outcome = try attempt(kept) {
      _ = try takeChanges(probe: false)
      // Its change, if any, was delivered before the store returned and is taken now.
      own.remove(id)
      return outcome
    }
    self.kept.append(kept)
    return .waiting(texts.string("shop.health.waiting"))
  }

  /// Takes the store's changes into the levels, checks the store's health, and tries
  /// the kept requests again.
  ///
  /// - Parameter probe: Whether to read the store even when no change arrived: the
  ///   faces do so now and then, which shows a store that stopped answering and
  ///   catches a change that never arrived.
  /// - Returns: The outcomes of kept requests that the store answered now, oldest first.
  /// - Throws: `CLIError` only when the store holds data that cannot be trusted.
  func refresh(probe: Bool = true) throws(CLIError) -> [ShopOutcome] {
    var outcomes: [ShopOutcome] = []
    let answered = try takeChanges(probe: probe || health != .good || !kept.isEmpty)
    while answered, let first = kept.first {
      guard let outcome = try attempt(first) else { break }
      kept.removeFirst()
      // A retried request may have been kept by the store already, its change
      // delivered before this try: the levels are read again rather than guessed.
      mustRead = true
      outcomes.append(outcome)
    }
    if !outcomes.isEmpty { _ = try takeChanges(probe: false) }
    return outcomes
  }

  /// Carries out one request.
  ///
  /// - Returns: The outcome, or `nil` when the store did not answer (the health says
  ///   why).
  private func attempt(_ kept: Kept) throws(CLIError) -> ShopOutcome? {
    let store = shop.store
    switch kept.request {
    case .order(let juice, let count):
      do throws(JuiceMakerError) {
        let chosen = shop.catalog.juices[juice]
        let order = try shop.make(chosen, count: count, requestID: kept.id)
        answered()
        return .served(texts.receipt(order, price: chosen.price))
      } catch {
        if case .storage(let cause) = error { return try failed(cause) }
        answered()
        let failure = CLIError(error)
        if case .outOfStock(let shortages) = failure {
          return .refused(
            failure.message(texts), shortFruits: shortages.compactMap { store.index(of: $0.fruit) })
        }
        return .rejected(failure.message(texts))
      }
    case .setStock(let fruit, let level, let seen):
      return try edit(fruit) { id, editor throws(FruitStoreError) in
        try store.setStock(level, of: id, by: editor, expecting: seen, requestID: kept.id).after
      }
    case .add(let fruit, let count):
      return try edit(fruit) { id, editor throws(FruitStoreError) in
        try store.add(count, of: id, by: editor, requestID: kept.id)
      }
    case .remove(let fruit, let count):
      return try edit(fruit) { id, editor throws(FruitStoreError) in
        try store.remove(count, of: id, by: editor, requestID: kept.id)
      }
    }
  }

  /// Runs one stock edit of the fruit at `index`; `body` returns the level after it.
  private func edit(
    _ index: Int, _ body: (Fruit.ID, String) throws(FruitStoreError) -> Int
  ) throws(CLIError) -> ShopOutcome? {
    let fruit = shop.store.fruits[index]
    do throws(FruitStoreError) {
      let level = try body(fruit, shop.name)
      answered()
      return .updated(
        texts.string("stock.updated", .string(texts.name(of: fruit, count: level)), .int(level)))
    } catch {
      if case .storage(let cause) = error { return try failed(cause) }
      answered()
      if case .stockChanged(_, _, let actual) = error {
        // The level found is the store's truth now; the change that moved it follows.
        levels[index] = actual
        return .stale(CLIError(error).message(texts))
      }
      return .rejected(CLIError(error).message(texts))
    }
  }

  private func answered() {
    health = .good
    failure = nil
  }

  /// Notes a storage failure: one that may pass leaves the request to be tried again;
  /// data that cannot be trusted ends the session.
  private func failed(_ error: StockStorageError) throws(CLIError) -> ShopOutcome? {
    if case .invalid = error { throw CLIError(error) }
    health = ShopHealth(error)
    failure = error
    return nil
  }

  // MARK: - Levels

  /// Applies the changes that arrived, each from its before and after values; reads
  /// the store when asked, or when a change does not follow from the levels known.
  ///
  /// - Returns: Whether the store answered, or was not asked.
  private func takeChanges(probe: Bool) throws(CLIError) -> Bool {
    let before = levels
    for change in inbox.take() {
      for level in change.levels {
        guard let index = shop.store.index(of: level.fruit) else { continue }
        if levels[index] == level.before {
          levels[index] = level.after
        } else if levels[index] != level.after {
          mustRead = true
        }
      }
      if own.remove(change.operation.id) == nil, let text = describe(change) {
        lastOtherChange = text
      }
    }
    if probe || mustRead {
      do throws(FruitStoreError) {
        levels = try shop.store.levels()
        mustRead = false
        if kept.isEmpty { answered() }
      } catch {
        guard case .storage(let cause) = error else { return false }
        _ = try failed(cause)
        return false
      }
    }
    if levels != before {
      // The ledger's makeable counts over the levels the session holds: no read.
      makeable = shop.makeableCounts(levels: levels)
    }
    return true
  }

  /// "airport: 딸바쥬스 1잔": what another shop did, or `nil` for a change of no level.
  func describe(_ change: StockChange) -> String? {
    ChangeText.line(change.operation, levels: change.levels, texts)
  }
}

/// The changes the store's observer delivered, on any thread, until the session takes
/// them.
private final class ChangeInbox: Sendable {
  private let changes = Mutex<[StockChange]>([])

  func put(_ change: StockChange) {
    changes.withLock { $0.append(change) }
  }

  func take() -> [StockChange] {
    changes.withLock { changes in
      defer { changes.removeAll() }
      return changes
    }
  }
}
