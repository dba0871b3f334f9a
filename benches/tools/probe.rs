//! Quick probe: compile time, strategy and paths per second per engine on
//! one robots.txt with URLs generated from its patterns.
use robots_batch::{Dialect, EngineKind, MatcherBuilder, Robots};
use std::time::Instant;
fn main() {
    env_logger::init();
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[1]).unwrap();
    let n: usize = args.get(2).map_or(200_000, |s| s.parse().unwrap());
    let dialect: Dialect =
        args.get(3).map_or(Dialect::Rfc9309, |s| s.parse().unwrap());
    let robots = Robots::parse(&bytes);
    let urls = robots_batch::sample::urls(&robots, n, 1);
    let mut counts = vec![];
    println!("avg url len {:.1}", avg(&urls));
    let kinds: Vec<EngineKind> = std::env::var("ENGINES")
        .unwrap_or("trie,dense,naive".into())
        .split(',')
        .map(|s| s.parse().unwrap())
        .collect();
    for kind in kinds.iter().copied() {
        let t = Instant::now();
        let mut b = MatcherBuilder::new();
        if let Ok(l) = std::env::var("DET") {
            let l: usize = l.parse().unwrap();
            b.determinize_size_limit(l).dense_size_limit(2 * l);
        }
        let m = b.engine(kind).build(&robots, "*", dialect);
        let compile = t.elapsed();
        let mut s = m.scratch();
        let t = Instant::now();
        let nn = if kind == EngineKind::Naive {
            urls.len().min(20_000)
        } else {
            urls.len()
        };
        let mut dis = 0;
        let mut v = vec![];
        for u in &urls[..nn] {
            let x = m.verdict(u, &mut s);
            v.push(x.is_allowed());
            if !x.is_allowed() {
                dis += 1;
            }
        }
        let el = t.elapsed();
        println!("{:6} {:10} rules={:6} compile={:>10.3?} mem={:>10} {:>8.2} M paths/s disallowed={}/{}",
            kind.name(), m.strategy(), m.rules().len(), compile, m.memory_usage(), nn as f64 / el.as_secs_f64() / 1e6, dis, nn);
        counts.push(v);
    }
    if counts.len() == 3 {
        let k = counts[2].len();
        assert_eq!(counts[0][..k], counts[2][..], "trie != naive");
        assert_eq!(counts[1][..k], counts[2][..], "lazy != naive");
    }
}
#[allow(dead_code)]
fn avg(urls: &[Vec<u8>]) -> f64 {
    urls.iter().map(|u| u.len()).sum::<usize>() as f64 / urls.len() as f64
}
