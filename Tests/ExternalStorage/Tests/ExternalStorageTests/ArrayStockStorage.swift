import Foundation
import JuiceMakerKit
import Synchronization

/// A storage as a third party would write one against the public API: levels and an
/// unbounded journal in arrays behind one lock.
final class ArrayStockStorage: StockStorage {
  private struct State {
    var levels: [Int]
    var journal: [JournalEntry] = []
  }

  let fruits: [Fruit.ID]
  let location = "arrays"
  private let state: Mutex<State>

  init(fruits: [Fruit]) {
    self.fruits = fruits.map(\.id)
    state = Mutex(State(levels: fruits.map(\.initialStock)))
  }

  func levels() -> [Int] {
    state.withLock { $0.levels }
  }

  func transact(
    _ id: RequestID, touching: [Int], _ decide: (StockTransaction) -> StockCommit?
  ) -> JournalEntry? {
    state.withLock { state in
      let transaction = StockTransaction(
        levels: StockLevels(state.levels, touching: touching),
        journaled: state.journal.first { $0.id == id })
      guard let commit = decide(transaction) else { return nil }
      for change in commit.changes {
        state.levels[change.index] = change.level.after
      }
      let entry = commit.entry(sequence: Int64(state.journal.count + 1), date: Date())
      state.journal.append(entry)
      return entry
    }
  }

  func journal(_ query: JournalQuery) -> [JournalEntry] {
    let matching = state.withLock { $0.journal.reversed().filter(query.matches) }
    return query.limit.map { Array(matching.prefix(max(0, $0))) } ?? matching
  }

  func waitForChanges(timeout: Duration) {
    let start = state.withLock { $0.journal.count }
    let deadline = ContinuousClock.now + timeout
    while state.withLock({ $0.journal.count }) == start, ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.005)
    }
  }
}
