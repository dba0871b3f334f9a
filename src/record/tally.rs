//! Each agent's verdicts on the records counted, for `-c`: a worker
//! counts its own and adds them to the run's [`Counts`] when it is dropped,
//! so that the threads do not share a counter per record.

use super::worker::RecordWorker;
use super::Records;
use crate::output::{slot, Counts};

impl<'m> Records<'m> {
    /// Counts each agent's verdicts (`Counts` of as many agents as
    /// matchers, or as the crawl judge has) into `counts`; a bad record counts as unknown for each.
    pub fn tally(&mut self, counts: &'m Counts) -> &mut Records<'m> {
        self.tally = Some(counts);
        self
    }
}

impl RecordWorker<'_, '_> {
    /// Counts the verdict `allowed` (`None`: unknown) of the agent `i`.
    pub(super) fn count(&mut self, i: usize, allowed: Option<bool>) {
        if self.records.tally.is_some() {
            let n = match self.records.crawl {
                Some(judge) => judge.agents().len(),
                None => self.records.matchers.len(),
            };
            self.tally.resize(3 * n, 0);
            self.tally[3 * i + slot(allowed)] += 1;
        }
    }
}

impl Drop for RecordWorker<'_, '_> {
    fn drop(&mut self) {
        let Some(counts) = self.records.tally else { return };
        for (i, each) in self.tally.chunks_exact(3).enumerate() {
            for (&n, allowed) in
                each.iter().zip([Some(true), Some(false), None])
            {
                counts.add(i, allowed, n);
            }
        }
    }
}
