//! Hints to the CPU's caches: start loading bytes that will be read
//! soon, without waiting for them, so that their loads overlap the work
//! done before they are read.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The bytes one prefetch brings in.
const CACHE_LINE: usize = 64;

/// Asks the CPU to start loading the memory of `items` (every cache line
/// it touches) into its caches, without waiting for it.
#[inline]
pub(crate) fn prefetch<T>(items: &[T]) {
    let start = items.as_ptr() as usize;
    let len = std::mem::size_of_val(items);
    // Every line the items start in, and the one they end in.
    let last = len.checked_sub(1);
    for at in (0..len).step_by(CACHE_LINE).chain(last) {
        prefetch_address(start.wrapping_add(at));
    }
}

/// Asks for the cache line at `address`, which need not be memory the
/// program may read.
#[inline(always)]
fn prefetch_address(address: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch only hints the cache; it reads nothing and
        // never faults, whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address as *const i8) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

/// The most cache lines of one region that [`Hints::prefetch`] asks for:
/// past them, the loads in flight would wait for each other.
const MAX_LINES: usize = 8;

/// Where a piece of memory lies, to be prefetched later. Only an address:
/// it is never read through, so it may outlive the memory.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Region {
    start: usize,
    len: usize,
}

impl Region {
    /// The memory of `items`.
    pub(crate) fn of<T>(items: &[T]) -> Region {
        Region::with_before(items, 0)
    }

    /// The memory of `items` and of the `before` bytes before them (a
    /// header that is read with them).
    pub(crate) fn with_before<T>(items: &[T], before: usize) -> Region {
        Region {
            start: (items.as_ptr() as usize).wrapping_sub(before),
            len: std::mem::size_of_val(items) + before,
        }
    }

    /// Asks for the cache line `offset` bytes into the region, if it lies
    /// there, without waiting for it: a store to it soon then finds it
    /// cached.
    #[inline]
    pub(crate) fn prefetch_at(&self, offset: usize) {
        if offset < self.len {
            prefetch_address(self.start.wrapping_add(offset));
        }
    }
}

/// Where the memory behind some pointers lies (up to `N` regions, the
/// first [`MAX_LINES`] cache lines of each), kept beside them so that
/// whoever will follow those pointers can ask for all of that memory at
/// once, rather than wait for each pointer before loading the next.
///
/// Written by one thread at a time and read by any without a lock: a
/// hint that is stale or torn only wastes a prefetch.
#[derive(Debug)]
pub(crate) struct Hints<const N: usize>([AtomicUsize; N]);

impl<const N: usize> Default for Hints<N> {
    fn default() -> Self {
        Hints(std::array::from_fn(|_| AtomicUsize::new(0)))
    }
}

impl<const N: usize> Hints<N> {
    /// Replaces the hints with the first `N` non-empty `regions`.
    pub(crate) fn set(&self, regions: impl IntoIterator<Item = Region>) {
        let mut regions = regions.into_iter().filter(|r| r.len > 0);
        for word in &self.0 {
            // A region's first line, and below it its count of lines less
            // one (lines are aligned, so their low bits are free).
            let hint = regions.next().map_or(0, |r| {
                let first = r.start / CACHE_LINE;
                let last = r.start.wrapping_add(r.len - 1) / CACHE_LINE;
                let lines = last.wrapping_sub(first).min(MAX_LINES - 1);
                (first * CACHE_LINE) | lines
            });
            word.store(hint, Ordering::Relaxed);
        }
    }

    /// Asks for the memory the hints point to.
    #[inline]
    pub(crate) fn prefetch(&self) {
        for word in &self.0 {
            let hint = word.load(Ordering::Relaxed);
            if hint == 0 {
                return;
            }
            let first = hint & !(CACHE_LINE - 1);
            for line in 0..=hint % CACHE_LINE {
                prefetch_address(first + line * CACHE_LINE);
            }
        }
    }
}

#[cfg(test)]
impl Region {
    /// Where the region starts, if it is not empty.
    pub(crate) fn start(&self) -> Option<usize> {
        (self.len > 0).then_some(self.start)
    }
}

#[cfg(test)]
impl<const N: usize> Hints<N> {
    /// Whether a hint asks for the line of `address`.
    pub(crate) fn covers(&self, address: usize) -> bool {
        self.0.iter().map(|w| w.load(Ordering::Relaxed)).any(|h| {
            let first = h & !(CACHE_LINE - 1);
            h != 0
                && (first..=first + h % CACHE_LINE * CACHE_LINE)
                    .contains(&(address & !(CACHE_LINE - 1)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines each hint asks for, as (first line's address, lines).
    fn lines<const N: usize>(hints: &Hints<N>) -> Vec<(usize, usize)> {
        hints
            .0
            .iter()
            .map(|w| w.load(Ordering::Relaxed))
            .take_while(|&h| h != 0)
            .map(|h| (h & !(CACHE_LINE - 1), h % CACHE_LINE + 1))
            .collect()
    }

    #[test]
    fn hints_cover_each_regions_lines_up_to_the_most() {
        let hints = Hints::<3>::default();
        let region = |start, len| Region { start, len };
        hints.set([
            // Within one line, across two, empty (skipped), past the most.
            region(0x1010, 8),
            region(0x2030, 0x20),
            region(0x3000, 0),
            region(0x4000, 64 * 20),
            region(0x9000, 1),
        ]);
        assert_eq!(
            lines(&hints),
            [(0x1000, 1), (0x2000, 2), (0x4000, MAX_LINES)]
        );
        // Fewer regions than hints: the rest are cleared.
        hints.set([region(0x5040, 64)]);
        assert_eq!(lines(&hints), [(0x5040, 1)]);
        assert!(hints.covers(0x507F) && !hints.covers(0x5080));
        hints.set([]);
        assert_eq!(lines(&hints), []);
        assert!(!hints.covers(0x5040));
        hints.prefetch();
    }

    #[test]
    fn a_region_may_start_before_its_items() {
        let items = [0u64; 4];
        let r = Region::with_before(&items, 16);
        assert_eq!(r.start + 16, items.as_ptr() as usize);
        assert_eq!(r.len, 48);
    }
}
