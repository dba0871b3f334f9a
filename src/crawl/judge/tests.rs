//! The staged judge's tests: verdicts, redirects, the caches and the
//! stages from rules to compiled matchers.

use super::*;
use crate::crawl::caches::{arc_of, Slot};
use crate::crawl::Fetch;
use crate::matcher::Reason;
use crate::testing::{judge_of, served};

/// An origin whose first URL more than `FEW_URLS` URLs of the batch
/// share gets matchers that scan in the one entry added for it; an
/// origin's lone URLs are judged by its rules, whose entry the
/// matchers replace at its URL past `FEW_URLS`.
#[test]
fn an_origin_with_urls_to_follow_is_added_to_the_cache_once() {
    let set = served(["a.com", "b.com"].map(|host| {
        (host, format!("User-agent: *\nDisallow: /{host}\n").into_bytes())
    }));
    let judge = judge_of(set, &["x"]);
    let (mut scratch, mut out) = (judge.scratch(), vec![]);
    let mut judged = |url: &str, following: usize| {
        let url = url.as_bytes();
        let (located, _) = judge.locate(url, &mut vec![]);
        judge.judge_located(
            url,
            None,
            located,
            Run { following, passing: false },
            &mut scratch,
            &mut out,
        );
        let Located::Rules { compiled, .. } = located else {
            panic!("{url:?} has rules");
        };
        let stored = judge.cache.cache.lock().unwrap().stored;
        let built = judge.matchers(compiled).map(|m| m[0].strategy());
        (out[0].allowed(), built, stored)
    };
    let (f, t) = (Some(false), Some(true));
    let scan = Some("scan");
    assert_eq!(judged("https://a.com/a.com", FEW_URLS), (f, scan, 1));
    assert_eq!(judged("https://a.com/", FEW_URLS - 1), (t, scan, 1));
    for n in 1..=FEW_URLS {
        assert_eq!(judged("https://b.com/", 0), (t, None, 2), "URL {n}");
    }
    assert_eq!(judged("https://b.com/b.com", 0), (f, scan, 3));
}

/// Judges `url`, of an origin with rules, as the first URL of a batch
/// in which more than [`FEW_URLS`] of its URLs follow, so that its
/// matchers are built at once; its fetch's place in the judge's cache
/// and its verdicts.
fn judged_first(judge: &CrawlJudge, url: &[u8]) -> (usize, Vec<CrawlVerdict>) {
    let (located, _) = judge.locate(url, &mut vec![]);
    let Located::Rules { compiled, .. } = located else {
        panic!("{url:?} has rules");
    };
    let (mut scratch, mut out) = (judge.scratch(), vec![]);
    judge.judge_located(
        url,
        None,
        located,
        Run { following: FEW_URLS, passing: false },
        &mut scratch,
        &mut out,
    );
    (compiled, out)
}

/// A slot takes one cache line, and its hints say where its entry,
/// the entry's matchers, its count and the first matcher's patterns
/// lie, so that one prefetch of the slot leads to all of them.
#[test]
fn a_slot_hints_where_its_entry_and_matchers_lie() {
    // The lock's size is the platform's: one line where it is a futex.
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    assert_eq!(std::mem::size_of::<Slot>(), 64);
    let body = b"User-agent: *\nDisallow: /a\nAllow: /a/b*c\n".to_vec();
    let judge = judge_of(served([("a.com", body)]), &["x"]);
    let (compiled, _) = judged_first(&judge, b"https://a.com/a");
    let entry = judge.cache.get(compiled).expect("the entry is kept");
    let matchers = entry.matchers.as_deref().expect("matchers built");
    let scanned = entry.scanned.as_deref().expect("a count kept");
    let hints = &judge.cache.slots[compiled].hints;
    let mut regions = vec![];
    matchers[0].regions(&mut |r| regions.extend(r.start()));
    assert!(!regions.is_empty(), "the matcher scans its patterns");
    for (what, at) in [
        ("entry", std::ptr::from_ref(&*entry) as usize),
        ("matchers", matchers.as_ptr() as usize),
        ("count", std::ptr::from_ref(scanned) as usize),
        ("patterns", regions[0]),
    ] {
        assert!(hints.covers(at), "{what} at {at:#x}");
    }
}

