/*!
Batches of URL lines: chunks, threads and order.

A [`Batch`] cuts its input into chunks at line boundaries, gives the chunks
to a dedicated pool of worker threads, and hands what the workers rendered
back to a caller-supplied [`Sink`] one chunk at a time, **in input order**.
Each worker owns its [`Scratch`](crate::Scratch) (one per matcher) and its [`Render`]er for
the whole run, so that no verdict and no line allocates.

The library never decides the output format: a [`Render`] turns each line
and its verdicts into bytes (see [`CsvRender`](crate::CsvRender) for the
CSV that the command prints), and a [`Sink`] receives the rendered bytes.

# Lines

A line is everything up to a `\n`, without the `\n`; a `\r` just before the
`\n` is not part of it either (a `\r` that ends an input without a final
`\n` is: only CRLF line ends lose it). The last line of the input may lack its
`\n`; an input that ends with `\n` has no extra empty line after it, and an
empty input has no lines at all. Empty lines are lines: every line gets a
verdict, in input order.

# Memory

At most a bounded number of chunks is in flight at any time (read but not
yet handed to the sink), so memory use does not grow with the input: about
[`BatchBuilder::chunk_size`] times twice the number of chunks in flight,
plus whatever a single line longer than a chunk needs. Streams are read in
blocks; regular files may be memory-mapped (see [`MmapChoice`]).

# Example

```
use robots_batch::{
    BatchBuilder, CsvRender, Dialect, Lines, Matcher, MatcherWorker, Robots,
};

let robots = Robots::parse(b"User-agent: *\nDisallow: /private/\n");
let matchers = [Matcher::new(&robots, "ExampleBot", Dialect::Rfc9309)];
let batch = BatchBuilder::new().threads(2).build()?;
let mut out = vec![];
let stats = batch.run(
    Lines::Slice(b"https://example.com/\nhttps://example.com/private/x\n"),
    || MatcherWorker::new(&matchers, CsvRender::new()),
    |rendered: &[u8], _: &robots_batch::Stats| {
        out.extend_from_slice(rendered);
        Ok(())
    },
)?;
assert_eq!(
    out,
    b"https://example.com/,allowed\nhttps://example.com/private/x,disallowed\n",
);
assert_eq!((stats.lines(), stats.allowed(), stats.disallowed()), (2, 1, 1));
# Ok::<(), Box<dyn std::error::Error>>(())
```
*/

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

mod chunks;
mod render;
mod stats;
mod worker;

pub use self::chunks::MAX_LINE_BYTES;
#[cfg(test)]
pub(crate) use self::render::for_each_line;
pub use self::render::{ChunkWorker, PlainLine, Render, Sink};
pub use self::stats::Stats;
pub use self::worker::MatcherWorker;

pub(crate) use self::chunks::{Chunk, Chunks};
use self::chunks::{ReadChunks, SliceChunks};

/// The default budget of input bytes in flight: 8 MiB (see
/// [`BatchBuilder::in_flight_bytes`]). With the default chunk size, chunks
/// shrink (down to 64 KiB) and, past that, fewer chunks are in flight
/// (down to one more than the threads), so that no more than this is.
/// With the rendered output of those chunks and the buffers kept for
/// reuse, a run on a stream stays well under 64 MiB of resident memory.
const MAX_IN_FLIGHT_BYTES: usize = 8 << 20;

/// The default chunk is at most this fraction of the budget in flight:
/// 1 MiB of the default 8 MiB.
const BUDGET_PER_CHUNK: usize = 8;

/// The most worker threads a batch starts: 1,024. Far more than any machine
/// has cores, and few enough that their stacks and the chunks in flight
/// (one more than the threads) stay within memory; a larger number is an
/// error from [`BatchBuilder::build`], not a failure to spawn threads.
pub const MAX_THREADS: usize = 1024;

/// The smallest chunk the default chunk size shrinks to: a few thousand
/// URLs, enough to make the cost of a task and a write negligible.
const MIN_DEFAULT_CHUNK_SIZE: usize = 64 << 10;

/// The smallest chunk a short file is cut into (see
/// [`BatchBuilder::file_chunks`]): a few thousand URLs, so that a crawl
/// log's origins keep some of their URLs together in each chunk.
const MIN_FILE_CHUNK_SIZE: usize = 256 << 10;

