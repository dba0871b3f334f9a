//! The data.txt example of `datasets/datatxt/`: a `/data.txt` file is read
//! with `--dialect draft1996` (`SEMANTICS.md` section 5), through the
//! library with every engine and through the command.
//!
//! The verdicts below are written down by hand from the contract, rule by
//! rule; no engine computed them.

use robots_batch::{Dialect, EngineKind, GroupMatch, MatcherBuilder, Robots};

use crate::util::{Dir, TestCommand};

/// `datasets/datatxt/data.txt`.
const DATA_TXT: &str = include_str!("../datasets/datatxt/data.txt");

/// `datasets/datatxt/urls.txt`.
const URLS: &str = include_str!("../datasets/datatxt/urls.txt");

/// The agents of the table's columns, as the command gets them with `-a`:
/// `DataFinder/1.2` has the name token `DataFinder` (5.2), which the
/// record of `datafinder` contains; `Harvester` is contained in the value
/// `OpenDataHarvester` of the second record; `SomeBot` is in no record's
/// value, so it gets the `*` record.
const AGENTS: [&str; 3] = ["DataFinder/1.2", "Harvester", "SomeBot"];

const Y: bool = true;
const N: bool = false;

/// Every line of `urls.txt`, in order, and whether it is allowed for each
/// of [`AGENTS`]. The records' rules, in file order (first match wins):
///
/// * datafinder: A `/datasets/census/2020/`, D `/datasets/census/`,
///   D `/datasets/~staff/` (written `%7E`), A `/datasets/`, D `/api/`,
///   A `/api/v2/catalog`, D `/`.
/// * OpenDataHarvester: (empty `Disallow:`, skipped), D `/datasets/drafts`,
///   D `/download/private/`, A `/download/`, A `/datasets/`, A `/api/`,
///   D `/`.
/// * `*`: D `/datasets/drafts/`, D `/download/city%2Fbudget`,
///   A `/download/`, A `/datasets/`, D `/exports/*.zip`, A `/exports/`,
///   D `/search`, A `/api/v2/catalog`, D `/api/`, D `/`.
#[rustfmt::skip]
const VERDICTS: &[(&str, [bool; 3])] = &[
    //                                                   DataF Harv  Some
    ("https://data.example.org/",                        [N,    N,    N]),
    // 5.4: always allowed, whatever the rules say.
    ("https://data.example.org/robots.txt",              [Y,    Y,    Y]),
    // Decoded first (5.3), then it is /robots.txt.
    ("https://data.example.org/%72obots.txt",            [Y,    Y,    Y]),
    // The path includes the query (3.2): not /robots.txt, so `D /`.
    ("https://data.example.org/robots.txt?x=1",          [N,    N,    N]),
    // Octets are compared as they are: not /robots.txt.
    ("https://data.example.org/ROBOTS.TXT",              [N,    N,    N]),
    // Only /robots.txt is implicit (5.4), even in a data.txt.
    ("https://data.example.org/data.txt",                [N,    N,    N]),
    ("https://data.example.org/about",                   [N,    N,    N]),
    ("https://data.example.org/datasets/",               [Y,    Y,    Y]),
    // Case-sensitive: `/Datasets` is not `/datasets/`, so `D /`.
    ("https://data.example.org/Datasets/parks.csv",      [N,    N,    N]),
    ("https://data.example.org/datasets/parks?format=csv&sort=name",
                                                         [Y,    Y,    Y]),
    ("https://data.example.org/datasets/parks#preview",  [Y,    Y,    Y]),
    ("https://data.example.org/datasets/census/2020/population.csv",
                                                         [Y,    Y,    Y]),
    // No trailing slash: `A /datasets/census/2020/` is no prefix of it,
    // `D /datasets/census/` is.
    ("https://data.example.org/datasets/census/2020",    [N,    Y,    Y]),
    ("https://data.example.org/datasets/census/2010/population.csv",
                                                         [N,    Y,    Y]),
    ("http://data.example.org:8080/datasets/census/2010/",
                                                         [N,    Y,    Y]),
    ("/datasets/census/2020/households.csv",             [Y,    Y,    Y]),
    // %64 is `d`: /datasets/census/2020/...
    ("https://data.example.org/%64atasets/census/2020/population.csv",
                                                         [Y,    Y,    Y]),
    // %63 is `c`: /datasets/census/2010/...
    ("https://data.example.org/datasets/%63ensus/2010/population.csv",
                                                         [N,    Y,    Y]),
    // %2F is no `/`: no `/datasets/...` rule applies, only `D /`.
    ("https://data.example.org/datasets%2Fcensus/2020/population.csv",
                                                         [N,    N,    N]),
    // `Disallow: /datasets/%7Estaff/` is /datasets/~staff/ for
    // datafinder; the others reach `A /datasets/`.
    ("https://data.example.org/datasets/~staff/salaries.csv",
                                                         [N,    Y,    Y]),
    ("https://data.example.org/datasets/%7Estaff/salaries.csv",
                                                         [N,    Y,    Y]),
    // Lower-case hex decodes alike.
    ("https://data.example.org/datasets/%7estaff/salaries.csv",
                                                         [N,    Y,    Y]),
    // `~staffi` is not `~staff/`: on to `A /datasets/`.
    ("https://data.example.org/datasets/~staffing/levels.csv",
                                                         [Y,    Y,    Y]),
    ("https://data.example.org/datasets/drafts/budget-2025.csv",
                                                         [Y,    N,    N]),
    // The harvesters' `D /datasets/drafts` has no slash and matches;
    // the `*` record's `D /datasets/drafts/` does not.
    ("https://data.example.org/datasets/drafts-archive/budget-2019.csv",
                                                         [Y,    N,    Y]),
    ("https://data.example.org/download/parks.csv",      [N,    Y,    Y]),
    // `D /download/city%2fbudget` keeps its %2F (upper-cased) and comes
    // before `A /download/` in the `*` record.
    ("https://data.example.org/download/city%2Fbudget.csv",
                                                         [N,    Y,    N]),
    ("https://data.example.org/download/city%2fbudget.csv",
                                                         [N,    Y,    N]),
    // A real slash does not match the rule's %2F.
    ("https://data.example.org/download/city/budget.csv",
                                                         [N,    Y,    Y]),
    ("https://data.example.org/download/private/keys.csv",
                                                         [N,    N,    Y]),
    // %2F is no `/`: `D /download/private/` does not match, so the
    // harvesters reach `A /download/`.
    ("https://data.example.org/download/private%2Fkeys.csv",
                                                         [N,    Y,    Y]),
    // Nor does `A /download/` match /download%2F...: `D /`.
    ("https://data.example.org/download%2Fprivate/keys.csv",
                                                         [N,    N,    N]),
    ("https://data.example.org/exports/parks.csv",       [N,    N,    Y]),
    // No wildcards (5.3): `D /exports/*.zip` only matches a literal `*`.
    ("https://data.example.org/exports/all.zip",         [N,    N,    Y]),
    ("https://data.example.org/exports/*.zip",           [N,    N,    N]),
    ("https://data.example.org/search?q=parks",          [N,    N,    N]),
    // `/api/` is no prefix of /api: `D /` everywhere.
    ("https://data.example.org/api",                     [N,    N,    N]),
    // First match beats the longer rule: for datafinder `D /api/` comes
    // before `A /api/v2/catalog`; in `*`, the allow comes first.
    ("https://data.example.org/api/v2/catalog",          [N,    Y,    Y]),
    ("https://data.example.org/api/v2/catalog?format=json",
                                                         [N,    Y,    Y]),
    ("https://data.example.org/api/v2/catalog.json",     [N,    Y,    Y]),
    // %76 is `v`: /api/v2/catalog.
    ("https://data.example.org/api/%762/catalog",        [N,    Y,    Y]),
    ("https://data.example.org/api/v2/datasets/parks",   [N,    Y,    N]),
];

