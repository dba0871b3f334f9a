//! The authorities a thread has located, by their raw bytes, and where
//! their URLs' verdicts come from: input in random host order locates each
//! origin once per thread, not once per URL.
//!
//! A hash table of its own rather than the standard one, for one thing the
//! standard one cannot do: say where a key's place lies before it is
//! looked up, so that a batch asks for the places of the URLs a few ahead
//! while it locates the current one. In a log with more hosts than the
//! caches hold, each look-up is otherwise a wait on memory.

use super::judge::Located;
use crate::lowlevel::prefetch::prefetch;
use smallvec::SmallVec;

/// A remembered authority: kept in the table's own place when it is short,
/// as nearly every real one is, so that finding it reads one place rather
/// than a place and then the key it points to.
pub(super) type AuthorityKey = SmallVec<[u8; 32]>;

/// The most places the table grows to: past three quarters of them in
/// use, all authorities are forgotten and remembering starts again. In a
/// log in random host order with more hosts than that, most URLs are
/// located again from their bytes, so it is sized for a couple of hundred
/// thousand hosts, at 72 bytes a place (19 MB per thread at most).
const MAX_PLACES: usize = 1 << 18;

/// The fewest places of a table that holds anything.
const MIN_PLACES: usize = 16;

/// Authorities and where they lead, by open addressing with linear
/// probing over a power-of-two number of places, at most three quarters
/// full. The hashes lie apart from the keys, eight to a cache line, so
/// that a probe past the first place rarely reads another line.
#[derive(Debug)]
pub(super) struct Remembered {
    /// Per place, the hash of its authority, or 0 where there is none (a
    /// hash is never 0, see [`Remembered::hash`]).
    hashes: Vec<u64>,
    /// Per place, its authority and where it leads.
    places: Vec<Option<(AuthorityKey, Located)>>,
    len: usize,
    state: ahash::RandomState,
}

impl Default for Remembered {
    fn default() -> Remembered {
        Remembered {
            hashes: vec![],
            places: vec![],
            len: 0,
            state: ahash::RandomState::new(),
        }
    }
}

impl Remembered {
    /// The hash of `authority` in this table (never 0).
    pub(super) fn hash(&self, authority: &[u8]) -> u64 {
        self.state.hash_one(authority) | 1
    }

    /// How many authorities are remembered.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The first place `hash` is looked for.
    fn home(&self, hash: u64) -> usize {
        // The table has a power-of-two number of places (or none).
        hash as usize & self.hashes.len().wrapping_sub(1)
    }

    /// Asks for the memory where the authority of `hash` is looked up.
    #[inline]
    pub(super) fn prefetch(&self, hash: u64) {
        if self.len > 0 {
            let home = self.home(hash);
            prefetch(&self.hashes[home..=home]);
            prefetch(&self.places[home..=home]);
        }
    }

    /// Where `authority` (whose hash is `hash`) leads, if remembered.
    #[inline]
    pub(super) fn get(&self, hash: u64, authority: &[u8]) -> Option<Located> {
        if self.len == 0 {
            return None;
        }
        let mask = self.hashes.len() - 1;
        let mut at = self.home(hash);
        loop {
            match self.hashes[at] {
                0 => return None,
                h if h == hash => match self.places[at] {
                    Some((ref key, located)) if key[..] == *authority => {
                        return Some(located)
                    }
                    _ => {}
                },
                _ => {}
            }
            at = (at + 1) & mask;
        }
    }

    /// Remembers where `authority` (whose hash is `hash`, and which is not
    /// remembered yet) leads; forgets every authority first when the table
    /// is as full as it may be.
    pub(super) fn insert(&mut self, hash: u64, authority: &[u8], to: Located) {
        if (self.len + 1) * 4 > self.hashes.len() * 3 {
            self.grow();
        }
        let mask = self.hashes.len() - 1;
        let mut at = self.home(hash);
        while self.hashes[at] != 0 {
            at = (at + 1) & mask;
        }
        self.hashes[at] = hash;
        self.places[at] = Some((AuthorityKey::from(authority), to));
        self.len += 1;
    }

