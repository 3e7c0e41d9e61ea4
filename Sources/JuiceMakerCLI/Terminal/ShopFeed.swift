import JuiceMakerKit
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The full-screen shop's view of a store that other processes change, fed by the
/// store's change feed (`FruitStore.observe(_:)`).
///
/// Each change, this shop's own or another's, is kept for the next `poll()` and wakes
/// the loop through a pipe (`descriptor`) that it polls beside the keyboard. Changes of
/// this shop's own operations, known by their request ids, do not reach the status line,
/// even when another process uses the same shop name.
final class ShopFeed {
  /// What changed since the last poll.
  struct Update {
    /// Every level, in the store's order.
    var levels: [Int]
    /// Changes made by others since the last poll, oldest first.
    var changes: [StockChange]
  }

  /// The changes the observer received, not yet taken by `poll()`.
  private final class Inbox: Sendable {
    let changes = Mutex<[StockChange]>([])
  }

  private let store: FruitStore
  private let inbox = Inbox()
  private var levels: [Int]
  private var own: Set<RequestID> = []
  private let ends: (read: Int32, write: Int32)
  private var observation: StockObservation?

  /// The descriptor that becomes readable when the store changed.
  var descriptor: Int32 { ends.read }

  /// Starts watching the store at its current state.
  ///
  /// - Throws: `CLIError` when the store cannot be read.
  init(store: FruitStore) throws(CLIError) {
    self.store = store
    var pipeEnds: [Int32] = [-1, -1]
    if pipe(&pipeEnds) == 0 {
      for end in pipeEnds {
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      }
    }
    ends = (pipeEnds[0], pipeEnds[1])
    do throws(FruitStoreError) {
      levels = try store.levels()
    } catch {
      throw CLIError(error)
    }
    let inbox = inbox
    let writeEnd = ends.write
    observation = store.observe { change in
      inbox.changes.withLock { $0.append(change) }
      var byte: UInt8 = 1
      _ = write(writeEnd, &byte, 1)
    }
  }

  deinit {
    observation?.cancel()
    for end in [ends.read, ends.write] where end >= 0 { close(end) }
  }

  /// The levels as last read.
  var current: [Int] { levels }

  /// A new request id for one of this shop's operations, whose change the status line
  /// leaves out.
  func ownRequest() -> RequestID {
    let id = RequestID.random()
    own.insert(id)
    return id
  }

  /// The levels and others' changes when something changed since the last poll; `nil`
  /// when nothing did.
  ///
  /// - Throws: `CLIError` when the store cannot be read.
  func poll() throws(CLIError) -> Update? {
    var buffer = [UInt8](repeating: 0, count: 64)
    while ends.read >= 0, read(ends.read, &buffer, buffer.count) > 0 {}
    let changes = inbox.changes.withLock { changes in
      defer { changes.removeAll() }
      return changes
    }
    let now: [Int]
    do throws(FruitStoreError) {
      now = try store.levels()
    } catch {
      throw CLIError(error)
    }
    guard now != levels || !changes.isEmpty else { return nil }
    levels = now
    return Update(
      levels: now, changes: changes.filter { own.remove($0.operation.id) == nil })
  }
}
