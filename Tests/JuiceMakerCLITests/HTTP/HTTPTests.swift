import Testing

/// The HTTP API's tests, against the built `juice-maker serve` in child processes.
///
/// Each file adds one suite for one concern. They run one at a time: several of them
/// load the server on purpose (two thousand connections, a fuzz run, a kill under load)
/// or wait for behaviour within a stated time, and on a small machine they would slow
/// each other into failures that say nothing about the server.
@Suite(.serialized) struct HTTPTests {}
