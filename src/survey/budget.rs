//! The work a scope proof may do, in proportion to the agent's patterns.
//!
//! Whether some path is allowed is a question about the product of the
//! patterns' automata, which wildcards can make exponential in the rules'
//! size. Every step of the proof (a pattern a candidate path is judged
//! against, a pair of patterns compared, a thread of the search stepped and
//! stored) spends a unit of one budget; when it runs out the scope is
//! [`Unknown`](super::Scope::Unknown) and the finding says so. A unit is a
//! few nanoseconds and at most 16 bytes held, so one file's proof is
//! bounded in time and memory by the size of its patterns.

/// Units of work per byte of the agent's patterns.
pub const SCOPE_WORK_PER_BYTE: u64 = 256;

/// The least work any rule set gets: small files decide in far less.
pub const MIN_SCOPE_WORK: u64 = 1 << 21;

/// The most work any rule set gets, whatever its size.
pub const MAX_SCOPE_WORK: u64 = 1 << 24;

/// The units of work a proof over patterns of `bytes` bytes may spend.
pub fn scope_work(bytes: usize) -> u64 {
    (bytes as u64)
        .saturating_mul(SCOPE_WORK_PER_BYTE)
        .clamp(MIN_SCOPE_WORK, MAX_SCOPE_WORK)
}

/// What is left of a proof's work.
#[derive(Debug)]
pub(crate) struct Budget {
    left: u64,
}

impl Budget {
    pub(crate) fn new(units: u64) -> Budget {
        Budget { left: units }
    }

    /// Spends `units`; false, and nothing left, when there were not as many.
    pub(crate) fn spend(&mut self, units: u64) -> bool {
        match self.left.checked_sub(units) {
            Some(left) => {
                self.left = left;
                true
            }
            None => {
                self.left = 0;
                false
            }
        }
    }

    /// A share of what is left, as a budget of its own: what it does not
    /// spend comes back with [`Budget::refund`].
    pub(crate) fn split(&mut self, divisor: u64) -> Budget {
        let share = self.left / divisor;
        self.left -= share;
        Budget { left: share }
    }

    pub(crate) fn refund(&mut self, share: Budget) {
        self.left += share.left;
    }
}
