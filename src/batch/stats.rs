//! The counts of a run: lines, bytes, verdicts and cut lines.

/// Counts of a run (or of part of one).
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub struct Stats {
    pub(super) lines: u64,
    pub(super) bytes: u64,
    pub(super) allowed: u64,
    pub(super) disallowed: u64,
    pub(super) unknown: u64,
    pub(super) cut: u64,
}

impl Stats {
    /// Counts of `bytes` of input, with nothing judged yet; the `count_*`
    /// methods add to them.
    pub(crate) fn of_bytes(bytes: usize) -> Stats {
        Stats { bytes: bytes as u64, ..Stats::default() }
    }

    /// Counts one line.
    pub(crate) fn count_line(&mut self) {
        self.lines += 1;
    }

    /// Counts one verdict: allowed, disallowed, or (crawl-log mode)
    /// unknown.
    pub(crate) fn count_verdict(&mut self, allowed: Option<bool>) {
        match allowed {
            Some(true) => self.allowed += 1,
            Some(false) => self.disallowed += 1,
            None => self.unknown += 1,
        }
    }

    /// `unknown` verdicts (crawl-log mode: no robots.txt, no host).
    pub fn unknown(&self) -> u64 {
        self.unknown
    }

    /// Lines read (one verdict per matcher each).
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// Bytes of input read, line terminators included.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// `allowed` verdicts, over all matchers.
    pub fn allowed(&self) -> u64 {
        self.allowed
    }

    /// `disallowed` verdicts, over all matchers.
    pub fn disallowed(&self) -> u64 {
        self.disallowed
    }

    /// Lines longer than [`MAX_LINE_BYTES`](crate::MAX_LINE_BYTES), whose rows hold and were
    /// judged on their first `MAX_LINE_BYTES` bytes.
    pub fn cut_lines(&self) -> u64 {
        self.cut
    }

    pub(super) fn add(&mut self, other: &Stats) {
        self.lines += other.lines;
        self.bytes += other.bytes;
        self.allowed += other.allowed;
        self.disallowed += other.disallowed;
        self.unknown += other.unknown;
        self.cut += other.cut;
    }

    /// Counts a line cut at [`MAX_LINE_BYTES`](crate::MAX_LINE_BYTES) and the `skipped` bytes read
    /// past after the cut.
    pub(super) fn count_cut(&mut self, skipped: usize) {
        self.cut += 1;
        self.bytes += skipped as u64;
    }
}
