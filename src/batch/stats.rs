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
    /// Bad records (record input formats): judged `unknown`.
    pub(crate) bad: u64,
    /// The first bad record: its 0-based number and what is wrong with it.
    pub(crate) first_bad: Option<(u64, &'static str)>,
    /// Records written by `--emit` (record input formats).
    pub(crate) kept: u64,
    /// Lines or records that no agent may not fetch but some agent's
    /// verdict on is unknown (crawl-log mode; of lines, counted only where
    /// a run keeps one verdict).
    pub(crate) undecided: u64,
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

    /// Counts a bad record, the `number`th (0-based) of these counts.
    pub(crate) fn count_bad(&mut self, number: u64, why: &'static str) {
        self.bad += 1;
        self.first_bad.get_or_insert((number, why));
    }

    /// Records that could not be judged (record input formats): no URL,
    /// or not a record of the format at all.
    pub fn bad_records(&self) -> u64 {
        self.bad
    }

    /// Records that a run keeping only one verdict wrote (record input
    /// formats, [`Records::emit`](crate::record::Records::emit)).
    pub fn kept_records(&self) -> u64 {
        self.kept
    }

    /// Lines or records left undecided: no agent's verdict `disallowed`,
    /// one `unknown` (crawl-log mode, bad records apart; of lines, counted
    /// only by a run keeping one verdict).
    pub fn undecided(&self) -> u64 {
        self.undecided
    }

    /// The first bad record: its 1-based number and what is wrong with it.
    pub fn first_bad_record(&self) -> Option<(u64, &'static str)> {
        self.first_bad.map(|(n, why)| (n + 1, why))
    }

    pub(crate) fn add(&mut self, other: &Stats) {
        if self.first_bad.is_none() {
            // The other counts come after these: its numbers follow ours.
            self.first_bad =
                other.first_bad.map(|(n, why)| (self.lines + n, why));
        }
        self.bad += other.bad;
        self.kept += other.kept;
        self.undecided += other.undecided;
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