/// An origin given scanning matchers at its first URL keeps them in
/// its judge's cache; the shared cache gets its rules alone, as when
/// the matchers come later, for other judges to build their own from.
#[test]
fn the_shared_cache_gets_rules_not_scanning_matchers() {
    let body = b"User-agent: *\nDisallow: /a\n".to_vec();
    let set = served([("a.com", body.clone())]);
    let cache = Arc::new(MatcherCache::new(1 << 20));
    let judge = judge_of(set, &["x"]).with_shared_cache(Arc::clone(&cache));
    let (compiled, out) = judged_first(&judge, b"https://a.com/a");
    assert_eq!(out[0].allowed(), Some(false));
    let built = judge.matchers(compiled).map(|m| m[0].strategy());
    assert_eq!(built, Some("scan"));
    // The shared entry holds the rules and no matchers, and its key
    // the body.
    let kept = cache.lock().map.values().next().cloned().unwrap();
    assert!(kept.matchers.is_none());
    let own = judge.cache.get(compiled).unwrap();
    assert!(Arc::ptr_eq(&kept.rules, &own.rules));
    let bytes = own.rules_only().bytes + arc_of::<u8>(body.len());
    assert_eq!((cache.len(), cache.memory_usage()), (1, bytes));
    assert!(bytes < own.bytes, "the matchers are not counted");
}

/// Fetches whose bodies lie in one shared buffer judge as fetches
/// with bodies of their own do, and equal ones share matchers.
#[test]
fn shared_bodies_judge_as_their_own_would() {
    use crate::crawl::SharedBody;
    use std::sync::Arc;

    // Three bodies in one buffer, as an Arrow array's values hold
    // them; b.com and c.com serve the same one.
    let same = "User-agent: *\nDisallow: /b/\n";
    let buffer = format!("User-agent: *\nDisallow: /a/\n{same}{same}");
    let bytes: Arc<dyn AsRef<[u8]> + Send + Sync> =
        Arc::new(buffer.clone().into_bytes());
    let (a_len, s_len) = (buffer.len() - 2 * same.len(), same.len());
    let shared = |range| SharedBody::new(Arc::clone(&bytes), range);
    assert!(shared(0..buffer.len() + 1).is_none());
    let mut set = FetchSet::new();
    let ok = Fetch { status: 200, ..Fetch::default() };
    let bodies = [
        ("https://a.com/robots.txt", 0..a_len),
        ("https://b.com/robots.txt", a_len..a_len + s_len),
        ("https://c.com/robots.txt", a_len + s_len..buffer.len()),
    ];
    for (url, range) in bodies {
        let body = shared(range).unwrap();
        assert!(set.insert_url_shared(url, ok.clone(), body));
    }
    assert!(!set.insert_url_shared(
        "nonsense",
        ok.clone(),
        shared(0..0).unwrap()
    ));
    // The buffer is held once, and counted by its bodies' bytes.
    assert_eq!(set.body_bytes(), buffer.len());
    assert_eq!(set.body(1).as_deref(), Some(same.as_bytes()));
    // A later fetch of a.com with a body of its own replaces the
    // shared one.
    set.insert_url(
        "https://a.com/robots.txt",
        Fetch { body: b"User-agent: *\nDisallow: /z/\n".to_vec(), ..ok },
    );
    let judge = judge_of(set, &["*"]);
    let (mut scratch, mut out) = (judge.scratch(), vec![]);
    let mut verdict = |url: &str| {
        judge.verdicts(url.as_bytes(), &mut scratch, &mut out);
        out[0].allowed()
    };
    assert_eq!(verdict("https://a.com/a/x"), Some(true));
    assert_eq!(verdict("https://a.com/z/x"), Some(false));
    assert_eq!(verdict("https://b.com/b/x"), Some(false));
    assert_eq!(verdict("https://c.com/b/x"), Some(false));
    assert_eq!(verdict("https://c.com/a/x"), Some(true));
    // Equal shared bodies share matchers, as equal owned ones do.
    let mut key = vec![];
    let compiled = |url: &str, key: &mut Vec<u8>| match judge
        .locate(url.as_bytes(), key)
    {
        (Located::Rules { compiled, .. }, _) => compiled,
        other => panic!("{url}: {other:?}"),
    };
    assert_eq!(
        compiled("https://b.com/", &mut key),
        compiled("https://c.com/", &mut key)
    );
}

