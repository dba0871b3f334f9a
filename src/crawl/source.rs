//! The robots.txt fetches a crawl-log run knows about, keyed by origin, and
//! the readers that fill them: a directory of `<host>.txt` files, a JSON
//! Lines index, and WARC files.

use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufReader, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use super::fetch::Fetch;
use super::hash::HashMap;
use super::jsonl;
use super::origin::{host_key, origin_key, Origin};
use super::warc;
use crate::compressed::decompressed;
use crate::robots::DEFAULT_MAX_ROBOTS_BYTES;
use crate::time::Timestamp;

/// The fetches of a run: robots.txt fetches by origin (from an index or
/// WARC files) and by host (from a directory, which says nothing of scheme
/// or port), and captures of other URLs by URL, which only a redirect
/// leads to.
#[derive(Clone, Debug)]
pub struct FetchSet {
    fetches: Vec<(String, Fetch)>,
    /// Per fetch: how it was added, which says what URL was fetched.
    kinds: Vec<Kind>,
    by_origin: HashMap<Box<[u8]>, usize>,
    by_host: HashMap<Box<[u8]>, usize>,
    by_url: HashMap<Box<[u8]>, usize>,
    /// The most bytes of a body the readers keep (0: all).
    max_body: usize,
    /// Bodies the readers could not decode.
    undecodable: usize,
    /// The fetches of a directory's files, by index, whose bodies are read
    /// only when first needed (see [`FetchSet::body`]).
    unread: HashMap<usize, Unread>,
    /// The directories listed, with the names of their files.
    listed: Vec<Listed>,
    /// The fetches, by index, whose bodies lie in a buffer shared with
    /// others (see [`FetchSet::insert_shared`]).
    shared: HashMap<usize, SharedBody>,
    /// Per fetch: when it was captured, if its date says.
    times: Vec<Option<Timestamp>>,
    /// Per fetch of an origin or host with several captures: its
    /// [`Timeline`]'s index in `timelines` (else [`NO_TIMELINE`]).
    timeline: Vec<u32>,
    timelines: Vec<Timeline>,
    /// Per fetch: whether its origin's or host's URLs are judged by it
    /// when no time is given (see [`FetchSet::is_newest`]).
    newest: Vec<bool>,
    /// Dated captures of one origin or host at one instant that a later
    /// one of the input replaced.
    same_instant: usize,
}

/// [`FetchSet::timeline`] of a fetch that is its origin's only capture.
const NO_TIMELINE: u32 = u32::MAX;

/// The captures of one origin or host, by index, sorted by date (undated
/// ones first, as if in effect from the start) once
/// [`FetchSet::sort_captures`] has run; of two at one instant, only the
/// later in the input.
#[derive(Clone, Debug, Default)]
struct Timeline {
    captures: Vec<usize>,
    sorted: bool,
}

/// Which capture of an origin judges a URL fetched at some time (see
/// [`FetchSet::capture_at`]).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct Picked {
    /// The capture's index.
    pub index: usize,
    /// Whether the URL is older than every capture, and this is the
    /// earliest.
    pub before_first: bool,
}

/// A fetch's body inside a larger buffer that it shares with other
/// bodies, such as the values of an Arrow array of them: kept as the
/// buffer and a range rather than copied, so that a large table of
/// fetches handed over whole is not held twice.
#[derive(Clone)]
pub struct SharedBody {
    bytes: Arc<dyn AsRef<[u8]> + Send + Sync>,
    range: Range<usize>,
}

impl SharedBody {
    /// The bytes `range` of `bytes`; `None` when they are not all there.
    pub fn new(
        bytes: Arc<dyn AsRef<[u8]> + Send + Sync>,
        range: Range<usize>,
    ) -> Option<SharedBody> {
        let len = (*bytes).as_ref().len();
        (range.start <= range.end && range.end <= len)
            .then_some(SharedBody { bytes, range })
    }

    fn get(&self) -> &[u8] {
        &(*self.bytes).as_ref()[self.range.clone()]
    }
}

