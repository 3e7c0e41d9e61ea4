extension SQLiteStockStorage {
  /// How durably a committed operation is kept, as SQLite's `synchronous` setting in
  /// write-ahead-logging mode.
  ///
  /// Neither setting can corrupt the store, and a crash of the application (even
  /// `SIGKILL`) loses no committed operation at either: the difference is only what
  /// a power loss or operating-system crash can take back.
  public enum Durability: String, Sendable, CaseIterable {
    /// `synchronous=FULL`: every operation is flushed to disk (`fsync`) before it
    /// returns, so it survives a power loss or an operating-system crash. The
    /// default; bound by the disk's flush latency.
    case full
    /// `synchronous=NORMAL`: the log is flushed only at checkpoints, several times
    /// faster (JuiceMakerKit's Performance article has the figures). An application
    /// crash still loses nothing, but a power loss or operating-system crash may roll back
    /// the last operations committed since the last checkpoint; the store stays
    /// consistent, with levels and journal rolled back together.
    case normal
  }
}