/// Files of a directory with equal bodies share one set of matchers,
/// as fetches read whole do, though they are compared only when read.
#[test]
fn unread_files_with_equal_bodies_share_matchers() {
    let dir = std::env::temp_dir()
        .join(format!("robots-batch-unread-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let same = "User-agent: *\nDisallow: /b/\n";
    for (host, body) in
        [("a.com", "User-agent: *\n"), ("b.com", same), ("c.com", same)]
    {
        std::fs::write(dir.join(format!("{host}.txt")), body).unwrap();
    }
    let mut set = FetchSet::new();
    set.read_dir(&dir).unwrap();
    let judge = judge_of(set, &["*"]);
    let mut key = vec![];
    let (mut scratch, mut out) = (judge.scratch(), vec![]);
    // A file is read when a URL of it is first judged, not located.
    let mut compiled = |url: &str| {
        let url = url.as_bytes();
        match judge.locate(url, &mut key) {
            (Located::Unread { .. }, _) => {}
            other => {
                panic!("{url:?} located before it is read: {other:?}")
            }
        }
        judge.verdicts(url, &mut scratch, &mut out);
        match judge.locate(url, &mut key) {
            (Located::Rules { fetch, compiled }, _) => (fetch, compiled),
            other => panic!("{url:?}: {other:?}"),
        }
    };
    let (a, a_compiled) = compiled("https://a.com/");
    let (c, c_compiled) = compiled("https://c.com/");
    let (b, b_compiled) = compiled("https://b.com/");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(a_compiled, a);
    // c.com was read first: b.com shares its matchers.
    assert_eq!(c_compiled, c);
    assert_eq!(b_compiled, c);
    assert_ne!(b, c);
}

#[test]
fn verdicts_keep_their_reason_and_fetch_in_16_bytes() {
    assert_eq!(std::mem::size_of::<CrawlVerdict>(), 16);
    let reasons = [
        CrawlReason::Robots(Reason::Rule(0)),
        CrawlReason::Robots(Reason::Rule(7)),
        CrawlReason::Robots(Reason::Rule(u32::MAX)),
        CrawlReason::Robots(Reason::NoMatchingRule),
        CrawlReason::Robots(Reason::NoGroup),
        CrawlReason::Robots(Reason::ImplicitRobotsTxt),
        CrawlReason::Status4xx,
        CrawlReason::Status5xx,
        CrawlReason::RedirectLimit,
        CrawlReason::RedirectMissing,
        CrawlReason::NoRobots,
        CrawlReason::NoHost,
    ];
    let fetches = [None, Some(0), Some(3), Some(usize::MAX - 1)];
    for reason in reasons {
        for fetch in fetches {
            for allowed in [None, Some(true), Some(false)] {
                let v = CrawlVerdict::new(allowed, reason, fetch);
                assert_eq!(v.reason(), reason);
                assert_eq!(v.reason().name(), reason.name());
                assert_eq!(v.fetch(), fetch);
                assert_eq!(v.allowed(), allowed);
            }
        }
    }
}

#[test]
fn threads_reading_equal_files_at_once_agree_on_one() {
    // Files of a few bodies, read by several threads at once: each
    // body's files share the matchers of one of them, whichever thread
    // read it first.
    let dir = std::env::temp_dir()
        .join(format!("robots-batch-equal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (bodies, hosts) = (3, 60);
    for h in 0..hosts {
        let body = format!("User-agent: *\nDisallow: /{}/\n", h % bodies);
        std::fs::write(dir.join(format!("h{h}.com.txt")), body).unwrap();
    }
    let mut set = FetchSet::new();
    set.read_dir(&dir).unwrap();
    let judge = judge_of(set, &["*"]);
    let threads = 6;
    let barrier = std::sync::Barrier::new(threads);
    let shares: Vec<Vec<(usize, usize)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (judge, barrier) = (&judge, &barrier);
                s.spawn(move || {
                    let (mut scratch, mut out) = (judge.scratch(), vec![]);
                    barrier.wait();
                    // Each thread starts at another host.
                    (0..hosts)
                        .map(|i| {
                            let h = (i + t * 7) % hosts;
                            let url =
                                format!("https://h{h}.com/{}/", h % bodies);
                            judge.verdicts(
                                url.as_bytes(),
                                &mut scratch,
                                &mut out,
                            );
                            assert_eq!(out[0].allowed(), Some(false), "{url}");
                            let located =
                                judge.locate(url.as_bytes(), &mut vec![]).0;
                            let Located::Rules { compiled, .. } = located
                            else {
                                panic!("{url}: {located:?}")
                            };
                            (h, compiled)
                        })
                        .collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    std::fs::remove_dir_all(&dir).unwrap();
    let mut first_of_body = vec![None; bodies];
    for (h, compiled) in shares.into_iter().flatten() {
        let first = *first_of_body[h % bodies].get_or_insert(compiled);
        assert_eq!(compiled, first, "h{h}.com");
    }
    let mut firsts: Vec<usize> = first_of_body.into_iter().flatten().collect();
    firsts.sort_unstable();
    firsts.dedup();
    assert_eq!(firsts.len(), bodies);
}

/// A judge over three hosts whose rules have several wildcard tails
/// each (the trie's per-path stamps), and URLs that hit them.
fn hosts_with_tails() -> (FetchSet, Vec<(String, String)>) {
    let mut set = FetchSet::new();
    let mut bodies = vec![];
    for (h, words) in [("a", ["x", "y"]), ("b", ["y", "z"]), ("c", ["z", "x"])]
    {
        let [p, q] = words;
        let body = format!(
            "User-agent: *\nDisallow: /*{p}*{q}\nAllow: /*{p}*{q}*{p}\n\
             Disallow: /*{q}*{p}$\nAllow: /{p}*\nDisallow: /*{q}{q}\n"
        );
        let host = format!("{h}.com");
        set.insert_host(
            &host,
            Fetch {
                status: 200,
                body: body.clone().into_bytes(),
                location: None,
                date: None,
            },
        );
        bodies.push((host, body));
    }
    (set, bodies)
}

/// One scratch per thread serves every origin in turn (its buffers are
/// kept from one set of matchers to the next): each verdict equals a
/// fresh matcher's with a fresh scratch, in every engine and dialect,
/// whether the rules judged alone (an origin's first URL), scanned or
/// compiled.
#[test]
fn one_scratch_serves_every_origin() {
    let paths = [
        "/", "/x", "/xy", "/yx", "/x/y/x", "/yzx", "/zzx", "/xxyy", "/y/x",
        "/zx", "/yy", "/z/x/z/y", "/xzyzx",
    ];
    let engines = [
        EngineKind::Trie,
        EngineKind::Dense,
        EngineKind::Lazy,
        EngineKind::Scan,
        EngineKind::Naive,
    ];
    let dialects = [
        Dialect::Rfc9309,
        Dialect::Google,
        Dialect::Draft1996,
        Dialect::Orig1994,
    ];
    for (engine, dialect) in engines
        .into_iter()
        .flat_map(|e| dialects.into_iter().map(move |d| (e, d)))
    {
        let (set, bodies) = hosts_with_tails();
        let mut builder = MatcherBuilder::new();
        builder.engine(engine);
        let agents = ["*".to_string()];
        let judge = CrawlJudge::new(
            set,
            FetchPolicy::default(),
            builder.clone(),
            &agents,
            dialect,
        )
        .compile_after(2);
        let mut scratch = judge.scratch();
        let mut out = vec![];
        // Every host in turn, each path several times, so that the
        // matchers change at every URL and get compiled on the way.
        for round in 0..3 {
            for path in paths {
                for (host, body) in &bodies {
                    let url = format!("https://{host}{path}");
                    judge.verdicts(url.as_bytes(), &mut scratch, &mut out);
                    let m = builder.build(
                        &Robots::parse(body.as_bytes()),
                        "*",
                        dialect,
                    );
                    let want = m.verdict(url.as_bytes(), &mut m.scratch());
                    assert_eq!(
                        (out[0].allowed(), out[0].reason()),
                        (
                            Some(want.is_allowed()),
                            CrawlReason::Robots(want.reason())
                        ),
                        "{engine:?} {dialect:?}, round {round}: {url}"
                    );
                }
            }
        }
    }
}

/// Matchers evicted from a judge's cache leave it (their slot is
/// emptied with them), and are built again when their origin returns.
#[test]
fn evicted_matchers_leave_the_cache() {
    let (set, bodies) = hosts_with_tails();
    let agents = ["*".to_string()];
    // A budget smaller than any matchers: one set is kept at a time.
    let policy = FetchPolicy { cache_bytes: 1, ..FetchPolicy::default() };
    let judge = CrawlJudge::new(
        set,
        policy,
        MatcherBuilder::new(),
        &agents,
        Dialect::Rfc9309,
    );
    let mut key = vec![];
    let mut index = |host: &str| {
        let url = format!("https://{host}/");
        match judge.locate(url.as_bytes(), &mut key) {
            (Located::Rules { compiled, .. }, _) => compiled,
            other => panic!("{url}: {other:?}"),
        }
    };
    let (a, b) = (index(&bodies[0].0), index(&bodies[1].0));
    assert!(judge.cache.get(a).is_none());
    judge.rules(a);
    let entry = judge.cache.get(a).expect("a.com's entry kept");
    let hints = &judge.cache.slots[a].hints;
    assert!(hints.covers(Arc::as_ptr(&entry) as usize));
    judge.rules(b);
    assert!(judge.cache.get(a).is_none(), "a.com's matchers evicted");
    assert!(!hints.covers(Arc::as_ptr(&entry) as usize));
    assert!(judge.cache.get(b).is_some());
    let again = judge.rules(a);
    assert!(judge.cache.get(b).is_none());
    assert!(Arc::ptr_eq(&judge.cache.get(a).unwrap().rules, &again));
}

/// Agents that select the same groups share one rule set, one matcher and
/// one verdict per URL, at every stage; each agent's verdicts are those of
/// a judge of that agent alone.
#[test]
fn agents_selecting_the_same_groups_share_their_rules() {
    let body = b"User-agent: *\nDisallow: /private/\nAllow: /private/ok\n\n\
                 User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\
                 Allow: /$\n"
        .to_vec();
    let agents = ["a", "GPTBot", "b", "ccbot", "*", "Other"];
    let urls: Vec<String> = ["/", "/x", "/private/y", "/private/ok"]
        .iter()
        .cycle()
        .take(40)
        .map(|p| format!("https://a.com{p}"))
        .collect();
    for compile_after in [0, 10, 1000] {
        let judge = judge_of(served([("a.com", body.clone())]), &agents)
            .compile_after(compile_after);
        let mut scratch = judge.scratch();
        let mut got = vec![];
        let mut out = vec![];
        for url in &urls {
            judge.verdicts(url.as_bytes(), &mut scratch, &mut out);
            got.push(out.clone());
        }
        for (a, agent) in agents.iter().enumerate() {
            let alone = judge_of(served([("a.com", body.clone())]), &[agent])
                .compile_after(compile_after);
            let mut own = alone.scratch();
            for (url, verdicts) in urls.iter().zip(&got) {
                alone.verdicts(url.as_bytes(), &mut own, &mut out);
                assert_eq!(verdicts[a], out[0], "{agent} {url}");
            }
        }
        // The only fetch of the set.
        let a = 0;
        let rules = judge.rules(a);
        assert!(Arc::ptr_eq(&rules[0], &rules[2]));
        assert!(Arc::ptr_eq(&rules[0], &rules[4]));
        assert!(Arc::ptr_eq(&rules[0], &rules[5]));
        assert!(!Arc::ptr_eq(&rules[0], &rules[1]));
        // Sharing goes by the token a user-agent line names: GPTBot and
        // CCBot name one group on two lines, and get a set each.
        assert!(!Arc::ptr_eq(&rules[1], &rules[3]));
        // Scanning or compiled, one matcher per set.
        assert_eq!(judge.matchers(a).map(|m| m.len()), Some(3));
    }
}

/// A judge that takes the newest capture by default still judges a URL
/// at its own time by the capture in effect then, and says when that
/// capture came after the URL.
#[test]
fn verdicts_at_a_time_under_every_capture_choice() {
    let capture = |date: &str, rule: &str| Fetch {
        status: 200,
        body: format!("User-agent: *\nDisallow: {rule}\n").into_bytes(),
        date: Some(date.to_string()),
        ..Fetch::default()
    };
    for choice in [Capture::Newest, Capture::AtFetchTime] {
        let mut set = FetchSet::new();
        set.insert_host("a.com", capture("2024-06-01", "/new"));
        set.insert_host("a.com", capture("2024-01-01", "/old"));
        let policy = FetchPolicy { capture: choice, ..FetchPolicy::default() };
        let agents = ["x".to_string()];
        let judge = CrawlJudge::new(
            set,
            policy,
            MatcherBuilder::new(),
            &agents,
            Dialect::Rfc9309,
        );
        let (mut scratch, mut out) = (judge.scratch(), vec![]);
        let mut at = |url: &str, when: &str| {
            let t = Timestamp::parse(when).unwrap();
            judge.verdicts_at(url.as_bytes(), t, &mut scratch, &mut out);
            format!("{} {}", out[0].name(), judge.reason_name(out[0], Some(t)))
        };
        assert_eq!(at("https://a.com/old", "2024-03-01"), "disallowed rule");
        assert_eq!(
            at("https://a.com/new", "2024-03-01"),
            "allowed no-matching-rule"
        );
        assert_eq!(at("https://a.com/new", "2024-07-01"), "disallowed rule");
        assert_eq!(
            at("https://a.com/old", "2023-01-01"),
            "disallowed rule;before-first"
        );
        judge.verdicts(b"https://a.com/new", &mut scratch, &mut out);
        assert_eq!(out[0].name(), "disallowed");
    }
}

/// Successive captures of an origin with the same bytes share one
/// buffer; each stays a capture of its own, with its body.
#[test]
fn same_successive_captures_share_their_body() {
    let (a, b) =
        (b"User-agent: *\nDisallow: /a\n", b"User-agent: *\nDisallow: /b\n");
    let mut set = FetchSet::new();
    for (date, body) in [
        ("2024-01-01", a),
        ("2024-02-01", a),
        ("2024-03-01", b),
        ("2024-04-01", b),
    ] {
        let fetch = Fetch {
            status: 200,
            body: body.to_vec(),
            date: Some(date.to_string()),
            ..Fetch::default()
        };
        assert!(set.insert_url("https://a.com/robots.txt", fetch));
    }
    let bodies: Vec<_> = (0..4).map(|i| set.body(i).unwrap()).collect();
    assert_eq!(
        bodies.iter().map(|b| &b[..]).collect::<Vec<_>>(),
        [&a[..], a, b, b]
    );
    assert_eq!(bodies[0].as_ptr(), bodies[1].as_ptr());
    assert_eq!(bodies[2].as_ptr(), bodies[3].as_ptr());
    assert_eq!(set.captures_of(3).count(), 4);
}