impl fmt::Debug for SharedBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SharedBody").field("range", &self.range).finish()
    }
}

/// A file of a directory, read each time its body is needed and not kept:
/// a log names only some of the hosts of a large directory, and its first
/// URLs should not wait for the others; and a run over many hosts keeps
/// their matchers, in a bounded cache, not their files.
#[derive(Clone, Debug)]
struct Unread {
    /// Its directory, an index in [`FetchSet::listed`].
    dir: usize,
    /// Its name, a range of that directory's [`Listed::names`].
    name: Range<usize>,
    /// Why the file could not be read, the first time it could not.
    error: OnceLock<String>,
}

/// A directory of robots.txt files and their names, one after another in
/// one string: a directory of 100,000 files is listed without allocating
/// a path for each.
#[derive(Clone, Debug)]
struct Listed {
    dir: PathBuf,
    names: String,
}

/// An entry of a directory that [`FetchSet::read_dir_skipping`] could not
/// use, and why.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Skipped {
    /// The entry.
    pub path: PathBuf,
    /// Why it was skipped.
    pub why: String,
}

/// What a fetch of a [`FetchSet`] is.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum Kind {
    /// The robots.txt of an origin.
    Origin,
    /// The robots.txt of a host, for every scheme and port.
    Host,
    /// Another URL, named in full: a redirect's target, perhaps.
    Url,
}

impl Default for FetchSet {
    fn default() -> FetchSet {
        FetchSet {
            fetches: vec![],
            kinds: vec![],
            by_origin: HashMap::default(),
            by_host: HashMap::default(),
            by_url: HashMap::default(),
            max_body: body_bytes_for(DEFAULT_MAX_ROBOTS_BYTES),
            undecodable: 0,
            unread: HashMap::default(),
            listed: vec![],
            shared: HashMap::default(),
            times: vec![],
            timeline: vec![],
            timelines: vec![],
            newest: vec![],
            same_instant: 0,
        }
    }
}

/// The body bytes worth keeping for a parse limit: one more than it, so
/// that the parse still knows the file went over (0: all).
fn body_bytes_for(max_robots_bytes: usize) -> usize {
    match max_robots_bytes {
        0 => 0,
        n => n.saturating_add(1),
    }
}

impl FetchSet {
    /// An empty set whose readers keep enough of each body for the default
    /// parse limit ([`DEFAULT_MAX_ROBOTS_BYTES`]).
    pub fn new() -> FetchSet {
        FetchSet::default()
    }

    /// Makes the readers ([`FetchSet::read_dir`], [`FetchSet::read_index`],
    /// [`FetchSet::read_warc`]) keep only as much of each body as a parse
    /// limit of `max_robots_bytes` uses (0: all of it), so that a huge body
    /// costs no more memory than that; the rest is read past. Give it the
    /// [`FetchPolicy::max_robots_bytes`](super::FetchPolicy) the set is
    /// judged under: the verdicts are then those of the whole bodies.
    pub fn parse_limit(&mut self, max_robots_bytes: usize) -> &mut FetchSet {
        self.max_body = body_bytes_for(max_robots_bytes);
        self
    }

    /// How many 2xx bodies of WARC responses had a `Content-Encoding` that
    /// could not be undone: their fetches count as unanswered (status 0).
    pub fn undecodable(&self) -> usize {
        self.undecodable
    }

    /// How many fetches the set holds.
    pub fn len(&self) -> usize {
        self.fetches.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.fetches.is_empty()
    }

    /// The fetch at `index` and the name it was added under (an origin, a
    /// host, or the URL of a capture of another path than `/robots.txt`).
    /// A directory's file, and a fetch added with a shared body, have an
    /// empty body here: see [`FetchSet::body`].
    pub fn get(&self, index: usize) -> Option<(&str, &Fetch)> {
        self.fetches.get(index).map(|(name, f)| (name.as_str(), f))
    }