/// A builder per engine, and the limits that force the fallbacks, as in
/// `conformance.rs`.
fn builders() -> Vec<(&'static str, MatcherBuilder)> {
    let mut all: Vec<(&'static str, MatcherBuilder)> = EngineKind::ALL
        .into_iter()
        .map(|engine| {
            let mut b = MatcherBuilder::new();
            b.engine(engine);
            (engine.name(), b)
        })
        .collect();
    let mut b = MatcherBuilder::new();
    b.engine(EngineKind::Dense).dense_size_limit(1).determinize_size_limit(1);
    all.push(("dense forced to split and fall back", b));
    let mut b = MatcherBuilder::new();
    b.dense_size_limit(1).determinize_size_limit(1);
    all.push(("trie forced to fall back", b));
    let mut b = MatcherBuilder::new();
    b.engine(EngineKind::Lazy).lazy_cache_capacity(1);
    all.push(("lazy with a 1-byte cache", b));
    all
}

fn verdict_name(allowed: bool) -> &'static str {
    if allowed {
        "allowed"
    } else {
        "disallowed"
    }
}

/// The command's output for `agent`, from the table.
fn expected_csv(column: usize) -> String {
    let mut csv = String::from("url,verdict\n");
    for (url, verdicts) in VERDICTS {
        csv.push_str(&format!("{url},{}\n", verdict_name(verdicts[column])));
    }
    csv
}

