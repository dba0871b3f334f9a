//! What the crate's tests share.

/// A xorshift64 generator from `seed`: the random inputs of the tests,
/// the same on every run, so that a failure can be replayed.
pub(crate) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