/// How many chunks per worker thread may be in flight. More than one keeps
/// the workers busy while the sink writes and the reader reads; a few are
/// enough to absorb chunks that take longer than their neighbours.
const CHUNKS_PER_THREAD: usize = 4;

/// Whether regular files are memory-mapped.
///
/// The default is never: mapping a file is only sound when nothing
/// truncates it while it is mapped (see [`MmapChoice::auto`]). Whatever the
/// choice, streams, directories, empty files and files that fail to map are
/// read with ordinary reads.
#[derive(Clone, Debug, Default)]
pub struct MmapChoice(MmapChoiceImpl);

#[derive(Clone, Debug, Default)]
enum MmapChoiceImpl {
    Auto,
    #[default]
    Never,
}

impl MmapChoice {
    /// Memory-map regular files when the platform allows it; fall back to
    /// reads when mapping fails.
    ///
    /// # Safety
    ///
    /// A memory map's contents can change, or vanish, while it is in use:
    /// if another process truncates a mapped file, reading the missing pages
    /// raises `SIGBUS` and kills this process; if it rewrites the file, the
    /// verdicts may be computed from a mix of old and new lines. The caller
    /// must ensure that files given to [`Batch::run`] are not modified
    /// while they are read, or accept those outcomes (as command-line tools
    /// such as ripgrep do).
    pub unsafe fn auto() -> MmapChoice {
        MmapChoice(MmapChoiceImpl::Auto)
    }

    /// Never memory-map: always read. The default.
    pub fn never() -> MmapChoice {
        MmapChoice(MmapChoiceImpl::Never)
    }

    /// True when files may be memory-mapped.
    pub fn is_enabled(&self) -> bool {
        matches!(self.0, MmapChoiceImpl::Auto)
    }

    /// Maps `file` when this choice allows it and `file` is a non-empty
    /// regular file; `None` means "read it instead".
    fn open(&self, file: &File) -> Option<memmap2::Mmap> {
        if !self.is_enabled() {
            return None;
        }
        // N.B. Mapping is skipped on macOS, where ripgrep measured it to be
        // slower than reading; nobody has measured it for robots-batch.
        if cfg!(target_os = "macos") {
            log::debug!("not memory-mapping on macOS");
            return None;
        }
        let md = match file.metadata() {
            Ok(md) => md,
            Err(err) => {
                log::debug!("no metadata ({err}); reading instead of mapping");
                return None;
            }
        };
        if !md.is_file() {
            log::debug!("not a regular file; reading instead of mapping");
            return None;
        }
        // An empty file cannot be mapped (mmap rejects a length of 0), and
        // there is nothing to map anyway.
        if md.len() == 0 {
            return None;
        }
        // SAFETY: the caller opted in with `MmapChoice::auto`, whose contract
        // is that the file is not truncated or modified while mapped (a
        // truncation would raise SIGBUS on access to the lost pages).
        match unsafe { memmap2::Mmap::map(file) } {
            Ok(mmap) => {
                #[cfg(unix)]
                if let Err(err) = mmap.advise(memmap2::Advice::Sequential) {
                    log::debug!("madvise(SEQUENTIAL) failed: {err}");
                }
                log::debug!("memory-mapped {} bytes", mmap.len());
                Some(mmap)
            }
            Err(err) => {
                log::debug!("mmap failed ({err}); reading instead");
                None
            }
        }
    }
}

/// Builds a [`Batch`].
#[derive(Clone, Debug)]
pub struct BatchBuilder {
    config: Config,
}

#[derive(Clone, Debug)]
struct Config {
    threads: usize,
    chunk_size: Option<usize>,
    in_flight_bytes: usize,
    file_chunks: usize,
    mmap: MmapChoice,
}

impl Default for BatchBuilder {
    fn default() -> BatchBuilder {
        BatchBuilder::new()
    }
}

impl BatchBuilder {
    /// A builder with the defaults: all available cores, the default chunk
    /// size, no memory maps.
    pub fn new() -> BatchBuilder {
        BatchBuilder {
            config: Config {
                threads: 0,
                chunk_size: None,
                in_flight_bytes: MAX_IN_FLIGHT_BYTES,
                file_chunks: 0,
                mmap: MmapChoice::never(),
            },
        }
    }

    /// The number of worker threads (default 0: one per available core, as
    /// `std::thread::available_parallelism` counts them). The calling
    /// thread reads the input and runs the sink besides. Any number gives
    /// the same output; more than [`MAX_THREADS`] makes `build` fail.
    pub fn threads(&mut self, n: usize) -> &mut BatchBuilder {
        self.config.threads = n;
        self
    }

