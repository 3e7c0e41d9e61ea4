public import JuiceMakerKit
public import Testing

/// The contract of `StockStorage`, as checks any storage can run in its own tests.
///
/// Describe the storage once, then run every check of `Check` against it from a
/// Swift Testing test; each check records its failures as issues of that test:
///
/// ```swift
/// import JuiceMakerKit
/// import JuiceMakerStorageTesting
/// import Testing
///
/// let redis = StockStorageConformance(name: "redis") { fruits in
///   let key = UUID().uuidString
///   return ConformanceStore(open: { try RedisStockStorage(key: key, fruits: fruits) })
/// }
///
/// @Test(arguments: redis.checks)
/// func redisStorageConforms(_ check: StockStorageConformance.Check) async throws {
///   try await redis.run(check)
/// }
/// ```
public struct StockStorageConformance: Sendable, CustomTestStringConvertible {
  /// One check of the contract.
  public enum Check: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// An operation's level changes are seen together or not at all, under concurrent operations from several storages over one store.
    case operationChangesItsLevelsTogether
    /// A refused operation changes no level and is journaled with its shortages.
    case refusalChangesNothingButIsJournaled
    /// An operation that would leave a level below zero is `.invalid`, naming the fruit, and keeps nothing.
    case bodyLeavingNegativeStockKeepsNothing
    /// The journal is newest first, with each filter of `JournalQuery` applied, and finds an entry by its request id.
    case journalIsNewestFirstAndFiltered
    /// The same operation sent again under its request id gets the first entry back and runs nothing.
    case sameRequestIDReplaysTheFirstOutcome
    /// Another operation under a used request id gets `.idReused` and changes nothing.
    case anotherOperationUnderAUsedRequestIDIsRefusedAndChangesNothing
    /// A compare-and-set against a stale level is a journaled conflict naming the level found.
    case compareAndSetWithAStaleLevelConflicts
    /// A store's observers see each of its changes once.
    case observersSeeEachChangeOnce
    /// An order by another store over the same storage reaches observers within a second.
    case anotherStoresOrderReachesObserversWithinASecond
    /// Shops on several threads, each over its own storage of one store, conserve stock exactly.
    case concurrentShopsConserveStock
    /// Every order and restock of a shop is journaled (storages that journal every order).
    case everyOrderAndRestockOfAShopIsJournaled
    /// A storage that cannot work throws `.unavailable` naming the store with the engine's cause, and changes nothing (storages that can fail).
    case failureNamesTheStoreKeepsTheCauseAndChangesNothing
    /// An order's price comes back from the journal, and `limits()` gives each fruit's newest limits, to every storage over the store.
    case pricesAndLimitsAreJournaled
    /// After random orders and edits by several shops, every grouping and filter of `report(_:)` gives the sums over the journal, and `journalCount(_:)` its count.
    case reportTotalsEqualSumsOverTheJournal
    /// A menu layer starts empty; publications add, replace and retire files, kept byte
    /// for byte in name order, and are logged newest first with who and when (storages
    /// that hold a menu).
    case menuFilesArePublishedReplacedRetiredAndLogged
    /// A publication against a stale version, or retiring a name the layer does not hold,
    /// writes nothing; names no publication can hold are `.invalid` (storages that hold a
    /// menu).
    case aStaleMenuVersionOrAnUnknownNameWritesNothing
    /// A publication wakes another storage's `waitForChanges` within a second (storages
    /// that hold a menu).
    case aPublicationWakesAnotherStorageWithinASecond
    /// Of publishers checked against the same version at once, one passes (storages that
    /// hold a menu).
    case publishersAtOnceCannotBothPass