#[test]
fn urls_file_is_the_table() {
    let urls: Vec<&str> = URLS.lines().collect();
    let table: Vec<&str> = VERDICTS.iter().map(|(url, _)| *url).collect();
    assert_eq!(urls, table);
    // None needs quoting in CSV, so expected_csv can print them as they
    // are.
    assert!(urls.iter().all(|u| !u.contains([',', '"', '\r'])));
}

#[test]
fn records_are_chosen_by_substring() {
    let robots = Robots::parse(DATA_TXT.as_bytes());
    let agent = |v: &str| GroupMatch::Agent(v.as_bytes().to_vec());
    for (caller, want) in [
        ("DataFinder/1.2", agent("datafinder")),
        ("datafinder", agent("datafinder")),
        ("DATAFINDER", agent("datafinder")),
        // The first record's first value containing the token wins:
        // "finder" and "data" are in `datafinder` (and "data" in
        // `OpenDataHarvester` too, a record later).
        ("Finder", agent("datafinder")),
        ("data", agent("datafinder")),
        ("Preview/2.0", agent("DataFinder-Preview")),
        ("Harvester", agent("OpenDataHarvester")),
        (
            "Harvester/3.0 (+https://harvest.example.net)",
            agent("OpenDataHarvester"),
        ),
        ("harvest", agent("OpenDataHarvester")),
        ("CKAN-Harvest/2.9", agent("ckan-harvest")),
        // The name token ends at white space: "Open".
        ("Open Data Robot", agent("OpenDataHarvester")),
        ("BadBot", agent("BadBot")),
        // "bot" is in no value before `BadBot`.
        ("bot", agent("BadBot")),
        ("SomeBot", GroupMatch::Star),
        ("FigTree/0.1 Robot libwww-perl/5.04", GroupMatch::Star),
    ] {
        let m =
            MatcherBuilder::new().build(&robots, caller, Dialect::Draft1996);
        assert_eq!(m.group(), &want, "agent {caller:?}");
    }
}

