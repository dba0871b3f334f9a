//! What a rule set and a matcher say they hold is what they allocated:
//! crawl mode's cache (`--cache-mib`) is bounded by these counts, so an
//! undercount lets it hold more than its budget.
//!
//! This module installs the test binary's global allocator: the system's,
//! counting each thread's live bytes, so that tests running beside each
//! other do not disturb the count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::PathBuf;
use std::sync::Arc;

use robots_batch::crawl::{
    CrawlJudge, Fetch, FetchPolicy, FetchSet, MatcherCache,
};
use robots_batch::{Dialect, EngineKind, MatcherBuilder, Robots, RuleSet};

struct Counting;

thread_local! {
    /// The bytes this thread allocated and has not freed.
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

fn add(bytes: isize) {
    // A thread being torn down has no counter any more; nothing is
    // measured there.
    let _ = LIVE.try_with(|live| live.set(live.get() + bytes));
}

// SAFETY: every call is passed to the system allocator unchanged; the
// counter is a const-initialised thread-local without a destructor, which
// allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            add(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        add(-(layout.size() as isize));
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            add(layout.size() as isize);
        }
        p
    }

    unsafe fn realloc(
        &self,
        ptr: *mut u8,
        layout: Layout,
        new_size: usize,
    ) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            add(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// What `f` returns, and the bytes it allocated that are still live.
fn kept<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.with(Cell::get);
    let value = f();
    let after = LIVE.with(Cell::get);
    (value, usize::try_from(after - before).unwrap_or(0))
}

/// Bodies of every shape the accounting must follow: no group, a few
/// rules, many rules with wildcards and ends, patterns the dialects
/// normalise, a named agent's group, long lines.
fn bodies() -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"User-agent: *\nDisallow: /private\n".to_vec(),
        b"User-agent: Bot\nAllow: /a/index.html\nDisallow: /a\n\
          User-agent: *\nDisallow: /\n"
            .to_vec(),
        b"User-agent: *\nDisallow: /%7euser/\nDisallow: /caf\xc3\xa9\n\
          Disallow: /*?sort=*&page=$\nAllow: /*.css$\n"
            .to_vec(),
    ];
    for rules in [11, 12, 13, 60, 700] {
        let mut body = b"User-agent: *\n".to_vec();
        for i in 0..rules {
            let line = match i % 4 {
                0 => format!("Disallow: /dir{i}/\n"),
                1 => format!("Allow: /dir{}/page{i}.html$\n", i - 1),
                2 => format!("Disallow: /*/search{i}*?q=\n"),
                _ => format!("Disallow: /a-longer-directory-name/{i}/x\n"),
            };
            body.extend_from_slice(line.as_bytes());
        }
        out.push(body);
    }
    // Tails that share their first literal: one group, an automaton of
    // its own.
    let mut group = b"User-agent: *\n".to_vec();
    for i in 0..3_000 {
        group.extend_from_slice(format!("Disallow: /a*b*c{i}\n").as_bytes());
    }
    out.push(group);
    let mut long = b"User-agent: *\nDisallow: /".to_vec();
    long.extend(std::iter::repeat_n(b'x', 20_000));
    long.extend_from_slice(b"*y\n");
    out.push(long);
    out
}

/// The real files of `../shared/datasets/robots`, when it is there.
fn corpus() -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets/robots");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        crate::util::skip(
            "the real corpus in the memory tests",
            &format!("{} is absent", dir.display()),
        );
        return vec![];
    };
    let mut paths: Vec<PathBuf> =
        entries.filter_map(|e| Some(e.ok()?.path())).collect();
    paths.sort();
    paths.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

const DIALECTS: [Dialect; 4] =
    [Dialect::Rfc9309, Dialect::Google, Dialect::Draft1996, Dialect::Orig1994];

/// A rule set holds exactly what it says, for every body, dialect and
/// agent.
#[test]
fn a_rule_set_counts_what_it_holds() {
    for body in bodies().iter().chain(&corpus()) {
        let robots = Robots::parse(body);
        for dialect in DIALECTS {
            for agent in ["Bot", "OtherBot"] {
                let (rules, bytes) =
                    kept(|| RuleSet::select(&robots, agent, dialect));
                assert_eq!(
                    rules.memory_usage(),
                    bytes,
                    "{dialect:?} {agent} {:?}",
                    String::from_utf8_lossy(&body[..body.len().min(80)])
                );
            }
        }
    }
}

