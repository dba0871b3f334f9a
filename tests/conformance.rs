//! Every case of the conformance vectors, through the library, for every
//! dialect and every engine. `tests/data/vectors.jsonl` is this project's
//! copy of `../shared/conformance/vectors.jsonl` (a test below checks that
//! the two agree when `../shared` is there).

use robots_batch::{Dialect, EngineKind, MatcherBuilder, Robots};

pub struct Vector {
    pub id: String,
    pub title: String,
    pub agent: String,
    pub url: String,
    pub robots: Vec<u8>,
    pub expect: Vec<(Dialect, bool)>,
}

pub fn vectors() -> Vec<Vector> {
    use base64::Engine as _;
    let text = include_str!("data/vectors.jsonl");
    text.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let robots = match v.get("robots") {
                Some(r) => r.as_str().unwrap().as_bytes().to_vec(),
                None => base64::engine::general_purpose::STANDARD
                    .decode(v["robots_base64"].as_str().unwrap())
                    .unwrap(),
            };
            let expect = v["expect"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(d, want)| {
                    (
                        d.parse::<Dialect>().unwrap(),
                        want.as_str().unwrap() == "allowed",
                    )
                })
                .collect();
            Vector {
                id: v["id"].as_str().unwrap().to_string(),
                title: v["title"].as_str().unwrap().to_string(),
                agent: v["agent"].as_str().unwrap().to_string(),
                url: v["url"].as_str().unwrap().to_string(),
                robots,
                expect,
            }
        })
        .collect()
}

fn check_engine(builder: &MatcherBuilder, label: &str) {
    let mut failures = vec![];
    let mut total = 0;
    for v in vectors() {
        let robots = Robots::parse(&v.robots);
        for &(dialect, want) in &v.expect {
            total += 1;
            let m = builder.build(&robots, &v.agent, dialect);
            let got = m.verdict(v.url.as_bytes(), &mut m.scratch());
            if got.is_allowed() != want {
                failures.push(format!(
                    "{} [{dialect}] {}: agent={:?} url={:?} want allowed={want}, got {got:?}",
                    v.id, v.title, v.agent, v.url
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{label}: {} of {total} cases fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(total > 1600, "only {total} cases were checked");
}

#[test]
fn vectors_trie() {
    check_engine(MatcherBuilder::new().engine(EngineKind::Trie), "trie");
}

#[test]
fn vectors_dense() {
    check_engine(MatcherBuilder::new().engine(EngineKind::Dense), "dense");
}

#[test]
fn vectors_dense_forced_split_and_fallback() {
    // Limits so small that every set of patterns must be split, and the
    // split gives up: the lazy DFA must answer, and answer right.
    check_engine(
        MatcherBuilder::new()
            .engine(EngineKind::Dense)
            .dense_size_limit(1)
            .determinize_size_limit(1),
        "dense forced to split and fall back",
    );
}

#[test]
fn vectors_naive() {
    check_engine(MatcherBuilder::new().engine(EngineKind::Naive), "naive");
}

#[test]
fn vectors_scan() {
    check_engine(MatcherBuilder::new().engine(EngineKind::Scan), "scan");
}

#[test]
fn vectors_lazy() {
    check_engine(MatcherBuilder::new().engine(EngineKind::Lazy), "lazy");
}

#[test]
fn vectors_lazy_tiny_cache() {
    // A cache so small that it is cleared all the time: still exact.
    check_engine(
        MatcherBuilder::new().engine(EngineKind::Lazy).lazy_cache_capacity(1),
        "lazy with a 1-byte cache",
    );
}

#[test]
fn vectors_trie_forced_fallback() {
    // Limits so small that no dense DFA fits: the trie engine must fall back
    // and still give every expected verdict.
    check_engine(
        MatcherBuilder::new().dense_size_limit(1).determinize_size_limit(1),
        "trie forced to fall back",
    );
}

#[test]
fn vectors_in_sync_with_shared() {
    let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/conformance/vectors.jsonl");
    let Ok(theirs) = std::fs::read_to_string(&shared) else {
        crate::util::skip(
            "vectors_in_sync_with_shared",
            &format!("{} is absent", shared.display()),
        );
        return;
    };
    assert_eq!(
        theirs,
        include_str!("data/vectors.jsonl"),
        "tests/data/vectors.jsonl differs from {}: copy it again",
        shared.display()
    );
}

#[test]
fn google_aux_cases() {
    // The other assertions of Google's unit tests: product-token validity,
    // URL to path and pattern escaping.
    let text = include_str!("data/google-unit-tests-aux.jsonl");
    let mut n = 0;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let input = v["input"].as_str().unwrap();
        match v["kind"].as_str().unwrap() {
            "valid_user_agent_to_obey" => {
                assert_eq!(
                    robots_batch::is_valid_product_token(input),
                    v["expected"].as_bool().unwrap(),
                    "{input:?}"
                );
            }
            "path_params_query" => {
                assert_eq!(
                    robots_batch::extract_path(input.as_bytes()).to_vec(),
                    v["expected"].as_str().unwrap().as_bytes(),
                    "{input:?}"
                );
            }
            "escape_pattern" => {
                assert_eq!(
                    robots_batch::normalize_pattern(
                        Dialect::Google,
                        input.as_bytes()
                    ),
                    v["expected"].as_str().unwrap().as_bytes(),
                    "{input:?}"
                );
            }
            other => panic!("unknown kind {other}"),
        }
        n += 1;
    }
    assert_eq!(n, 34);
}