    /// The body of the fetch at `index`: a directory's file is read from
    /// the file at each call (the set keeps no directory file's bytes);
    /// `None` when there is no such fetch or its file could not be read.
    pub fn body(&self, index: usize) -> Option<Cow<'_, [u8]>> {
        let Some(unread) = self.unread.get(&index) else {
            return self.kept_body(index).map(Cow::Borrowed);
        };
        let listed = &self.listed[unread.dir];
        let path = listed.dir.join(&listed.names[unread.name.clone()]);
        match read_body(&path, self.max_body) {
            Ok(body) => Some(Cow::Owned(body)),
            Err(e) => {
                let why = format!("{}: cannot read: {e}", path.display());
                let _ = unread.error.set(why);
                None
            }
        }
    }

    /// The body the set holds for the fetch at `index` (its own or a
    /// shared one): empty for a directory's file, which it does not hold.
    pub(crate) fn kept_body(&self, index: usize) -> Option<&[u8]> {
        match self.shared.get(&index) {
            Some(shared) => Some(shared.get()),
            None => self.fetches.get(index).map(|(_, f)| &f.body[..]),
        }
    }

    /// The bytes of the bodies the set holds (a directory's files, read
    /// when needed, count for nothing).
    pub fn body_bytes(&self) -> usize {
        (0..self.len())
            .filter_map(|i| self.kept_body(i))
            .map(<[u8]>::len)
            .sum()
    }

    /// Whether the fetch at `index` is a directory's file whose body is
    /// read only when first needed.
    pub(crate) fn is_unread(&self, index: usize) -> bool {
        self.unread.contains_key(&index)
    }

    /// The directory files that could not be read when their bodies were
    /// needed, each with why; their origins count as having no fetch (a
    /// file that could be read once and not later, removed during the run,
    /// is judged as empty from then on).
    pub fn unreadable(&self) -> Vec<&str> {
        let mut errors: Vec<&str> = self
            .unread
            .values()
            .filter_map(|u| u.error.get().map(String::as_str))
            .collect();
        errors.sort_unstable();
        errors
    }

    /// Adds the fetch of `origin`'s robots.txt. If the origin already has
    /// one, the later fetch by date is kept; without dates, the one added
    /// last.
    pub fn insert(&mut self, origin: &Origin, fetch: Fetch) {
        self.add_origin(origin, fetch);
    }

    /// [`FetchSet::insert`] with the body `body` instead of `fetch.body`
    /// (which is dropped), kept where it lies rather than copied.
    pub fn insert_shared(
        &mut self,
        origin: &Origin,
        fetch: Fetch,
        body: SharedBody,
    ) {
        let fetch = Fetch { body: vec![], ..fetch };
        if let Some(i) = self.add_origin(origin, fetch) {
            self.shared.insert(i, body);
        }
    }

    /// [`FetchSet::insert`], returning the fetch's index if it was added
    /// or replaced one.
    fn add_origin(&mut self, origin: &Origin, fetch: Fetch) -> Option<usize> {
        let name = origin.to_string();
        self.add(Kind::Origin, origin.key(), name, fetch)
    }

    /// Adds the robots.txt of `host` for every scheme and port. A fetch by
    /// origin, when there is one, takes precedence. The host is normalised
    /// as a URL's is (see [`Origin`]), so `Bücher.de` is `xn--bcher-kva.de`;
    /// one that is no valid host is kept in lower case and matches no URL.
    pub fn insert_host(&mut self, host: &str, fetch: Fetch) {
        self.add_host(host, fetch);
    }

    /// [`FetchSet::insert_host`], returning the fetch's index if it was
    /// added or replaced one.
    fn add_host(&mut self, host: &str, fetch: Fetch) -> Option<usize> {
        let key = host_key(host.as_bytes())
            .unwrap_or_else(|| host.to_ascii_lowercase().into_bytes());
        let name = String::from_utf8_lossy(&key).into_owned();
        self.add(Kind::Host, key, name, fetch)
    }

    /// Adds the fetch of `url`: the robots.txt of its origin when its path
    /// is `/robots.txt` (without a query), as [`FetchSet::insert`] does;
    /// else a capture of another URL, which is no origin's robots.txt and
    /// counts only where a redirect from a robots.txt leads to it (of two
    /// captures of one URL, the later one is kept). Returns `false`, adding
    /// nothing, when `url` is not an absolute http(s) URL with a host.
    pub fn insert_url(&mut self, url: &str, fetch: Fetch) -> bool {
        self.add_url(url, fetch).is_some()
    }

    /// [`FetchSet::insert_url`] with the body `body` instead of
    /// `fetch.body` (which is dropped), kept where it lies rather than
    /// copied.
    pub fn insert_url_shared(
        &mut self,
        url: &str,
        fetch: Fetch,
        body: SharedBody,
    ) -> bool {
        let fetch = Fetch { body: vec![], ..fetch };
        match self.add_url(url, fetch) {
            None => false,
            Some(added) => {
                if let Some(i) = added {
                    self.shared.insert(i, body);
                }
                true
            }
        }
    }

    /// [`FetchSet::insert_url`]: `None` when `url` is no absolute http(s)
    /// URL with a host, else the fetch's index if it was added or replaced
    /// one.
    fn add_url(&mut self, url: &str, fetch: Fetch) -> Option<Option<usize>> {
        let mut key = vec![];
        let parts = origin_key(url.as_bytes(), &mut key)?;
        let rest = path_and_query(&url[parts.authority_end()..]);
        let origin = Origin::of_url(url.as_bytes())?;
        if rest == "/robots.txt" {
            return Some(self.add_origin(&origin, fetch));
        }
        key.extend_from_slice(rest.as_bytes());
        Some(self.add(Kind::Url, key, format!("{origin}{rest}"), fetch))
    }

    /// Adds `fetch` under `key`; returns its index if it was added or
    /// replaced one. An origin's or host's captures are all kept, the
    /// newest one found first (of two undated ones, or two at one
    /// instant, the later in the input); a capture of another URL replaces
    /// an older one.
    fn add(
        &mut self,
        kind: Kind,
        key: Vec<u8>,
        name: String,
        fetch: Fetch,
    ) -> Option<usize> {
        let time = fetch.date.as_deref().and_then(Timestamp::parse);
        let map = match kind {
            Kind::Origin => &mut self.by_origin,
            Kind::Host => &mut self.by_host,
            Kind::Url => &mut self.by_url,
        };
        match map.entry(key.into_boxed_slice()) {
            Entry::Occupied(mut slot) => {
                let i = *slot.get();
                let newer = match (self.times[i], time) {
                    (Some(a), Some(b)) => b >= a,
                    _ => true,
                };
                if kind == Kind::Url {
                    if !newer {
                        return None;
                    }
                    self.fetches[i] = (name, fetch);
                    self.times[i] = time;
                    self.unread.remove(&i);
                    self.shared.remove(&i);
                    return Some(i);
                }
                let added = self.fetches.len();
                if newer {
                    slot.insert(added);
                }
                // Most captures of a site are the same bytes as the one
                // before: they share one buffer rather than each hold a
                // copy (a directory's file is not held at all).
                let same = !fetch.body.is_empty()
                    && !self.unread.contains_key(&i)
                    && self.kept_body(i) == Some(&fetch.body[..]);
                self.push(kind, name, fetch, time);
                if same {
                    self.share_body(i, added);
                }
                match newer {
                    true => self.newest[i] = false,
                    false => self.newest[added] = false,
                }
                let t = match self.timeline[i] {
                    NO_TIMELINE => {
                        self.timelines.push(Timeline {
                            captures: vec![i],
                            sorted: false,
                        });
                        let t = self.timelines.len() - 1;
                        self.timeline[i] = t as u32;
                        t
                    }
                    t => t as usize,
                };
                self.timelines[t].captures.push(added);
                self.timelines[t].sorted = false;
                self.timeline[added] = t as u32;
                Some(added)
            }
            Entry::Vacant(slot) => {
                slot.insert(self.fetches.len());
                self.push(kind, name, fetch, time);
                Some(self.fetches.len() - 1)
            }
        }
    }

    /// Makes the fetch at `to`, whose body is the same as that of the
    /// fetch at `from`, hold that body rather than its own copy: the two
    /// share one buffer.
    fn share_body(&mut self, from: usize, to: usize) {
        let body = match self.shared.get(&from) {
            Some(body) => body.clone(),
            None => {
                let bytes = std::mem::take(&mut self.fetches[from].1.body);
                let range = 0..bytes.len();
                let body = SharedBody { bytes: Arc::new(bytes), range };
                self.shared.insert(from, body.clone());
                body
            }
        };
        self.fetches[to].1.body = vec![];
        self.shared.insert(to, body);
    }

    fn push(
        &mut self,
        kind: Kind,
        name: String,
        fetch: Fetch,
        time: Option<Timestamp>,
    ) {
        self.fetches.push((name, fetch));
        self.kinds.push(kind);
        self.times.push(time);
        self.timeline.push(NO_TIMELINE);
        self.newest.push(true);
    }

    /// Sorts every origin's captures by date, keeping of two at one
    /// instant the later in the input; [`FetchSet::same_instant`] counts
    /// the others. Judges sort the set they are given.
    pub(crate) fn sort_captures(&mut self) {
        let times = &self.times;
        for timeline in &mut self.timelines {
            if timeline.sorted {
                continue;
            }
            let captures = &mut timeline.captures;
            // Indexes grow with the input: by (date, index), the later of
            // two at one instant comes last, and is the one kept.
            captures.sort_unstable_by_key(|&i| (times[i], i));
            let before = captures.len();
            let mut kept: Vec<usize> = Vec::with_capacity(before);
            for &i in captures.iter() {
                match kept.last_mut() {
                    Some(last) if times[*last] == times[i] => {
                        *last = i;
                        self.same_instant += usize::from(times[i].is_some());
                    }
                    _ => kept.push(i),
                }
            }
            *captures = kept;
            timeline.sorted = true;
        }
    }

    /// How many dated captures of an origin or host came at the instant of
    /// a later one of the input, which replaced them (counted once a judge
    /// has sorted the captures).
    pub fn same_instant(&self) -> usize {
        self.same_instant
    }

    /// When the fetch at `index` was captured, if its date says.
    pub fn time(&self, index: usize) -> Option<Timestamp> {
        self.times.get(index).copied().flatten()
    }

    /// Whether the fetch at `index` is the one its origin's or host's URLs
    /// are judged by without a time: the newest of its captures.
    pub fn is_newest(&self, index: usize) -> bool {
        self.newest.get(index).copied().unwrap_or(false)
    }

    /// The captures of the origin or host of the fetch at `index`, oldest
    /// first (only it when it is the only one), once sorted.
    pub fn captures_of(
        &self,
        index: usize,
    ) -> impl Iterator<Item = usize> + '_ {
        let (many, one): (&[usize], _) = match self.timeline.get(index) {
            None => (&[], None),
            Some(&NO_TIMELINE) => (&[], Some(index)),
            Some(&t) => (&self.timelines[t as usize].captures, None),
        };
        many.iter().copied().chain(one)
    }

    /// The capture of the origin or host of `entry` nearest in time to
    /// `at` (of two as near, the later): where a redirect of a capture
    /// made at `at` led, since it was followed at about that time.
    pub(crate) fn capture_near(&self, entry: usize, at: Timestamp) -> usize {
        let t = match self.timeline[entry] {
            NO_TIMELINE => return entry,
            t => t as usize,
        };
        let captures = &self.timelines[t].captures;
        let n = captures
            .partition_point(|&i| self.times[i].is_none_or(|t| t <= at));
        let distance = |i: usize| {
            self.times[i]
                .map_or(u64::MAX, |t| t.seconds().abs_diff(at.seconds()))
        };
        match (n.checked_sub(1).map(|b| captures[b]), captures.get(n)) {
            (Some(before), Some(&after))
                if distance(after) <= distance(before) =>
            {
                after
            }
            (Some(before), _) => before,
            (None, after) => after.copied().unwrap_or(entry),
        }
    }

    /// The capture of the origin or host of `entry` (its newest fetch)
    /// that judges a URL fetched at `at`: the newest at or before it, or
    /// the earliest when every one is later. Undated captures count as in
    /// effect from the start.
    pub fn capture_at(&self, entry: usize, at: Timestamp) -> Picked {
        let after = |i: usize| self.times[i].is_some_and(|t| t > at);
        match self.timeline[entry] {
            NO_TIMELINE => Picked { index: entry, before_first: after(entry) },
            t => {
                let captures = &self.timelines[t as usize].captures;
                let n = captures.partition_point(|&i| !after(i));
                match n {
                    0 => Picked { index: captures[0], before_first: true },
                    n => {
                        Picked { index: captures[n - 1], before_first: false }
                    }
                }
            }
        }
    }

    /// The index of the robots.txt fetch for an origin key
    /// (`scheme://host:port`) or, failing that, for its host.
    pub(crate) fn find(&self, key: &[u8], host: &[u8]) -> Option<usize> {
        self.by_origin.get(key).or_else(|| self.by_host.get(host)).copied()
    }

    /// Whether the fetch at `index` is a capture of another URL than a
    /// robots.txt.
    pub(crate) fn is_capture(&self, index: usize) -> bool {
        self.kinds.get(index) == Some(&Kind::Url)
    }

    /// Frees the body of the fetch at `index`, which is of no use.
    pub(crate) fn drop_body(&mut self, index: usize) {
        if let Some((_, f)) = self.fetches.get_mut(index) {
            f.body = vec![];
        }
        self.unread.remove(&index);
        self.shared.remove(&index);
    }

    /// The URL fetched at `index`, against which its `Location` resolves:
    /// the robots.txt of its origin or host, or the URL captured.
    pub(crate) fn url(&self, index: usize) -> String {
        match (self.fetches.get(index), self.kinds.get(index)) {
            (Some((name, _)), Some(Kind::Origin)) => {
                format!("{name}/robots.txt")
            }
            (Some((host, _)), Some(Kind::Host)) => {
                format!("http://{host}/robots.txt")
            }
            (Some((url, _)), _) => url.clone(),
            (None, _) => String::new(),
        }
    }

    /// The index of the fetch of `url` (absolute, without white space
    /// around it), using `key` as a buffer: the robots.txt of its origin
    /// (or host) if that is what it names, else a capture of it.
    pub(crate) fn find_url(
        &self,
        url: &str,
        key: &mut Vec<u8>,
    ) -> Option<usize> {
        let parts = origin_key(url.as_bytes(), key)?;
        let rest = path_and_query(&url[parts.authority_end()..]);
        if rest == "/robots.txt" {
            return self.find(key, parts.host(key));
        }
        key.extend_from_slice(rest.as_bytes());
        self.by_url.get(key.as_slice()).copied()
    }

    /// Takes every `<host>.txt` file of `dir` as the robots.txt of
    /// `<host>`, fetched with status 200. Other files are ignored. Returns
    /// how many were found.
    ///
    /// Only the directory is listed now: each file is read when its body
    /// is first needed ([`FetchSet::body`]), so a log that names a few of
    /// a large directory's hosts reads only theirs. A file that cannot be
    /// read then counts as no fetch (see [`FetchSet::unreadable`]).
    pub fn read_dir(&mut self, dir: &Path) -> io::Result<usize> {
        self.read_dir_inner(dir, None, None)
    }

    /// [`FetchSet::read_dir`] that reports what it passes over: every
    /// entry of `dir` that is not a `<host>.txt` file (a name that is not
    /// UTF-8, a directory, another file, an entry that cannot be listed)
    /// is added to `skipped` instead. Only a directory that cannot be
    /// opened is an error; a file that cannot be read is found when its
    /// body is needed, as with [`FetchSet::read_dir`].
    pub fn read_dir_skipping(
        &mut self,
        dir: &Path,
        skipped: &mut Vec<Skipped>,
    ) -> io::Result<usize> {
        self.read_dir_inner(dir, None, Some(skipped))
    }

    /// [`FetchSet::read_dir_skipping`] for a directory of captures made
    /// at `date`: each file is a capture of its host's robots.txt dated
    /// `date`, beside the host's other captures (see
    /// [`FetchSet::capture_at`]).
    pub fn read_dated_dir(
        &mut self,
        dir: &Path,
        date: Timestamp,
        skipped: &mut Vec<Skipped>,
    ) -> io::Result<usize> {
        self.read_dir_inner(dir, Some(date), Some(skipped))
    }

    fn read_dir_inner(
        &mut self,
        dir: &Path,
        date: Option<Timestamp>,
        mut skipped: Option<&mut Vec<Skipped>>,
    ) -> io::Result<usize> {
        let lenient = skipped.is_some();
        let mut skip = |path: PathBuf, why| {
            if let Some(ref mut s) = skipped {
                s.push(Skipped { path, why });
            }
        };
        let entries = fs::read_dir(dir)
            .map_err(|e| with_path(e, dir, "cannot read the directory"))?;
        // The files' names, each a range of `names`.
        let mut names = String::new();
        let mut files = vec![];
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) if lenient => {
                    skip(dir.to_path_buf(), format!("cannot list: {e}"));
                    continue;
                }
                Err(e) => return Err(with_path(e, dir, "cannot list")),
            };
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                skip(entry.path(), "the name is not UTF-8".to_string());
                continue;
            };
            let is_host = name.len() > ".txt".len() && name.ends_with(".txt");
            // The entry's type costs no system call where the file system
            // gives it; only a link must be followed.
            let is_file = match entry.file_type() {
                Ok(t) if !t.is_symlink() => t.is_file(),
                _ => entry.path().is_file(),
            };
            match (is_host, is_file) {
                (true, true) => {
                    let start = names.len();
                    names.push_str(name);
                    files.push(start..names.len());
                }
                (true, false) => skip(entry.path(), "not a file".to_string()),
                (false, _) => {
                    skip(entry.path(), "not a <host>.txt file".to_string())
                }
            }
        }
        let n = files.len();
        // Room for every file at once: grown one insert at a time, the
        // tables would be rebuilt and the lists copied as they grow.
        self.fetches.reserve(n);
        self.kinds.reserve(n);
        self.by_host.reserve(n);
        self.unread.reserve(n);
        let d = self.listed.len();
        for name in files {
            let host = &names[name.start..name.end - ".txt".len()];
            let date = date.map(|d| d.to_string());
            let fetch = Fetch { status: 200, date, ..Fetch::default() };
            if let Some(i) = self.add_host(host, fetch) {
                let error = OnceLock::new();
                self.unread.insert(i, Unread { dir: d, name, error });
            }
        }
        self.listed.push(Listed { dir: dir.to_path_buf(), names });
        Ok(n)
    }

    /// Reads a JSON Lines index of fetches, gzip- or zstd-compressed or
    /// not (told by its first bytes): one object per line with `url` (of the
    /// robots.txt), `status` (0 or absent: unreachable), `body` or
    /// `body_base64`, and `location` for redirects. Empty lines are
    /// skipped. Returns how many fetches were read.
    pub fn read_index(&mut self, path: &Path) -> io::Result<usize> {
        let file =
            File::open(path).map_err(|e| with_path(e, path, "cannot open"))?;
        self.read_index_from(file, path)
    }

    /// [`FetchSet::read_index`] from any reader (standard input, say),
    /// named `path` in errors.
    pub fn read_index_from<R: Read>(
        &mut self,
        rdr: R,
        path: &Path,
    ) -> io::Result<usize> {
        let rdr = decompressed(rdr)
            .map_err(|e| with_path(e, path, "cannot read"))?;
        let mut n = 0;
        let mut index = jsonl::Index::new(BufReader::new(rdr), self.max_body);
        while let Some((number, line)) =
            index.next_line().map_err(|e| with_path(e, path, "cannot read"))?
        {
            match line {
                jsonl::Line::Fetch(url, fetch) => {
                    if !self.insert_url(&url, fetch) {
                        let msg =
                            format!("\"url\" {url:?} is not an http(s) URL");
                        return Err(invalid(format!(
                            "{}:{number}: {msg}",
                            path.display()
                        )));
                    }
                }
                jsonl::Line::Bad(msg) => {
                    return Err(invalid(format!(
                        "{}:{number}: {msg}",
                        path.display()
                    )));
                }
            }
            n += 1;
        }
        Ok(n)
    }

    /// Reads the response records of a WARC file (`.warc`, gzip with one
    /// member per record or for the whole file, or zstd): the origin comes
    /// from `WARC-Target-URI`, status and `Location` from the HTTP header.
    /// Returns how many fetches were read.
    pub fn read_warc(&mut self, path: &Path) -> io::Result<usize> {
        let rdr = open_decompressed(path)?;
        let mut n = 0;
        let mut records =
            warc::WarcRecords::new(BufReader::new(rdr), self.max_body);
        while let Some(rec) = records
            .next_record()
            .map_err(|e| invalid(format!("{}: {e}", path.display())))?
        {
            let Some((url, fetch)) = rec else { continue };
            self.insert_url(&url, fetch);
            n += 1;
        }
        self.undecodable += records.undecodable();
        Ok(n)
    }
}

