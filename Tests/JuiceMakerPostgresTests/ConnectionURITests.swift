import Testing

@testable import JuiceMakerPostgres

struct ConnectionURITests {
  @Test(arguments: [
    ("postgresql://shop:s3cret@db.example.com/juice", "postgresql://shop:***@db.example.com/juice"),
    (
      "postgres://shop:s3cret@db:5433/juice?sslmode=require",
      "postgres://shop:***@db:5433/juice?sslmode=require"
    ),
    (
      "postgresql://shop@/juice?host=/tmp/x&password=s3cret&port=5",
      "postgresql://shop@/juice?host=/tmp/x&password=***&port=5"
    ),
    ("postgresql://a%40b:p%40ss@h/d", "postgresql://a%40b:***@h/d"),
    ("postgresql://h/d", "postgresql://h/d"),
    ("POSTGRESQL://u:pw@h", "POSTGRESQL://u:***@h"),
  ])
  func redactsEveryPassword(uri: String, shown: String) {
    #expect(ConnectionURI(uri).redacted == shown)
  }

  @Test func scrubsThePasswordFromMessagesInEveryForm() {
    let uri = ConnectionURI("postgresql://shop:p%40ss-word@h/d?password=other-secret")
    #expect(uri.scrub("no p%40ss-word, p@ss-word or other-secret") == "no ***, *** or ***")
  }

  @Test(arguments: [
    ("postgresql://h/d", true), ("postgres://h", true), ("PostgreSQL://h", true),
    ("store.sqlite", false), ("/tmp/postgresql://x", false), ("postgresql:/x", false), ("", false),
  ])
  func tellsURIsFromPaths(text: String, isURI: Bool) {
    #expect(ConnectionURI.isURI(text) == isURI)
  }
}

/// The user info split where libpq splits it, and the URIs it would read otherwise than
/// meant.
struct ConnectionURISplitTests {
  @Test(arguments: [
    // libpq takes the user info up to the first `@` before a `/`, past any `?`.
    ("postgresql://u:s3cr3t@pw@h:1/d", "postgresql://***", true),
    ("postgresql://h:1?password=s3cr3t@pw", "postgresql://***", true),
    ("postgresql://u:s3cr3t%40pw@h/d", "postgresql://u:***@h/d", false),
    (
      "postgresql://h/d?user=a@b&sslpassword=s3cr3t", "postgresql://h/d?user=a@b&sslpassword=***",
      false
    ),
    ("postgresql://h/d?pass%77ord=s3cr3t", "postgresql://h/d?pass%77ord=***", false),
    ("postgresql://u@h/d?SSLPASSWORD=s3cr3t", "postgresql://u@h/d?SSLPASSWORD=***", false),
  ])
  func splitsTheUserInfoAsLibpqDoes(uri: String, shown: String, ambiguous: Bool) {
    let parsed = ConnectionURI(uri)
    #expect(parsed.redacted == shown)
    #expect(parsed.isAmbiguous == ambiguous)
    #expect(!parsed.scrub("libpq: " + uri).contains("s3cr3t"))
  }

  @Test func redactsAURIInsideAnyText() {
    #expect(
      ConnectionURI.redactingURIs(in: "--store PostgreSQL://u:s3cr3t@h/d")
        == "--store PostgreSQL://u:***@h/d")
    #expect(ConnectionURI.redactingURIs(in: "kiwi-juice") == "kiwi-juice")
  }

  @Test func redactsEveryURIAMessageQuotesAndNothingAfterIt() {
    #expect(
      ConnectionURI.redactingURIs(
        in: "Options --store postgresql://u:pw1@h/d and --store postgres://v:pw2@k clash.")
        == "Options --store postgresql://u:***@h/d and --store postgres://v:***@k clash.")
    // A URI without a path, then an `@` in the words after it: the words stay.
    let message = "--store “postgresql://***” has more than one @ before its host."
    #expect(ConnectionURI.redactingURIs(in: message) == message)
  }

  @Test func scrubsThePasswordsOfEveryURIGiven() {
    #expect(
      ConnectionURI.scrub(
        "/work/postgresql:/u:pw1@h/d?password=pw2: no such directory",
        ofEveryURIIn: ["--localization", "postgresql://u:pw1@h/d?password=pw2"])
        == "/work/postgresql:/u:***@h/d?password=***: no such directory")
  }
}