    /// The size in bytes at which the input is cut into chunks (each chunk
    /// is cut at the first line end at or after that size). The default is
    /// an eighth of the budget in flight (1 MiB of the default 8 MiB, see
    /// [`BatchBuilder::in_flight_bytes`]), shrunk to as little as 64 KiB
    /// when there are so many threads that more than the budget would be
    /// in flight. Small chunks cost overhead per chunk (a task, a channel
    /// message, a write); large ones cost memory. 0 is read as 1, and more
    /// than [`MAX_LINE_BYTES`] as that.
    pub fn chunk_size(&mut self, bytes: usize) -> &mut BatchBuilder {
        self.config.chunk_size = Some(bytes.clamp(1, MAX_LINE_BYTES));
        self
    }

    /// The budget of input bytes read but not yet written (default 8 MiB;
    /// at least 1): chunks are read ahead while those in flight hold less,
    /// and always up to one more chunk than threads. The default chunk
    /// size is an eighth of it, shrunk (down to 64 KiB) so that each
    /// thread has four chunks in flight. Crawl mode judges a chunk's URLs
    /// grouped by origin, so it gains from larger chunks than the default
    /// command does.
    pub fn in_flight_bytes(&mut self, bytes: usize) -> &mut BatchBuilder {
        self.config.in_flight_bytes = bytes.max(1);
        self
    }

    /// Cuts a regular file given to [`Batch::run`] into at least `n`
    /// chunks for each worker thread (none under 256 KiB) where the chunk
    /// size would make fewer; default 0, the chunk size whatever the
    /// file's length; ignored when [`BatchBuilder::chunk_size`] is set.
    /// The chunk size is chosen for long inputs, and a file shorter than
    /// a chunk for each thread would leave threads idle: one of less than
    /// a chunk would run on one thread whatever their number.
    pub fn file_chunks(&mut self, n: usize) -> &mut BatchBuilder {
        self.config.file_chunks = n;
        self
    }

    /// Whether regular files given to [`Batch::run`] are memory-mapped
    /// (default [`MmapChoice::never`]).
    pub fn memory_map(&mut self, choice: MmapChoice) -> &mut BatchBuilder {
        self.config.mmap = choice;
        self
    }

    /// Starts the worker threads. Fails only when the operating system
    /// refuses to start them.
    pub fn build(&self) -> io::Result<Batch> {
        let threads = match self.config.threads {
            0 => std::thread::available_parallelism()
                .map_or(1, |n| n.get().min(MAX_THREADS)),
            n if n > MAX_THREADS => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "{n} worker threads asked for; at most {MAX_THREADS}"
                    ),
                ))
            }
            n => n,
        };
        let per_thread = threads.saturating_mul(CHUNKS_PER_THREAD);
        let budget = self.config.in_flight_bytes;
        let chunk_size = self.config.chunk_size.unwrap_or_else(|| {
            let most = (budget / BUDGET_PER_CHUNK).max(MIN_DEFAULT_CHUNK_SIZE);
            (budget / per_thread).clamp(MIN_DEFAULT_CHUNK_SIZE, most)
        });
        // Fewer chunks in flight when they would hold more than the budget
        // (many threads, so chunks at their smallest), but always more
        // chunks than threads, so that no worker waits for the writer.
        let in_flight = per_thread
            .min((budget / chunk_size).max(threads.saturating_add(1)));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("robots-batch-{i}"))
            .build()
            .map_err(io::Error::other)?;
        log::debug!(
            "{threads} worker threads, chunks of {chunk_size} bytes, \
             at most {in_flight} in flight"
        );
        Ok(Batch {
            pool,
            threads,
            chunk_size,
            in_flight,
            file_chunks: match self.config.chunk_size {
                Some(_) => 0,
                None => self.config.file_chunks,
            },
            mmap: self.config.mmap.clone(),
        })
    }
}

/// The input of a [`Batch::run`]: where its lines come from.
pub enum Lines<'a> {
    /// A file: memory-mapped when the batch's [`MmapChoice`] allows it
    /// and the file is a non-empty regular file, read otherwise.
    File(&'a File),
    /// A stream, read in blocks of about the chunk size.
    Reader(Box<dyn Read + 'a>),
    /// Bytes already in memory.
    Slice(&'a [u8]),
}

impl std::fmt::Debug for Lines<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lines::File(file) => f.debug_tuple("File").field(file).finish(),
            Lines::Reader(_) => f.write_str("Reader(..)"),
            Lines::Slice(s) => write!(f, "Slice({} bytes)", s.len()),
        }
    }
}

