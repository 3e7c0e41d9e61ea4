import JuiceMakerKit
import Testing

@testable import JuiceMakerCLI

/// What the command says when the store fails: the cause and the request id survive the
/// way from the storage to the message and the exit code.
struct StoreErrorMessageTests {
  static let cause = StorageFailure(
    code: "08006", message: "server closed the connection unexpectedly", purpose: "committing")

  @Test(arguments: ["en", "ko"])
  func aLostCommitNamesTheRequestIDToSendAgain(language: String) throws {
    let strings = try StringCatalog(directory: Paths.localization)
    let texts = Texts(localizer: strings.localizer(for: language))
    let error = CLIError(
      JuiceMakerError.storage(
        .outcomeUnknown(
          store: "postgresql://shop:***@db/juice", id: "till-7-0042", cause: Self.cause)))
    #expect(error.exitCode == .ioError)
    #expect(error.code == "outcomeUnknown")
    let message = error.message(texts)
    #expect(message.contains("--request-id till-7-0042"), "\(message)")
    #expect(message.contains("server closed the connection unexpectedly (08006)"), "\(message)")
    #expect(message.contains("postgresql://shop:***@db/juice"), "\(message)")
  }

  @Test func aReusedRequestIDNamesWhatItWasFirstUsedFor() throws {
    let strings = try StringCatalog(directory: Paths.localization)
    let texts = Texts(localizer: strings.localizer(for: "en"))
    let first = StockOperation(
      id: "X2", editor: "downtown", action: .order("banana-juice", count: 1))
    let error = CLIError(JuiceMakerError.requestIDReused("X2", firstUse: first))
    #expect(error.exitCode == .usage)
    #expect(error.code == "requestIDReused")
    #expect(
      error.message(texts)
        == "Request ID X2 was already used for another operation (order banana-juice ×1, by "
        + "downtown); nothing was done. Give a new request ID for a new operation.")
  }

  @Test(
    arguments: [
      (
        StockStorageError.invalid(store: "juice-store", cause: cause), ExitCode.dataError,
        "invalidStore"
      ),
      (.unavailable(store: "juice-store", cause: cause), .ioError, "storeUnavailable"),
      (.missing(store: "juice-store", cause: cause), .dataError, "storeMissing"),
      (.alreadyExists(store: "juice-store", cause: cause), .dataError, "storeExists"),
      (.replaced(store: "juice-store", cause: cause), .ioError, "storeReplaced"),
      (.outcomeUnknown(store: "juice-store", id: "r-1", cause: cause), .ioError, "outcomeUnknown"),
    ])
  func everyStoreFailureKeepsItsCauseToTheExitCode(
    failure: StockStorageError, exitCode: ExitCode, code: String
  ) throws {
    let strings = try StringCatalog(directory: Paths.localization)
    let texts = Texts(localizer: strings.localizer(for: "en"))
    // The same error from every layer above the storage.
    for error in [
      CLIError(failure), CLIError(FruitStoreError.storage(failure)),
      CLIError(JuiceMakerError.storage(failure)),
    ] {
      #expect(error == .store(failure))
      #expect(error.exitCode == exitCode)
      #expect(error.code == code)
      let message = error.message(texts)
      #expect(message.contains("juice-store"), "\(message)")
      switch failure {
      case .alreadyExists: break
      case .missing:
        #expect(message.contains("juice-maker init --store juice-store"), "\(message)")
      default:
        #expect(message.contains("(08006)"), "\(message)")
      }
    }
  }
}
