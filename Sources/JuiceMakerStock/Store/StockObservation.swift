import JuiceMakerCatalog
public import Synchronization

/// A registration of a stock observer; the observer stays registered until
/// `cancel()` is called or the observation is released.
public final class StockObservation: Sendable {
  private let registry: ObserverRegistry
  private let id: Int

  init(registry: ObserverRegistry, id: Int) {
    self.registry = registry
    self.id = id
  }

  /// Stops the observer from receiving further changes.
  public func cancel() {
    registry.remove(id)
  }

  deinit {
    registry.remove(id)
  }
}

/// The observers of one store.
///
/// The store asks `isActive` inside its hot path, which costs one atomic load, and
/// builds change records only when someone is listening.
@usableFromInline
final class ObserverRegistry: Sendable {
  typealias Handler = @Sendable (StockChange) -> Void

  private struct State {
    var nextID = 0
    var handlers: [Int: Handler] = [:]
  }

  private let state = LockedValue(State())
  @usableFromInline let count = Atomic<Int>(0)

  /// Whether any observer is registered.
  @inlinable var isActive: Bool {
    count.load(ordering: .acquiring) > 0
  }

  func add(_ handler: @escaping Handler) -> Int {
    state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      state.handlers[id] = handler
      count.store(state.handlers.count, ordering: .releasing)
      return id
    }
  }

  func remove(_ id: Int) {
    state.withLock { state in
      state.handlers[id] = nil
      count.store(state.handlers.count, ordering: .releasing)
    }
  }

  /// Calls every observer with the change, outside the registry's lock.
  func notify(_ change: StockChange) {
    let handlers = state.withLock { $0.handlers.sorted { $0.key < $1.key }.map(\.value) }
    for handler in handlers {
      handler(change)
    }
  }
}
