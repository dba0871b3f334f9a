//! A hint to the CPU's caches: start loading bytes that will be read
//! soon, without waiting for them, so that their loads overlap the work
//! done before they are read.

/// Asks the CPU to start loading the memory of `items` (every cache line
/// it touches) into its caches, without waiting for it.
#[inline]
pub(crate) fn prefetch<T>(items: &[T]) {
    /// The bytes one prefetch brings in.
    const CACHE_LINE: usize = 64;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let start = items.as_ptr().cast::<u8>();
        let len = std::mem::size_of_val(items);
        // Every line the items start in, and the one they end in.
        let last = len.checked_sub(1);
        for at in (0..len).step_by(CACHE_LINE).chain(last) {
            // SAFETY: a prefetch only hints the cache; it reads nothing
            // and never faults, and the address is within `items`.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(at).cast())
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = items;
}