/// Evaluates URL lines in parallel and hands the rendered output over in
/// input order. Build one with [`BatchBuilder`]; a `Batch` can run any
/// number of inputs, one at a time.
#[derive(Debug)]
pub struct Batch {
    pool: rayon::ThreadPool,
    threads: usize,
    chunk_size: usize,
    in_flight: usize,
    /// See [`BatchBuilder::file_chunks`]; 0 when the chunk size was set.
    file_chunks: usize,
    mmap: MmapChoice,
}

impl Batch {
    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The chunk size in bytes.
    pub fn chunk_size(&self) -> usize {
        self.chunk_size
    }

    /// The chunk size for an input of `len` bytes, when that is known
    /// (see [`BatchBuilder::file_chunks`]).
    pub(crate) fn chunk_size_of(&self, len: Option<u64>) -> usize {
        let Some(len) = len.filter(|_| self.file_chunks > 0) else {
            return self.chunk_size;
        };
        let bytes = usize::try_from(len).unwrap_or(usize::MAX);
        let chunks = self.file_chunks.saturating_mul(self.threads);
        let short = (bytes / chunks).max(MIN_FILE_CHUNK_SIZE);
        let chunk_size = self.chunk_size.min(short);
        if chunk_size != self.chunk_size {
            log::debug!("{len} bytes: chunks of {chunk_size} bytes");
        }
        chunk_size
    }

    /// Runs `f` on the batch's threads: rayon's parallel iterators in `f`
    /// use them (and no others), as for preparing what the workers need.
    pub fn install<T: Send>(&self, f: impl FnOnce() -> T + Send) -> T {
        self.pool.install(f)
    }

    /// Runs every line of `lines`: `new_worker` makes one [`ChunkWorker`]
    /// per worker thread (a [`MatcherWorker`] for matchers and a
    /// [`Render`], a [`CrawlWorker`](crate::crawl::CrawlWorker) for a crawl
    /// log), and `sink` receives the rendered chunks in input order.
    /// Returns the counts of the whole input, or the first error of
    /// reading, rendering or the sink.
    pub fn run<W, F, S>(
        &self,
        lines: Lines<'_>,
        new_worker: F,
        sink: S,
    ) -> io::Result<Stats>
    where
        W: ChunkWorker,
        F: Fn() -> W + Sync,
        S: Sink,
    {
        match lines {
            Lines::File(file) => {
                let md = file.metadata().ok().filter(|md| md.is_file());
                let len = md.map(|md| md.len());
                let chunk_size = self.chunk_size_of(len);
                match self.mmap.open(file) {
                    Some(mmap) => {
                        let chunks = SliceChunks::new(&mmap, chunk_size);
                        self.run_chunks(chunks, new_worker, sink)
                    }
                    None => {
                        let chunks =
                            ReadChunks::new(file, chunk_size).of_len(len);
                        self.run_chunks(chunks, new_worker, sink)
                    }
                }
            }
            Lines::Reader(rdr) => {
                let chunks = ReadChunks::new(rdr, self.chunk_size);
                self.run_chunks(chunks, new_worker, sink)
            }
            Lines::Slice(haystack) => {
                let chunks = SliceChunks::new(haystack, self.chunk_size);
                self.run_chunks(chunks, new_worker, sink)
            }
        }
    }

