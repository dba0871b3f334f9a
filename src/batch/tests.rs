//! The pipeline's tests: chunk boundaries, input order, memory in flight,
//! and errors from reading, rendering and the sink.

use super::*;
use crate::{Dialect, Matcher, Robots, Verdict};

/// Renders `url<TAB>verdict\n`, to check the pipeline without CSV.
struct Plain(Vec<u8>);

impl Render for Plain {
    fn line(&mut self, url: &[u8], v: &[Verdict]) -> io::Result<()> {
        self.0.extend_from_slice(url);
        for v in v {
            self.0.push(b'\t');
            self.0.extend_from_slice(v.name().as_bytes());
        }
        self.0.push(b'\n');
        Ok(())
    }

    fn finish(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        std::mem::swap(&mut self.0, out);
        Ok(())
    }
}

fn matchers() -> &'static [Matcher] {
    static MATCHERS: std::sync::OnceLock<Vec<Matcher>> =
        std::sync::OnceLock::new();
    MATCHERS.get_or_init(matchers_of_example)
}

fn matchers_of_example() -> Vec<Matcher> {
    let robots = Robots::parse(b"User-agent: *\nDisallow: /d\n");
    vec![Matcher::new(&robots, "*", Dialect::Rfc9309)]
}

fn expected(input: &[u8]) -> Vec<u8> {
    let m = &matchers()[0];
    let mut scratch = m.scratch();
    let mut out = vec![];
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    // The last piece has no `\n`: it is a line only when not empty, and
    // keeps a final `\r` (only CRLF line ends lose theirs).
    let last = lines.pop().filter(|last| !last.is_empty());
    let lines = lines
        .into_iter()
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .chain(last);
    for line in lines {
        out.extend_from_slice(line);
        out.push(b'\t');
        out.extend_from_slice(m.verdict(line, &mut scratch).name().as_bytes());
        out.push(b'\n');
    }
    out
}

fn run_all(input: &[u8], threads: usize, chunk_size: usize) {
    let batch = BatchBuilder::new()
        .threads(threads)
        .chunk_size(chunk_size)
        .build()
        .unwrap();
    let want = expected(input);
    let mut got = vec![];
    let stats = batch
        .run(
            Lines::Slice(input),
            || MatcherWorker::new(matchers(), Plain(vec![])),
            |b: &[u8], _: &Stats| {
                got.extend_from_slice(b);
                Ok(())
            },
        )
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&got), String::from_utf8_lossy(&want));
    assert_eq!(stats.bytes(), input.len() as u64);
    let mut got = vec![];
    batch
        .run(
            Lines::Reader(Box::new(input)),
            || MatcherWorker::new(matchers(), Plain(vec![])),
            |b: &[u8], _: &Stats| {
                got.extend_from_slice(b);
                Ok(())
            },
        )
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&got), String::from_utf8_lossy(&want));
}