#[test]
fn verdicts_every_engine() {
    let robots = Robots::parse(DATA_TXT.as_bytes());
    let mut failures = vec![];
    let mut checked = 0;
    for (label, builder) in builders() {
        for (column, agent) in AGENTS.into_iter().enumerate() {
            let m = builder.build(&robots, agent, Dialect::Draft1996);
            let mut scratch = m.scratch();
            for (url, verdicts) in VERDICTS {
                let got = m.verdict(url.as_bytes(), &mut scratch);
                checked += 1;
                if got.is_allowed() != verdicts[column] {
                    failures.push(format!(
                        "{label}: agent {agent:?} url {url:?}: want {}, \
                         got {got:?}",
                        verdict_name(verdicts[column]),
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} verdicts differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn blank_line_leaves_badbot_without_rules() {
    // 5.1: the blank line ends BadBot's record, and the `Disallow: /`
    // after it belongs to no record, so BadBot may fetch everything.
    // RFC 9309 has no such rule: there the group holds `Disallow: /`.
    let robots = Robots::parse(DATA_TXT.as_bytes());
    for (label, builder) in builders() {
        let m = builder.build(&robots, "BadBot", Dialect::Draft1996);
        assert_eq!(m.rules().len(), 0, "{label}");
        let mut scratch = m.scratch();
        for (url, _) in VERDICTS {
            let got = m.verdict(url.as_bytes(), &mut scratch);
            assert!(got.is_allowed(), "{label}: {url}: {got:?}");
        }
        let m = builder.build(&robots, "BadBot", Dialect::Rfc9309);
        let got =
            m.verdict(b"https://data.example.org/datasets/", &mut m.scratch());
        assert!(!got.is_allowed(), "{label}: rfc9309: {got:?}");
    }
}

/// Cases where RFC 9309 reads the same file differently: (agent, URL,
/// allowed under draft1996, allowed under rfc9309).
const DIALECTS_DIFFER: &[(&str, &str, bool, bool)] = &[
    // Longest match: `Allow: /api/v2/catalog` (15 bytes) beats
    // `Disallow: /api/` (5), though it comes later.
    (
        "DataFinder",
        "https://data.example.org/api/v2/catalog?format=json",
        N,
        Y,
    ),
    // `*` is a wildcard: `Disallow: /exports/*.zip` matches, and is
    // longer than `Allow: /exports/`.
    ("SomeBot", "https://data.example.org/exports/all.zip", Y, N),
    // No substring match: no group is named exactly `Harvester`, so the
    // `*` group applies, where `Disallow: /download/city%2Fbudget` wins.
    ("Harvester", "https://data.example.org/download/city%2Fbudget.csv", Y, N),
    // A blank line ends no group: BadBot's group holds `Disallow: /`.
    ("BadBot", "https://data.example.org/datasets/", Y, N),
];

#[test]
fn rfc9309_reads_it_differently() {
    let robots = Robots::parse(DATA_TXT.as_bytes());
    for (label, builder) in builders() {
        for &(agent, url, draft, rfc) in DIALECTS_DIFFER {
            for (dialect, want) in
                [(Dialect::Draft1996, draft), (Dialect::Rfc9309, rfc)]
            {
                let m = builder.build(&robots, agent, dialect);
                let got = m.verdict(url.as_bytes(), &mut m.scratch());
                assert_eq!(
                    got.is_allowed(),
                    want,
                    "{label}: {dialect} agent {agent:?} url {url:?}: {got:?}"
                );
            }
        }
    }
}

/// Runs the command and returns its standard output. An agent that is not
/// a valid product token (`DataFinder/1.2`) may get a warning on standard
/// error, so for it only the exit code is checked.
fn run(cmd: &mut TestCommand, agent: &str) -> String {
    if robots_batch::is_valid_product_token(agent) {
        cmd.stdout()
    } else {
        let out = cmd.assert_exit_code(0);
        String::from_utf8(out.stdout).unwrap()
    }
}

rbtest!(datatxt_command_draft1996, |dir: Dir, _: TestCommand| {
    dir.create("data.txt", DATA_TXT);
    dir.create("urls.txt", URLS);
    for (column, agent) in AGENTS.into_iter().enumerate() {
        let want = expected_csv(column);
        // The command of datasets/datatxt/README.md.
        let mut cmd = dir.command();
        cmd.args(["--dialect", "draft1996", "-a", agent])
            .args(["data.txt", "urls.txt"]);
        eqnice!(want, run(&mut cmd, agent));
        for engine in EngineKind::ALL {
            let mut cmd = dir.command();
            cmd.args(["--dialect", "draft1996", "--engine", engine.name()])
                .args(["--agent", agent, "data.txt", "urls.txt"]);
            eqnice!(want, run(&mut cmd, agent));
        }
        // Standard input and one-byte chunks give the same rows.
        let mut cmd = dir.command();
        cmd.args(["--dialect=draft1996", "-j3", "--chunk-size", "1"])
            .args(["-a", agent, "data.txt", "-"])
            .stdin(URLS);
        eqnice!(want, run(&mut cmd, agent));
    }
});

rbtest!(datatxt_command_dialect_matters, |dir: Dir, _: TestCommand| {
    dir.create("data.txt", DATA_TXT);
    dir.create("urls.txt", URLS);
    for &(agent, url, draft, rfc) in DIALECTS_DIFFER {
        for (args, want) in [
            (&["--dialect", "draft1996"][..], draft),
            (&["--dialect", "rfc9309"], rfc),
            // rfc9309 is the default: the flag is needed for data.txt.
            (&[], rfc),
        ] {
            let got = dir
                .command()
                .args(args)
                .args(["-a", agent, "data.txt", "urls.txt"])
                .stdout();
            let row = format!("{url},{}", verdict_name(want));
            assert!(
                got.lines().any(|l| l == row),
                "{args:?} -a {agent}: no row {row:?} in\n{got}"
            );
        }
    }
});

/// The draft's percent corners (`SEMANTICS.md` 5.3, and the README's
/// data.txt section), each written down from three rules:
///
/// 1. escapes are decoded once, left to right: the octets a decoding
///    gives are never decoded again, so `%2%46` and `%%32F` give the
///    octets `%2F`, as `%252F` does, and no encoded slash;
/// 2. a `%` that starts no escape (`%` then two hex digits) is the octet
///    `%` itself, the same octet as `%25`;
/// 3. only the octet `/` stays encoded (`%2F`, any case), and it equals
///    neither `/` nor the octets `%2F`.
#[test]
fn percent_corners() {
    #[rustfmt::skip]
    let cases: &[(&str, &str, bool)] = &[
        // (pattern of `Disallow:`, path, allowed)
        ("/a%2F", "/a%2F", false),     // 3: an encoded slash is itself
        ("/a%2F", "/a%2f", false),     // 3: in any case
        ("/a%2F", "/a/", true),        // 3: and no `/`
        ("/a%2F", "/a%252F", true),    // 1: the octets `%2F`
        ("/a%2F", "/a%2%46", true),    // 1, 2: `%2%` starts no escape
        ("/a%2F", "/a%%32F", true),    // 1, 2: `%%3` neither
        ("/a%252F", "/a%2%46", false), // 1, 2: the same octets `%2F`
        ("/a%252F", "/a%%32F", false), // 1, 2
        ("/%", "/%2f", true),          // 2, 3: `%` is not an encoded slash
        ("/%", "/%25", false),         // 2: `%` and `%25` are one octet
        ("/%", "/%zz", false),         // 2
        ("/%", "/%41", true),          // 1: `%41` is `A`
        ("/%25", "/%", false),         // 2
        ("/%41", "/A", false),         // 1: other escapes are decoded
        ("/a%2", "/a%2F", true),       // 2, 3: `%2` is `%` then `2`
    ];
    for (pattern, path, allowed) in cases {
        let robots = format!("User-agent: *\nDisallow: {pattern}\n");
        let robots = Robots::parse(robots.as_bytes());
        for (engine, builder) in builders() {
            let m = builder.build(&robots, "bot", Dialect::Draft1996);
            let mut scratch = m.scratch();
            let got = m.verdict(path.as_bytes(), &mut scratch).is_allowed();
            assert_eq!(got, *allowed, "{engine}: Disallow: {pattern} {path}");
        }
    }
}