/// A matcher's count covers what building it allocated beyond its rules,
/// and overstates it by little: summed over the bodies, and per body past
/// a few rules. (The lazy DFA's search cache is the scratch's, not the
/// matcher's.)
#[test]
fn a_matcher_counts_what_it_holds() {
    let (generated, corpus) = (bodies(), corpus());
    let mut all = generated.clone();
    all.extend_from_slice(&corpus);
    // The engines crawl mode keeps over every body; the others, slower to
    // build, over the generated ones.
    for (engine, bodies) in [
        (EngineKind::Scan, &all),
        (EngineKind::Trie, &all),
        (EngineKind::Dense, &generated),
        (EngineKind::Naive, &generated),
    ] {
        let mut builder = MatcherBuilder::new();
        builder.engine(engine);
        let (mut counted, mut allocated) = (0, 0);
        for body in bodies {
            let robots = Robots::parse(body);
            let rules = RuleSet::select(&robots, "Bot", Dialect::Google);
            let (matcher, bytes) = kept(|| builder.build_rules(rules));
            // The rules move into an `Arc` of their own.
            let bytes = bytes - std::mem::size_of::<RuleSet>() - 16;
            let count = matcher.heap_bytes();
            let what = format!(
                "{engine:?} ({}), {} rules, {:?}",
                matcher.strategy(),
                matcher.rules().count(),
                String::from_utf8_lossy(&body[..body.len().min(80)])
            );
            // The lazy DFA's parts lie in `Arc`s of regex-automata's, whose
            // counts its own count leaves out.
            let arcs = 64;
            assert!(
                count + arcs >= bytes,
                "{what}: counts {count} of {bytes}"
            );
            if bytes > 4096 {
                assert!(count <= bytes + bytes / 4, "{what}: {count}");
            }
            counted += count;
            allocated += bytes;
        }
        assert!(
            counted <= allocated + allocated / 10,
            "{engine:?}: counts {counted} of {allocated} bytes"
        );
    }
}

/// `hosts` fetches, each with a body of its own (60 rules, some of them
/// wildcards).
fn fetches(hosts: usize) -> FetchSet {
    let mut set = FetchSet::new();
    for h in 0..hosts {
        let mut body = "User-agent: *\n".to_string();
        for i in 0..60 {
            body.push_str(&match i % 3 {
                0 => format!("Disallow: /h{h}/dir{i}/\n"),
                1 => format!("Allow: /h{h}/dir{}/page{i}.html$\n", i - 1),
                _ => format!("Disallow: /*/search{i}*?q={h}\n"),
            });
        }
        let fetch = Fetch {
            status: 200,
            body: body.into(),
            location: None,
            date: None,
        };
        set.insert_host(&format!("h{h}.example"), fetch);
    }
    set
}

/// Five URLs of each host of [`fetches`].
fn urls(hosts: usize) -> Vec<String> {
    (0..hosts)
        .flat_map(|h| {
            (0..5).map(move |i| {
                format!("https://h{h}.example/h{h}/dir{}/x", 3 * i)
            })
        })
        .collect()
}

/// Judges every URL once, one after the other.
fn judge_each(judge: &CrawlJudge, urls: &[String]) {
    let (mut scratch, mut out) = (judge.scratch(), vec![]);
    for url in urls {
        judge.verdicts(url.as_bytes(), &mut scratch, &mut out);
    }
}

fn judge_of(set: FetchSet, cache_bytes: usize) -> CrawlJudge {
    let policy = FetchPolicy { cache_bytes, ..FetchPolicy::default() };
    let agents = ["Bot".to_string()];
    CrawlJudge::new(
        set,
        policy,
        MatcherBuilder::new(),
        &agents,
        Dialect::Google,
    )
}

/// A judge's cache stays within its budget in bytes allocated, not only
/// in the bytes it counts: the hosts' matchers would take more than ten
/// times the budget, and the judge grows by little more than the budget.
#[test]
fn a_judge_holds_no_more_than_its_cache_budget() {
    const BUDGET: usize = 2 << 20;
    const HOSTS: usize = 3_000;
    let urls = urls(HOSTS);
    let judge = judge_of(fetches(HOSTS), BUDGET);
    let (_, unbounded) = kept(|| {
        let judge = judge_of(fetches(HOSTS), usize::MAX);
        judge_each(&judge, &urls);
        judge
    });
    let ((), grown) = kept(|| judge_each(&judge, &urls));
    assert!(unbounded > 10 * BUDGET, "{unbounded}");
    // Beyond the cache: per host read, a few words (which bodies are
    // equal), and the cache's own tables.
    let slack = HOSTS * 100;
    assert!(grown <= BUDGET + slack, "{grown} bytes for {BUDGET}");
    assert!(grown >= BUDGET / 2, "{grown} bytes: the cache kept little");
}

/// A shared cache counts the bytes it keeps: once the judge that filled
/// it is gone, what is still allocated is what it counts, give or take
/// its own tables.
#[test]
fn a_shared_cache_counts_what_it_keeps() {
    const HOSTS: usize = 500;
    let urls = urls(HOSTS);
    let cache = Arc::new(MatcherCache::new(usize::MAX));
    let ((), held) = kept(|| {
        let judge = judge_of(fetches(HOSTS), usize::MAX)
            .with_shared_cache(Arc::clone(&cache));
        judge_each(&judge, &urls);
    });
    let counted = cache.memory_usage();
    assert_eq!(cache.len(), HOSTS);
    assert!(counted <= held, "counts {counted} of {held}");
    assert!(held <= counted + HOSTS * 100, "counts {counted} of {held}");
}
