//! The agent flags, `-a`, `--agents-file` and `--agents`: one definition,
//! flattened into every subcommand that judges agents, so that each means
//! the same thing everywhere.

use std::path::PathBuf;

use super::args::{parse_agent_list, AgentList};

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

    /// The agents to judge, as [`resolve_agents`](super::resolve_agents)
    /// says: `*` when none is given.
    pub fn resolve(&self) -> anyhow::Result<Vec<String>> {
        super::resolve_agents(
            &self.agent,
            self.agents_file.as_deref(),
            &self.lists,
        )
    }
}