#[test]
fn long_lines_are_cut_at_the_limit() {
    let long = |fill: u8, len: usize| {
        let mut line = b"/".to_vec();
        line.resize(len, fill);
        line
    };
    // Lines at, just over and far over the limit, one a disallowed
    // path whose verdict holds after the cut, each with neighbours.
    let at = long(b'a', MAX_LINE_BYTES);
    let over = long(b'd', MAX_LINE_BYTES + 1);
    let far = long(b'x', 3 * MAX_LINE_BYTES + 5);
    for last_end in [&b"\n"[..], b""] {
        let mut input = vec![];
        let mut want = vec![];
        for (line, cut) in [
            (&b"/first"[..], false),
            (&at, false),
            (&over, true),
            (b"/d\r", false),
            (&far, true),
            (&over, true),
        ] {
            input.extend_from_slice(line);
            input.push(b'\n');
            want.extend_from_slice(&line[..line.len().min(MAX_LINE_BYTES)]);
            want.push(b'\n');
            assert_eq!(cut, line.len() > MAX_LINE_BYTES);
        }
        input.extend_from_slice(&far);
        input.extend_from_slice(last_end);
        want.extend_from_slice(&far[..MAX_LINE_BYTES]);
        want.extend_from_slice(last_end);
        let want = expected(&want);
        for threads in [1, 2] {
            for chunk_size in [1, 4096, MAX_LINE_BYTES, usize::MAX] {
                let batch = BatchBuilder::new()
                    .threads(threads)
                    .chunk_size(chunk_size)
                    .build()
                    .unwrap();
                for slice in [true, false] {
                    let mut got = vec![];
                    let sink = |b: &[u8], _: &Stats| {
                        got.extend_from_slice(b);
                        Ok(())
                    };
                    let new = || MatcherWorker::new(matchers(), Plain(vec![]));
                    let lines = match slice {
                        true => Lines::Slice(&input),
                        false => Lines::Reader(Box::new(&*input)),
                    };
                    let stats = batch.run(lines, new, sink).unwrap();
                    let what = format!("{threads} {chunk_size} {slice}");
                    assert!(got == want, "{what}");
                    assert_eq!(stats.cut_lines(), 4, "{what}");
                    assert_eq!(stats.lines(), 7, "{what}");
                    assert_eq!(stats.bytes(), input.len() as u64, "{what}");
                }
            }
        }
    }
}

/// The rows of `file` run through `batch`, how many chunks the sink
/// received, and the counts.
fn run_file_plain(batch: &Batch, file: &File) -> (Vec<u8>, usize, Stats) {
    let (mut got, mut chunks) = (vec![], 0);
    let stats = batch
        .run(
            Lines::File(file),
            || MatcherWorker::new(matchers(), Plain(vec![])),
            |b: &[u8], _: &Stats| {
                got.extend_from_slice(b);
                chunks += 1;
                Ok(())
            },
        )
        .unwrap();
    (got, chunks, stats)
}

/// A worker that keeps each chunk as it is and notes its length and
/// whether it was told it is the last.
struct Noting<'a>(&'a Mutex<Vec<(usize, bool)>>);

impl ChunkWorker for Noting<'_> {
    fn run(
        &mut self,
        chunk: &[u8],
        last: bool,
        out: &mut Vec<u8>,
    ) -> io::Result<Stats> {
        self.0.lock().unwrap().push((chunk.len(), last));
        out.extend_from_slice(chunk);
        Ok(Stats::of_bytes(chunk.len()))
    }
}

/// A worker is told its chunk is the last when no other is judged
/// after it or beside it: the input's last chunk on one thread, its
/// only chunk on any number.
#[test]
fn the_last_chunk_is_told_so_when_nothing_is_judged_beside_it() {
    let input = b"/a\n/bb\n/ccc\n".repeat(100);
    let noted = |threads: usize, input: &[u8]| {
        let batch = BatchBuilder::new()
            .threads(threads)
            .chunk_size(64)
            .build()
            .unwrap();
        let seen = Mutex::new(vec![]);
        let mut got = vec![];
        batch
            .run(
                Lines::Slice(input),
                || Noting(&seen),
                |b: &[u8], _: &Stats| {
                    got.extend_from_slice(b);
                    Ok(())
                },
            )
            .unwrap();
        assert_eq!(got, input);
        seen.into_inner().unwrap()
    };
    // One thread: chunks in input order, the last one told.
    let one = noted(1, &input);
    assert!(one.len() > 3);
    let lasts: Vec<bool> = one.iter().map(|n| n.1).collect();
    assert_eq!(lasts, [vec![false; one.len() - 1], vec![true]].concat());
    // Two threads: the last chunk may be judged beside another.
    assert!(noted(2, &input).iter().all(|n| !n.1));
    // One chunk: told, on any number of threads.
    assert_eq!(noted(2, &input[..20]), [(20, true)]);
    assert_eq!(noted(1, &input[..20]), [(20, true)]);
}

