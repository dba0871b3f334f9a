//! The agent flags, `-a`, `--agents-file` and `--agents`: one definition,
//! flattened into every subcommand that judges agents, so that each means
//! the same thing everywhere.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use anyhow::Context;

/// Which agents to judge.
#[derive(Debug, clap::Args)]
pub struct AgentArgs {
    /// The crawler's product token [default: *]; repeat it, or separate
    /// agents with commas, to judge several agents in one pass.
    ///
    /// Groups naming it apply (compared case-insensitively); without one, or
    /// with the default `*`, only the `*` groups apply. An agent that is not
    /// a valid product token (letters, `-` and `_`) is used as given, with a
    /// warning naming the token it could mean (`FooBot/1.0` means
    /// `FooBot`). An empty agent names no group: only the `*` groups apply,
    /// with a warning. Several agents come from -a, --agents-file and
    /// --agents together, in that order, duplicates dropped (compared
    /// case-insensitively).
    #[arg(
        short,
        long,
        value_name = "AGENT",
        value_delimiter = ',',
        action = clap::ArgAction::Append,
    )]
    pub agent: Vec<String>,

    /// Also judge the agents listed in FILE, one per line.
    ///
    /// Lines are trimmed; empty lines and lines starting with `#` are
    /// skipped. `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    pub agents_file: Option<PathBuf>,

    /// Also judge a built-in list of agents: `ai`, the AI crawlers of
    /// ai.robots.txt's list, or `ai:CATEGORY`, those of one category
    /// (data-scrapers, data-providers, search-crawlers, assistants, agents,
    /// coding-agents, undocumented, other); repeat it or separate lists
    /// with commas.
    ///
    /// `robots-batch agents` prints the list (GPTBot, ClaudeBot, CCBot,
    /// Google-Extended, ...: name, token judged, category, operator) and
    /// `robots-batch agents --categories` the categories. Names that are
    /// not product tokens are judged by their leading token (`Kangaroo Bot`
    /// as `Kangaroo`) or, where that is another word (`AI2Bot`, read as
    /// `AI`), left out.
    #[arg(
        long = "agents",
        value_name = "LIST",
        value_delimiter = ',',
        value_parser = parse_agent_list,
        action = clap::ArgAction::Append
    )]
    pub lists: Vec<AgentList>,
}

impl AgentArgs {
    /// Whether any of the three flags was given.
    pub fn given(&self) -> bool {
        !self.agent.is_empty()
            || self.agents_file.is_some()
            || !self.lists.is_empty()
    }

    /// The agents to judge, as [`resolve_agents`]
    /// says: `*` when none is given.
    pub fn resolve(&self) -> anyhow::Result<Vec<String>> {
        resolve_agents(&self.agent, self.agents_file.as_deref(), &self.lists)
    }
}

/// A built-in agent list: `ai`, or `ai:CATEGORY`.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct AgentList {
    /// The category, or `None` for the whole list.
    pub category: Option<String>,
}

impl AgentList {
    /// The list's product tokens.
    pub fn tokens(&self) -> Vec<&'static str> {
        robots_batch::agents::ai_agent_tokens(self.category.as_deref())
            .unwrap_or_default()
    }
}

/// `ai` or `ai:CATEGORY`, with a category of the embedded list.
pub fn parse_agent_list(text: &str) -> Result<AgentList, String> {
    let category = match text.strip_prefix("ai") {
        Some("") => None,
        Some(rest) if rest.starts_with(':') => Some(rest[1..].to_string()),
        _ => {
            return Err(format!(
                "unknown agent list {text:?}: `ai` or `ai:CATEGORY`"
            ))
        }
    };
    let Some(category) = category else {
        return Ok(AgentList { category: None });
    };
    // The category as listed, whatever the case it was given in.
    let Some(&(known, _)) = robots_batch::agents::AI_CATEGORIES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(&category))
    else {
        let valid: Vec<&str> = robots_batch::agents::AI_CATEGORIES
            .iter()
            .map(|(c, _)| *c)
            .collect();
        return Err(format!(
            "no category {text:?} in the AI crawler list: the categories \
             are {} (see `robots-batch agents --categories`)",
            valid.join(", ")
        ));
    };
    Ok(AgentList { category: Some(known.to_string()) })
}

/// The agents of `-a`, `--agents-file` and `--agents`, as the
/// default command reads them,
/// for every command that takes the three.
pub fn resolve_agents(
    agent: &[String],
    agents_file: Option<&Path>,
    lists: &[AgentList],
) -> anyhow::Result<Vec<String>> {
    let mut agents: Vec<String> = agent.to_vec();
    if let Some(path) = agents_file {
        let bytes = if path.as_os_str() == "-" {
            let mut bytes = vec![];
            io::stdin().read_to_end(&mut bytes).map(|_| bytes)
        } else {
            std::fs::read(path)
        }
        .with_context(|| format!("failed to read {}", path.display()))?;
        let text = String::from_utf8(bytes).map_err(|_| {
            anyhow::anyhow!("{}: agents file is not UTF-8", path.display())
        })?;
        for line in text.lines() {
            let agent = line.trim();
            if !agent.is_empty() && !agent.starts_with('#') {
                agents.push(agent.to_string());
            }
        }
    }
    for list in lists {
        agents.extend(list.tokens().into_iter().map(str::to_string));
    }
    let mut seen = std::collections::HashSet::new();
    agents.retain(|a| seen.insert(a.to_ascii_lowercase()));
    no_empty_among_several(&agents)?;
    if agents.is_empty() {
        if let Some(path) = agents_file {
            anyhow::bail!("no agent in {} (one per line)", path.display());
        }
        agents.push("*".to_string());
    }
    Ok(agents)
}

/// An empty agent is meaningful alone (`-a ''`: only the `*` groups); among
/// several it is a stray comma (`-a GPTBot,`), and an error.
pub fn no_empty_among_several(agents: &[String]) -> anyhow::Result<()> {
    if agents.len() > 1 && agents.iter().any(|a| a.is_empty()) {
        anyhow::bail!(
            "an empty agent among several (a stray comma?); give -a '' \
             alone to judge the empty agent"
        );
    }
    Ok(())
}
