//! The README's table of where the dialects differ is true: every row,
//! every dialect, through every engine of the library and through the
//! binary.

use robots_batch::{Dialect, EngineKind, MatcherBuilder, Robots};

use crate::util::Dir;

const README: &str = include_str!("../README.md");

const DIALECTS: [Dialect; 4] =
    [Dialect::Rfc9309, Dialect::Google, Dialect::Draft1996, Dialect::Orig1994];

#[derive(Debug)]
struct Row {
    what: String,
    robots: String,
    agent: String,
    url: String,
    /// One verdict per dialect, in the order of [`DIALECTS`].
    allowed: Vec<bool>,
}

/// Strips the backticks around a table cell's code span.
fn code(cell: &str) -> String {
    let cell = cell.trim();
    cell.strip_prefix('`')
        .and_then(|c| c.strip_suffix('`'))
        .unwrap_or_else(|| panic!("cell {cell:?} is not a code span"))
        .to_string()
}

/// The rows of the table under "### Dialects".
fn rows() -> Vec<Row> {
    let section = README
        .split("\n### Dialects\n")
        .nth(1)
        .expect("the README has a Dialects section");
    let header = "| Difference | robots.txt | agent | URL | rfc9309 | google \
                  | draft1996 | orig1994 |";
    let table = section
        .split_once(header)
        .expect("the Dialects section has its table")
        .1;
    let mut rows = vec![];
    for line in table.lines().skip(2) {
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
        assert_eq!(cells.len(), 8, "row {line:?}");
        let robots =
            cells[1].split(" / ").map(|l| code(l) + "\n").collect::<String>();
        let allowed = cells[4..]
            .iter()
            .map(|c| match c.trim() {
                "allowed" => true,
                "disallowed" => false,
                other => panic!("verdict {other:?} in row {line:?}"),
            })
            .collect();
        rows.push(Row {
            what: cells[0].trim().to_string(),
            robots,
            agent: code(cells[2]),
            url: code(cells[3]),
            allowed,
        });
    }
    rows
}

#[test]
fn dialect_table_has_every_row() {
    // Guards the parser above: a table that stopped parsing would pass
    // the tests below with nothing checked.
    let rows = rows();
    assert_eq!(rows.len(), 8, "{rows:#?}");
    for row in &rows {
        // Every row shows a difference: not all dialects agree.
        assert!(
            row.allowed.iter().any(|&a| a != row.allowed[0]),
            "row {:?} shows no difference",
            row.what
        );
    }
}

#[test]
fn dialect_table_through_the_library() {
    for row in rows() {
        let robots = Robots::parse(row.robots.as_bytes());
        for (&dialect, &want) in DIALECTS.iter().zip(&row.allowed) {
            for engine in EngineKind::ALL {
                let m = MatcherBuilder::new()
                    .engine(engine)
                    .build(&robots, &row.agent, dialect);
                let got = m.verdict(row.url.as_bytes(), &mut m.scratch());
                assert_eq!(
                    got.is_allowed(),
                    want,
                    "{:?}: {} with engine {} on {:?} (robots {:?})",
                    row.what,
                    dialect.name(),
                    engine.name(),
                    row.url,
                    row.robots,
                );
            }
        }
    }
}

#[test]
fn dialect_table_through_the_binary() {
    let dir = Dir::new("readme_dialect_table");
    for (i, row) in rows().into_iter().enumerate() {
        let robots = format!("robots{i}.txt");
        let urls = format!("urls{i}.txt");
        dir.create(&robots, &row.robots);
        dir.create(&urls, format!("{}\n", row.url));
        for (&dialect, &want) in DIALECTS.iter().zip(&row.allowed) {
            let out = dir
                .command()
                .args(["--no-header", "--dialect", dialect.name()])
                .args(["-a", &row.agent, &robots, &urls])
                .stdout();
            let want = if want { "allowed" } else { "disallowed" };
            assert_eq!(
                out,
                format!("{},{want}\n", row.url),
                "{:?}: {}",
                row.what,
                dialect.name()
            );
        }
    }
}

/// The shell sessions of the README (`sh` blocks whose lines start with
/// `$ `), each command with the output printed under it.
fn sessions() -> Vec<(String, Vec<String>)> {
    let mut sessions: Vec<(String, Vec<String>)> = vec![];
    let (mut fenced, mut in_sh) = (false, false);
    // Whether the lines now read are the output of the last command.
    let mut output = false;
    for line in README.lines() {
        if let Some(info) = line.strip_prefix("```") {
            fenced = !fenced;
            in_sh = fenced && info.trim() == "sh";
            output = false;
            continue;
        }
        if !in_sh {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            sessions.push((command.to_string(), vec![]));
            output = true;
        } else if let (true, Some((_, out))) = (output, sessions.last_mut()) {
            out.push(line.to_string());
        }
    }
    sessions
}

/// Whether `got` is `want`, where a `...` line of `want` stands for any
/// number of lines.
fn matches(want: &[String], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((w, rest)) if w == "..." => {
            (0..=got.len()).any(|skip| matches(rest, &got[skip..]))
        }
        Some((w, rest)) => {
            got.first() == Some(&w.as_str()) && matches(rest, &got[1..])
        }
    }
}

/// Every command the README shows runs, in order, in one directory
/// holding `datasets/` (and `../shared` when it is there), and prints what
/// the README says it prints.
#[test]
fn readme_commands_run_as_shown() {
    let sessions = sessions();
    assert!(sessions.len() >= 10, "the README's sessions: {sessions:#?}");
    let dir = Dir::new("readme_commands");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::os::unix::fs::symlink(
        root.join("datasets"),
        dir.path().join("datasets"),
    )
    .unwrap();
    let shared = root.join("../shared");
    let have_shared = shared.is_dir();
    if have_shared {
        let beside = dir.path().parent().unwrap().join("shared");
        let _ = std::os::unix::fs::symlink(&shared, beside);
    }
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_robots-batch"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (command, want) in sessions {
        if command.contains("../shared") && !have_shared {
            crate::util::skip("readme_commands_run_as_shown", &command);
            continue;
        }
        let out = std::process::Command::new("sh")
            .args(["-c", &command])
            .current_dir(dir.path())
            .env("PATH", &path)
            .env_remove("RUST_LOG")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let got: Vec<&str> = stdout.lines().collect();
        assert!(
            matches!(out.status.code(), Some(0 | 1)) && matches(&want, &got),
            "README command {command:?} (exit {:?}) printed\n{stdout}\
             stderr:\n{}\nwhere the README shows\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr),
            want.join("\n"),
        );
    }
}
