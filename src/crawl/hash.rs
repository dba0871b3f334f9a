//! The hash map of the crawl modules.

/// PERF: origin keys are hashed for every URL of a log, and bodies once
/// each; SipHash was several percent of a run. aHash is seeded at random
/// per process all the same.
pub(super) type HashMap<K, V> =
    std::collections::HashMap<K, V, ahash::RandomState>;
