//! `robots-batch agents`: the AI crawler list that `--agents ai` judges,
//! with what each entry's name becomes.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context;
use robots_batch::{
    agents::ai_agents, agents::ai_categories, agents::AI_CATEGORIES,
};

use crate::cli::AgentsArgs;

/// Prints the list (or its categories) as CSV.
pub fn run(args: AgentsArgs) -> anyhow::Result<ExitCode> {
    let mut out = csv::Writer::from_writer(io::stdout().lock());
    let write = |out: &mut csv::Writer<_>, row: &[&str]| {
        out.write_record(row).context("failed to write output")
    };
    if args.categories {
        write(&mut out, &["category", "entries", "description"])?;
        for ((category, n), (_, what)) in
            ai_categories().into_iter().zip(AI_CATEGORIES)
        {
            write(&mut out, &[category, &n.to_string(), what])?;
        }
    } else {
        let header = [
            "name",
            "token",
            "google_reads",
            "category",
            "operator",
            "function",
        ];
        write(&mut out, &header)?;
        let category = args.list.category.as_deref();
        for a in ai_agents() {
            if category.is_some_and(|c| c != a.category) {
                continue;
            }
            let token = a.token.as_deref().unwrap_or("");
            let row = [&*a.name, token, &a.google_reads, a.category];
            write(
                &mut out,
                &[row[0], row[1], row[2], row[3], &a.operator, &a.function],
            )?;
        }
    }
    let mut inner = out.into_inner().map_err(|e| e.into_error())?;
    inner.flush().context("failed to write output")?;
    Ok(ExitCode::SUCCESS)
}
