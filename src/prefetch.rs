//! A hint to the CPU's caches: start loading bytes that will be read
//! soon, without waiting for them, so that their loads overlap the work
//! done before they are read.

/// Asks the CPU to start loading `bytes` into its caches, without
/// waiting for them.
#[inline]
pub(crate) fn prefetch(bytes: &[u8]) {
    /// The bytes one prefetch brings in.
    const CACHE_LINE: usize = 64;
    #[cfg(target_arch = "x86_64")]
    for line in bytes.chunks(CACHE_LINE) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch only hints the cache; it reads nothing and
        // never faults, and the pointer is into `bytes` anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(line.as_ptr().cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = bytes;
}
