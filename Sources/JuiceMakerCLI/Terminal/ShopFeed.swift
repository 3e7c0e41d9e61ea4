import JuiceMakerKit

/// The full-screen shop's view of a store that other processes change: the levels, and
/// what other shops did since the last look.
///
/// The feed reads the levels when asked (the loop asks a few times a second), and the
/// journal only when the levels moved. Entries of this shop's own operations, known by
/// their request ids, are left out, so the status line shows only what others did even
/// when they use the same shop name.
final class ShopFeed {
  /// What changed since the last poll.
  struct Update {
    /// Every level, in the store's order.
    var levels: [Int]
    /// Journal entries of others' operations since the last look, oldest first.
    var entries: [JournalEntry]
  }

  /// The most journal entries read at one look.
  static let journalPage = 100

  private let store: FruitStore
  private var levels: [Int]
  private var lastSeen: Int64
  private var own: Set<RequestID> = []

  /// Starts a feed at the store's current state.
  ///
  /// - Throws: `CLIError` when the store cannot be read.
  init(store: FruitStore) throws(CLIError) {
    self.store = store
    do throws(FruitStoreError) {
      levels = try store.levels()
      lastSeen = try store.journal(JournalQuery(limit: 1)).first?.sequence ?? 0
    } catch {
      throw CLIError(error)
    }
  }

  /// The levels as last read.
  var current: [Int] { levels }

  /// A new request id for one of this shop's operations, whose journal entry the feed
  /// will leave out.
  func ownRequest() -> RequestID {
    let id = RequestID.random()
    own.insert(id)
    return id
  }

  /// The levels and others' entries when the levels moved since the last poll; `nil` when
  /// they did not.
  ///
  /// - Throws: `CLIError` when the store cannot be read.
  func poll() throws(CLIError) -> Update? {
    do throws(FruitStoreError) {
      let now = try store.levels()
      guard now != levels else { return nil }
      levels = now
      let entries = try store.journal(JournalQuery(after: lastSeen, limit: Self.journalPage))
      lastSeen = max(lastSeen, entries.map(\.sequence).max() ?? lastSeen)
      let others = entries.filter { own.remove($0.id) == nil }
      return Update(levels: now, entries: others.sorted { $0.sequence < $1.sequence })
    } catch {
      throw CLIError(error)
    }
  }
}
