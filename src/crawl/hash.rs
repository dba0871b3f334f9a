//! The hash map of the crawl modules.

/// aHash, not the standard SipHash: origin keys are hashed for every URL of
/// a log, and bodies once each, so the hash is a visible part of a run.
/// aHash is seeded at random per process all the same.
pub(super) type HashMap<K, V> =
    std::collections::HashMap<K, V, ahash::RandomState>;
