//! The objects a run needs, built from the flags: ripgrep's "high args".

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::Context;
use robots_batch::{
    is_valid_product_token, product_token, Batch, BatchBuilder, Dialect,
    Matcher, MatcherBuilder, MmapChoice, Robots, WarningKind,
};

use crate::cli::Args;

/// Where the URLs come from.
#[derive(Debug)]
pub enum Input {
    /// Standard input (`-`).
    Stdin,
    /// A file, by the path given on the command line.
    Path(PathBuf),
}

impl Input {
    /// The input's name in messages.
    pub fn name(&self) -> String {
        match *self {
            Input::Stdin => "<stdin>".to_string(),
            Input::Path(ref path) => path.display().to_string(),
        }
    }
}

/// Everything a run needs, built and validated.
#[derive(Debug)]
pub struct Config {
    /// One compiled matcher per agent, in the order given.
    pub matchers: Vec<Matcher>,
    /// The agents, in the order given.
    pub agents: Vec<String>,
    /// The worker pool and its chunking.
    pub batch: Batch,
    /// The URLs.
    pub input: Input,
    /// Print the CSV header.
    pub header: bool,
    /// Print counts and throughput at the end.
    pub stats: bool,
}

impl Config {
    /// Reads and parses the robots.txt, compiles it for each agent, and
    /// starts the worker pool. Warnings about the input are printed here.
    pub fn from_args(args: Args) -> anyhow::Result<Config> {
        let bytes = read_robots(&args.robots)?;
        let robots = Robots::parse_with_limit(&bytes, args.max_robots_bytes);
        drop(bytes);
        for warning in robots.warnings() {
            let over =
                matches!(warning.kind, WarningKind::OverParseLimit { .. });
            if over || args.warnings {
                message!("{}: {}", args.robots.display(), warning);
            }
        }

        // N.B. One agent for now; the pipeline already takes one matcher
        // per agent, so more need only a flag and a header.
        let agents = vec![args.agent];
        for agent in &agents {
            warn_agent(agent, args.dialect);
        }
        let mut builder = MatcherBuilder::new();
        builder.engine(args.engine);
        let matchers: Vec<Matcher> = agents
            .iter()
            .map(|agent| {
                let matcher = builder.build(&robots, agent, args.dialect);
                log::debug!(
                    "agent {agent:?}: {} rules, {} ({} bytes)",
                    matcher.rules().len(),
                    matcher.strategy(),
                    matcher.memory_usage()
                );
                matcher
            })
            .collect();

        let mut batch = BatchBuilder::new();
        batch.threads(args.threads.unwrap_or(0));
        if let Some(bytes) = args.chunk_size {
            batch.chunk_size(bytes);
        }
        // SAFETY: the URL file is mapped only while this process reads it.
        // If another process truncates it meanwhile, reading the lost pages
        // raises SIGBUS and ends the process; if it rewrites it, some rows
        // may come from the new contents. Like ripgrep, we accept this for
        // a command-line tool: the speed is worth it, and the user owns the
        // file. Standard input and pipes are never mapped.
        batch.memory_map(unsafe { MmapChoice::auto() });
        let batch = batch.build().context("failed to start worker threads")?;

        let input = if args.urls.as_os_str() == "-" {
            Input::Stdin
        } else {
            Input::Path(args.urls)
        };
        Ok(Config {
            matchers,
            agents,
            batch,
            input,
            header: !args.no_header,
            stats: args.stats,
        })
    }
}

fn read_robots(path: &Path) -> anyhow::Result<Vec<u8>> {
    let mut file = File::open(path)
        .with_context(|| format!("failed to open {}", path.display()))?;
    let mut bytes = vec![];
    file.read_to_end(&mut bytes)
        .with_context(|| format!("failed to read {}", path.display()))?;
    Ok(bytes)
}

/// Warns about an agent that cannot match a group by name as given.
///
/// Only RFC 9309 and Google compare product tokens exactly; the older
/// standards take the agent's name token (up to a `/` or a space) and
/// look for it as a substring, so `FigTree/0.1 Robot` is their normal
/// form.
fn warn_agent(agent: &str, dialect: Dialect) {
    let exact = matches!(dialect, Dialect::Rfc9309 | Dialect::Google);
    if !exact || agent == "*" || is_valid_product_token(agent) {
        return;
    }
    let token = product_token(agent);
    if token.is_empty() {
        message!(
            "agent {agent:?} is not a valid product token (letters, '-' and \
             '_' only), so it may match no group"
        );
    } else {
        message!(
            "agent {agent:?} is not a valid product token (letters, '-' and \
             '_' only), so it may match no group; did you mean {token:?}?"
        );
    }
}