/// `room_for` empties a scratch vector; one with room keeps its
/// allocation, one without gets a new one with an eighth to spare.
#[test]
fn room_for_keeps_or_replaces_the_allocation() {
    let mut v: Vec<u64> = Vec::with_capacity(100);
    v.extend(0..60);
    let at = v.as_ptr();
    room_for(&mut v, 100);
    assert_eq!((v.len(), v.capacity(), v.as_ptr()), (0, 100, at));
    v.extend(0..100);
    room_for(&mut v, 800);
    assert_eq!((v.len(), v.capacity()), (0, 900));
    room_for(&mut v, 0);
    assert_eq!((v.len(), v.capacity()), (0, 900));
}

/// A file shorter than `file_chunks` default chunks for each thread
/// is cut into that many (none under `MIN_FILE_CHUNK_SIZE`); a longer
/// one, or any file when the chunk size was set, keeps the chunk size.
#[test]
fn short_files_are_cut_into_file_chunks() {
    let batch = BatchBuilder::new().threads(2).file_chunks(1).build().unwrap();
    let chunk = batch.chunk_size();
    assert_eq!(chunk, 1 << 20);
    assert_eq!(batch.chunk_size_of(Some(1 << 20)), 512 << 10);
    assert_eq!(batch.chunk_size_of(Some(3 << 19)), 3 << 18);
    assert_eq!(batch.chunk_size_of(Some(3 << 20)), chunk);
    assert_eq!(batch.chunk_size_of(Some(u64::MAX)), chunk);
    assert_eq!(batch.chunk_size_of(Some(300 << 10)), MIN_FILE_CHUNK_SIZE);
    assert_eq!(batch.chunk_size_of(Some(0)), MIN_FILE_CHUNK_SIZE);
    let one = BatchBuilder::new().threads(1).file_chunks(1).build().unwrap();
    assert_eq!(one.chunk_size_of(Some(1 << 20)), one.chunk_size());
    assert_eq!(one.chunk_size_of(Some(512 << 10)), 512 << 10);
    let off = BatchBuilder::new().threads(2).build().unwrap();
    assert_eq!(off.chunk_size_of(Some(1 << 20)), chunk);
    let set = BatchBuilder::new()
        .threads(2)
        .file_chunks(1)
        .chunk_size(3 << 20)
        .build()
        .unwrap();
    assert_eq!(set.chunk_size_of(Some(1 << 20)), 3 << 20);
}

