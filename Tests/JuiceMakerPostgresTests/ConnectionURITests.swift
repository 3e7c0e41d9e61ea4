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