/// Bodies up to this many bytes are read without asking for the file's
/// length first.
const SMALL_BODY: usize = 8 * 1024;

/// The first `max_body` bytes of the file at `path` (0: all of it).
fn read_body(path: &Path, max_body: usize) -> io::Result<Vec<u8>> {
    let limit = if max_body == 0 { usize::MAX } else { max_body };
    let mut file = File::open(path)?;
    // Most robots.txt files are small: one read into room for a small body
    // and one that finds the end take them whole, where asking for the
    // length to size the body would be one system call more. (The room
    // left over goes with the body: at most 8 KiB, for as long as the
    // caller keeps it; crawl mode parses it and drops it.)
    let small = SMALL_BODY.min(limit);
    let mut body = Vec::with_capacity(small);
    (&mut file).take(small as u64).read_to_end(&mut body)?;
    if body.len() < small || body.len() == limit {
        return Ok(body);
    }
    // A larger file is read whole, its body sized from its length.
    let size = file.metadata().map_or(0, |m| m.len());
    let size = usize::try_from(size).unwrap_or(0).min(limit);
    body.reserve(size.saturating_sub(body.len()));
    let rest = (limit - body.len()) as u64;
    file.take(rest).read_to_end(&mut body)?;
    Ok(body)
}

/// The path and query of a URL after its authority, without the fragment:
/// `/` for an empty path.
fn path_and_query(rest: &str) -> std::borrow::Cow<'_, str> {
    let rest = rest.find('#').map_or(rest, |i| &rest[..i]);
    if rest.starts_with('/') {
        rest.into()
    } else {
        format!("/{rest}").into()
    }
}

/// Opens `path`, decompressing it on the fly when it starts with gzip's
/// magic bytes (any number of members) or zstd's.
fn open_decompressed(path: &Path) -> io::Result<Box<dyn Read>> {
    let file =
        File::open(path).map_err(|e| with_path(e, path, "cannot open"))?;
    decompressed(file).map_err(|e| with_path(e, path, "cannot read"))
}

fn with_path(err: io::Error, path: &Path, what: &str) -> io::Error {
    io::Error::new(err.kind(), format!("{}: {what}: {err}", path.display()))
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}