/// A short file runs in as many chunks as `file_chunks` asks for, each
/// rendered once and in order.
#[test]
fn a_short_file_runs_in_its_file_chunks() {
    let mut input = vec![];
    for i in 0..200_000 {
        input.extend_from_slice(format!("/d/{i}\n/a/{i}\n").as_bytes());
    }
    let path = std::env::temp_dir()
        .join(format!("robots-batch-chunks-{}.txt", std::process::id()));
    std::fs::write(&path, &input).unwrap();
    let want = expected(&input);
    for threads in [1, 3] {
        // Read from its start each time.
        let file = File::open(&path).unwrap();
        let batch = BatchBuilder::new()
            .threads(threads)
            .file_chunks(4)
            .build()
            .unwrap();
        let per_chunk = batch.chunk_size_of(Some(input.len() as u64));
        assert!(per_chunk < batch.chunk_size());
        let (got, chunks, _) = run_file_plain(&batch, &file);
        assert!(got == want, "{threads} threads");
        // A chunk read from a file ends at the last line end within its
        // size, so the last may be a sliver more.
        let most = input.len().div_ceil(per_chunk) + 1;
        assert!((4 * threads..=most).contains(&chunks), "{chunks} chunks");
    }
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn chunk_boundaries_everywhere() {
    let inputs: &[&[u8]] = &[
        b"",
        b"\n",
        b"\n\n",
        b"/a",
        b"/d\n/a",
        b"/d\r\n/a\r\n\r\n/d\r",
        b"/a\n/dd\n/x\n\n/d/e/f\n/a/b/c/d/e\n/d",
    ];
    for input in inputs {
        for threads in [1, 3] {
            for chunk_size in [1, 2, 3, 5, 8, 1 << 20] {
                run_all(input, threads, chunk_size);
            }
        }
    }
}

#[test]
fn mapped_and_read_files_agree() {
    let input = b"/a\n/d/x\r\n\n/dd".repeat(500);
    let path = std::env::temp_dir().join(format!(
        "robots-batch-unit-{}-mapped-and-read",
        std::process::id()
    ));
    std::fs::write(&path, &input).unwrap();
    let empty = path.with_extension("empty");
    std::fs::write(&empty, b"").unwrap();
    let want = expected(&input);
    // SAFETY: nothing else touches these files.
    for mmap in [MmapChoice::never(), unsafe { MmapChoice::auto() }] {
        let batch = BatchBuilder::new()
            .threads(3)
            .chunk_size(100)
            .memory_map(mmap)
            .build()
            .unwrap();
        for (path, want) in [(&path, &want[..]), (&empty, b"")] {
            let file = File::open(path).unwrap();
            let (got, _, stats) = run_file_plain(&batch, &file);
            assert_eq!(got, want);
            assert_eq!(stats.bytes(), file.metadata().unwrap().len());
        }
    }
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(&empty).unwrap();
}

#[test]
fn memory_in_flight_is_bounded() {
    for (threads, chunk_size, in_flight) in [
        (1, 1 << 20, 4),
        (2, 1 << 20, 8),
        (16, 128 << 10, 64),
        (64, 64 << 10, 128),
    ] {
        let batch = BatchBuilder::new().threads(threads).build().unwrap();
        assert_eq!(batch.chunk_size, chunk_size, "{threads} threads");
        assert_eq!(batch.in_flight, in_flight, "{threads} threads");
        assert!(chunk_size * in_flight <= MAX_IN_FLIGHT_BYTES);
    }
    // A larger budget, as crawl mode sets: larger chunks, as many.
    for (threads, chunk_size, in_flight) in
        [(1, 4 << 20, 4), (2, 4 << 20, 8), (16, 512 << 10, 64)]
    {
        let batch = BatchBuilder::new()
            .threads(threads)
            .in_flight_bytes(32 << 20)
            .build()
            .unwrap();
        assert_eq!(batch.chunk_size, chunk_size, "{threads} threads");
        assert_eq!(batch.in_flight, in_flight, "{threads} threads");
    }
    // An explicit chunk size is kept up to the line limit; at least one
    // chunk more than threads stays in flight.
    let batch =
        BatchBuilder::new().threads(4).chunk_size(6 << 20).build().unwrap();
    assert_eq!((batch.chunk_size, batch.in_flight), (6 << 20, 5));
    let batch =
        BatchBuilder::new().threads(4).chunk_size(64 << 20).build().unwrap();
    assert_eq!((batch.chunk_size, batch.in_flight), (MAX_LINE_BYTES, 5));
    let batch = BatchBuilder::new().threads(4).chunk_size(0).build().unwrap();
    assert_eq!((batch.chunk_size, batch.in_flight), (1, 16));
}

#[test]
fn sink_error_stops_the_run() {
    let batch = BatchBuilder::new().threads(2).chunk_size(1).build().unwrap();
    let input = b"/a\n".repeat(1000);
    let mut calls = 0;
    let err = batch
        .run(
            Lines::Slice(&input),
            || MatcherWorker::new(matchers(), Plain(vec![])),
            |_: &[u8], _: &Stats| {
                calls += 1;
                if calls == 3 {
                    return Err(io::Error::from(io::ErrorKind::BrokenPipe));
                }
                Ok(())
            },
        )
        .unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
    assert_eq!(calls, 3);
}

#[test]
fn read_error_is_returned() {
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::other("boom"));
            }
            self.0 -= 1;
            buf[0] = b'\n';
            Ok(1)
        }
    }
    let batch = BatchBuilder::new().threads(2).chunk_size(4).build().unwrap();
    let err = batch
        .run(
            Lines::Reader(Box::new(Failing(100))),
            || MatcherWorker::new(matchers(), Plain(vec![])),
            |_: &[u8], _: &Stats| Ok(()),
        )
        .unwrap_err();
    assert_eq!(err.to_string(), "boom");
}