    /// The pipeline. The calling thread reads chunks and spawns one task per
    /// chunk until `in_flight` chunks are read but not yet written; then it
    /// waits for finished chunks, hands those that are next in input order
    /// to the sink, and reads again. Workers find their per-thread state
    /// (scratch and renderer) by their index in the pool.
    pub(crate) fn run_chunks<'a, C, W, F, S>(
        &self,
        mut chunks: C,
        new_worker: F,
        mut sink: S,
    ) -> io::Result<Stats>
    where
        C: Chunks<'a>,
        W: ChunkWorker,
        F: Fn() -> W + Sync,
        S: Sink,
    {
        let workers: Vec<Mutex<Option<W>>> =
            (0..self.threads).map(|_| Mutex::new(None)).collect();
        let quit = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<Done<'a>>();
        let mut total = Stats::default();
        let mut result: io::Result<()> = Ok(());
        let mut panicked = None;
        // Chunks finished out of order, by index.
        let mut pending: BTreeMap<u64, Done<'a>> = BTreeMap::new();
        let (mut next_read, mut next_write) = (0u64, 0u64);
        // Bytes of the chunks read but not yet written: chunks that hold a
        // long line are larger than the chunk size, so fewer of them are
        // read ahead than of ordinary chunks.
        let mut in_flight_bytes = 0usize;
        let mut eof = false;
        // Spent buffers, reused so that a run allocates a bounded number.
        let mut spare_in: Vec<Vec<u8>> = vec![];
        let mut spare_out: Vec<Vec<u8>> = vec![];

        let (workers, quit, new_worker) = (&workers, &quit, &new_worker);
        self.pool.in_place_scope_fifo(|scope| loop {
            while !eof
                && result.is_ok()
                && next_read - next_write < self.in_flight as u64
                && (next_read == next_write
                    || in_flight_bytes < self.in_flight * chunks.chunk_size())
            {
                let chunk = match chunks.next_chunk(spare_in.pop()) {
                    Ok(Some(chunk)) => chunk,
                    Ok(None) => {
                        eof = true;
                        break;
                    }
                    Err(err) => {
                        result = Err(err);
                        quit.store(true, Ordering::Relaxed);
                        break;
                    }
                };
                let index = next_read;
                next_read += 1;
                // The last chunk is judged after all the others only on one
                // thread, or when it is the only one.
                let last =
                    chunks.at_end() && (index == 0 || self.threads == 1);
                in_flight_bytes += chunk.len();
                let mut out = spare_out.pop().unwrap_or_default();
                let tx = tx.clone();
                scope.spawn_fifo(move |_| {
                    let outcome =
                        panic::catch_unwind(AssertUnwindSafe(|| {
                            if quit.load(Ordering::Relaxed) {
                                return Ok(Stats::default());
                            }
                            // N.B. Tasks of this scope run only on this pool's
                            // threads, so the index is always there.
                            let i = rayon::current_thread_index().unwrap_or(0);
                            let mut slot = workers[i % workers.len()]
                                .lock()
                                .unwrap_or_else(|e| e.into_inner());
                            let worker = slot.get_or_insert_with(new_worker);
                            worker.run(&chunk, last, &mut out)
                        }));
                    // The receiver lives until every task is done.
                    let _ = tx.send(Done { index, chunk, out, outcome });
                });
            }
            if next_write == next_read {
                break;
            }
            let Ok(done) = rx.recv() else { break };
            pending.insert(done.index, done);
            while let Some(done) = pending.remove(&next_write) {
                next_write += 1;
                let Done { chunk, mut out, outcome, .. } = done;
                in_flight_bytes -= chunk.len();
                match outcome {
                    Ok(Ok(stats)) if result.is_ok() => {
                        total.add(&stats);
                        if let Err(err) = sink.chunk(&out, &total) {
                            result = Err(err);
                            quit.store(true, Ordering::Relaxed);
                        }
                    }
                    Ok(Ok(_)) => {}
                    Ok(Err(err)) => {
                        if result.is_ok() {
                            result = Err(err);
                        }
                        quit.store(true, Ordering::Relaxed);
                    }
                    Err(payload) => {
                        panicked.get_or_insert(payload);
                        quit.store(true, Ordering::Relaxed);
                    }
                }
                if let Chunk::Owned(buf) = chunk {
                    spare_in.push(buf);
                }
                out.clear();
                spare_out.push(out);
            }
        });
        if let Some(payload) = panicked {
            panic::resume_unwind(payload);
        }
        total.add(&chunks.cut());
        result.map(|()| total)
    }
}

/// Empties `v`, a worker's scratch kept from chunk to chunk, and makes
/// room in it for `n` items. A vector too small is replaced rather than
/// grown, which would copy its stale items into fresh pages about to be
/// overwritten; the new one has room for an eighth more, since the chunks
/// of one input differ a little in length.
pub(crate) fn room_for<T>(v: &mut Vec<T>, n: usize) {
    v.clear();
    if v.capacity() < n {
        *v = Vec::with_capacity(n.saturating_add(n / 8));
    }
}

/// A finished chunk, on its way back to the writing thread.
struct Done<'a> {
    index: u64,
    chunk: Chunk<'a>,
    out: Vec<u8>,
    outcome: std::thread::Result<io::Result<Stats>>,
}

#[cfg(test)]
mod tests;