    public var testDescription: String { rawValue }
  }

  /// The storage's name in test results.
  public let name: String
  /// Whether every order and restock of a shop is journaled, as persistent storages
  /// do; `false` for a storage with an unjournaled order path.
  public let journalsEveryOrder: Bool
  /// Whether the storage can fail: its stores give `ConformanceStore.locked`.
  public let canFail: Bool
  /// Whether the storage holds a menu layer: it is a `MenuStorage`.
  public let holdsAMenu: Bool
  /// Creates a fresh store holding the given fruits, each at its initial stock.
  public let makeStore: @Sendable (_ fruits: [Fruit]) throws -> ConformanceStore

  public var testDescription: String { name }

  /// Describes a storage to check.
  ///
  /// - Parameters:
  ///   - name: The storage's name in test results.
  ///   - journalsEveryOrder: Whether every order and restock of a shop is journaled.
  ///   - canFail: Whether the storage can fail (a store another holds locked, a lost
  ///     server); its stores then give `ConformanceStore.locked`.
  ///   - holdsAMenu: Whether the storage is a `MenuStorage`, whose checks then run too.
  ///   - makeStore: Creates a fresh store holding the given fruits at their initial
  ///     stock; each `ConformanceStore.open()` of it opens another storage over it.
  public init(
    name: String, journalsEveryOrder: Bool = true, canFail: Bool = true,
    holdsAMenu: Bool = false,
    makeStore: @escaping @Sendable (_ fruits: [Fruit]) throws -> ConformanceStore
  ) {
    self.name = name
    self.journalsEveryOrder = journalsEveryOrder
    self.canFail = canFail
    self.holdsAMenu = holdsAMenu
    self.makeStore = makeStore
  }

  /// The checks that apply to this storage: all of them, but journaling every order
  /// for a storage that does not, failing for one that cannot fail, and the menu layer's
  /// for one that holds none.
  public var checks: [Check] {
    Check.allCases.filter { check in
      switch check {
      case .everyOrderAndRestockOfAShopIsJournaled: journalsEveryOrder
      case .failureNamesTheStoreKeepsTheCauseAndChangesNothing: canFail
      case .menuFilesArePublishedReplacedRetiredAndLogged,
        .aStaleMenuVersionOrAnUnknownNameWritesNothing,
        .aPublicationWakesAnotherStorageWithinASecond, .publishersAtOnceCannotBothPass:
        holdsAMenu
      default: true
      }
    }
  }

  /// Runs one check against a fresh store, recording any failure as an issue of the
  /// current test.
  ///
  /// - Throws: What the storage threw where the check expects no error.
  public func run(_ check: Check) async throws {
    let checks = ConformanceChecks(kind: self)
    switch check {
    case .operationChangesItsLevelsTogether: try checks.operationChangesItsLevelsTogether()
    case .refusalChangesNothingButIsJournaled: try checks.refusalChangesNothingButIsJournaled()
    case .bodyLeavingNegativeStockKeepsNothing: try checks.bodyLeavingNegativeStockKeepsNothing()
    case .journalIsNewestFirstAndFiltered: try checks.journalIsNewestFirstAndFiltered()
    case .sameRequestIDReplaysTheFirstOutcome: try checks.sameRequestIDReplaysTheFirstOutcome()
    case .anotherOperationUnderAUsedRequestIDIsRefusedAndChangesNothing:
      try checks.anotherOperationUnderAUsedRequestIDIsRefusedAndChangesNothing()
    case .compareAndSetWithAStaleLevelConflicts: try checks.compareAndSetWithAStaleLevelConflicts()
    case .observersSeeEachChangeOnce: try await checks.observersSeeEachChangeOnce()
    case .anotherStoresOrderReachesObserversWithinASecond:
      try await checks.anotherStoresOrderReachesObserversWithinASecond()
    case .concurrentShopsConserveStock: try checks.concurrentShopsConserveStock()
    case .everyOrderAndRestockOfAShopIsJournaled:
      try checks.everyOrderAndRestockOfAShopIsJournaled()
    case .failureNamesTheStoreKeepsTheCauseAndChangesNothing:
      try checks.failureNamesTheStoreKeepsTheCauseAndChangesNothing()
    case .pricesAndLimitsAreJournaled: try checks.pricesAndLimitsAreJournaled()
    case .reportTotalsEqualSumsOverTheJournal: try checks.reportTotalsEqualSumsOverTheJournal()
    case .menuFilesArePublishedReplacedRetiredAndLogged:
      try checks.menuFilesArePublishedReplacedRetiredAndLogged()
    case .aStaleMenuVersionOrAnUnknownNameWritesNothing:
      try checks.aStaleMenuVersionOrAnUnknownNameWritesNothing()
    case .aPublicationWakesAnotherStorageWithinASecond:
      try checks.aPublicationWakesAnotherStorageWithinASecond()
    case .publishersAtOnceCannotBothPass: try checks.publishersAtOnceCannotBothPass()
    }
  }
}
