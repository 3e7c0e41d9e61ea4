import Foundation
public import JuiceMakerKit

/// One store of a storage under check, which may be opened several times.
public final class ConformanceStore: Sendable {
  /// Opens a storage over the store: another connection where the storage has them,
  /// else the same storage.
  public let open: @Sendable () throws -> any StockStorage
  /// Runs the body with a storage over the store that cannot work now (its store is
  /// held locked); `nil` for a storage that cannot fail.
  public let locked: (@Sendable (_ body: (any StockStorage) throws -> Void) throws -> Void)?
  private let cleanup: @Sendable () -> Void

  /// Describes a store.
  ///
  /// - Parameters:
  ///   - open: Opens a storage over the store: another connection where the storage
  ///     has them, else the same storage.
  ///   - locked: Runs its body with a storage over the store that cannot work now
  ///     (its store held locked by another); `nil` for a storage that cannot fail.
  ///   - cleanup: Removes the store when the checks are done with it.
  public init(
    open: @escaping @Sendable () throws -> any StockStorage,
    locked: (@Sendable (_ body: (any StockStorage) throws -> Void) throws -> Void)? = nil,
    cleanup: @escaping @Sendable () -> Void = {}
  ) {
    self.open = open
    self.locked = locked
    self.cleanup = cleanup
  }

  deinit {
    cleanup()
  }

  /// Runs `body` while `holder` is inside an operation whose body waits; the held
  /// operation then leaves a negative level, so the storage keeps nothing of it.
  ///
  /// A storage whose lock is held inside an operation can build its `locked` on it.
  ///
  /// - Throws: `HoldFailure` when the holder did not start its operation within 30 s;
  ///   what `body` throws.
  public static func holdingLock(of holder: any StockStorage, while body: () throws -> Void)
    throws
  {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    Thread {
      _ = try? holder.perform(
        StockOperation(editor: "holder", action: .add(holder.fruits[0], count: 1)),
        touching: [0]
      ) { levels in
        entered.signal()
        _ = release.wait(timeout: .now() + 30)
        levels[0] = -1
        return .done
      }
      finished.signal()
    }.start()
    guard entered.wait(timeout: .now() + 30) == .success else {
      release.signal()
      throw HoldFailure()
    }
    defer {
      release.signal()
      _ = finished.wait(timeout: .now() + 30)
    }
    try body()
  }

  /// The store could not be held locked for a check.
  public struct HoldFailure: Error {
    /// Creates the failure.
    public init() {}
  }
}