    /// Doubles the places, or forgets every authority at the most.
    fn grow(&mut self) {
        let places = self.hashes.len();
        if places >= MAX_PLACES {
            self.hashes.fill(0);
            self.places.fill(None);
            self.len = 0;
            return;
        }
        let places = (places * 2).max(MIN_PLACES);
        let hashes = std::mem::replace(&mut self.hashes, vec![0; places]);
        let old = std::mem::take(&mut self.places);
        self.places.resize(places, None);
        self.len = 0;
        for (hash, place) in hashes.into_iter().zip(old) {
            if let Some((key, to)) = place {
                self.insert(hash, &key, to);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crawl::CrawlVerdict;

    fn to(fetch: usize) -> Located {
        Located::Unread { fetch }
    }

    fn fetch(located: Option<Located>) -> Option<usize> {
        match located? {
            Located::Unread { fetch } => Some(fetch),
            other => panic!("{other:?}"),
        }
    }

    /// A place, besides its hash, takes 64 bytes, as `MAX_PLACES`'s
    /// memory bound counts.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_place_takes_64_bytes() {
        let place = std::mem::size_of::<Option<(AuthorityKey, Located)>>();
        assert_eq!(place, 64);
    }

    /// Every authority remembered is found, through growth and colliding
    /// homes, with what it was given; others are not.
    #[test]
    fn authorities_are_found_as_remembered() {
        let mut table = Remembered::default();
        let name = |i: usize| format!("https://h{i}.example");
        assert_eq!(fetch(table.get(table.hash(b"x"), b"x")), None);
        table.prefetch(table.hash(b"x"));
        for i in 0..5_000 {
            let hash = table.hash(name(i).as_bytes());
            table.insert(hash, name(i).as_bytes(), to(i));
            assert_eq!(table.len(), i + 1);
        }
        assert!(table.hashes.len() * 3 >= table.len() * 4);
        for i in 0..5_000 {
            let hash = table.hash(name(i).as_bytes());
            table.prefetch(hash);
            assert_eq!(fetch(table.get(hash, name(i).as_bytes())), Some(i));
        }
        let other = name(5_000);
        let hash = table.hash(other.as_bytes());
        assert_eq!(fetch(table.get(hash, other.as_bytes())), None);
    }

    /// Two authorities given one hash (as a collision would) are told
    /// apart by their bytes, whether short or longer than a key holds in
    /// place.
    #[test]
    fn one_hash_two_authorities() {
        let mut table = Remembered::default();
        let long = "a".repeat(AuthorityKey::new().inline_size() + 8);
        for (a, b) in
            [("a.com", "b.com"), (&*format!("{long}1"), &*format!("{long}2"))]
        {
            let hash = table.hash(a.as_bytes());
            table.insert(hash, a.as_bytes(), to(1));
            table.insert(hash, b.as_bytes(), to(2));
            assert_eq!(fetch(table.get(hash, a.as_bytes())), Some(1));
            assert_eq!(fetch(table.get(hash, b.as_bytes())), Some(2));
            assert_eq!(fetch(table.get(hash, b"c.com")), None);
        }
        let same = Located::Same(CrawlVerdict::new(
            Some(true),
            crate::crawl::CrawlReason::NoRobots,
            None,
        ));
        table.insert(table.hash(b"d.com"), b"d.com", same);
        assert!(matches!(
            table.get(table.hash(b"d.com"), b"d.com"),
            Some(Located::Same(_))
        ));
    }

    /// At the most places, a full table forgets everything and starts
    /// again, within its bound.
    #[test]
    fn a_full_table_starts_again() {
        let mut table = Remembered::default();
        let most = MAX_PLACES / 4 * 3;
        let name = |i: usize| i.to_le_bytes();
        for i in 0..most {
            table.insert(table.hash(&name(i)), &name(i), to(i));
        }
        assert_eq!((table.len(), table.hashes.len()), (most, MAX_PLACES));
        table.insert(table.hash(&name(most)), &name(most), to(most));
        assert_eq!((table.len(), table.hashes.len()), (1, MAX_PLACES));
        assert_eq!(fetch(table.get(table.hash(&name(0)), &name(0))), None);
        let last = name(most);
        assert_eq!(fetch(table.get(table.hash(&last), &last)), Some(most));
    }
}
