//! `survey --history`: per period and agent, the sites with a capture in
//! effect and how they block the agent; carry-forward and its maximum age,
//! transitions, periods, the chart.

use crate::util::{Dir, TestCommand};

/// a.com disallows `/private` in all three captures, the same bytes each
/// time; b.com allows everything in January and blocks everything from
/// March; c.com blocks GPTBot, captured in January only.
fn fixture(dir: &Dir) {
    for d in ["jan", "mar", "jun"] {
        dir.create_dir(d);
        dir.create(
            format!("{d}/a.com.txt"),
            "User-agent: *\nDisallow: /private\n",
        );
    }
    dir.create("jan/b.com.txt", "User-agent: *\nAllow: /\n");
    dir.create("mar/b.com.txt", "User-agent: *\nDisallow: /\n");
    dir.create("jan/c.com.txt", "User-agent: GPTBot\nDisallow: /\n");
}

const DIRS: [&str; 6] = [
    "--robots-dir",
    "2024-01-15=jan",
    "--robots-dir",
    "2024-06-01=jun",
    "--robots-dir",
    "2024-03-01=mar",
];

fn history(cmd: &mut TestCommand) -> &mut TestCommand {
    cmd.args(["survey", "--history"]).args(DIRS)
}

const HEADER: &str = "period,agent,sites,full,partial,none,unknown,\
                      full_share,partial_share,none_share,unknown_share\n";

rbtest!(
    history_carries_captures_forward_for_at_most_n_months,
    |dir: Dir, mut cmd: TestCommand| {
        fixture(&dir);
        let got = history(&mut cmd)
            .args(["-a", "GPTBot", "--carry-forward", "2"])
            .args(["--transitions", "changes.csv"])
            .stdout();
        // c.com, captured on January 15th, counts in January, February and
        // March (it is at most two months old when March begins), and no
        // more; b.com's March capture counts until May.
        let want = HEADER.to_string()
            + "2024-01,GPTBot,3,1,1,1,0,0.3333,0.3333,0.3333,0.0000\n\
           2024-02,GPTBot,3,1,1,1,0,0.3333,0.3333,0.3333,0.0000\n\
           2024-03,GPTBot,3,2,1,0,0,0.6667,0.3333,0.0000,0.0000\n\
           2024-04,GPTBot,2,1,1,0,0,0.5000,0.5000,0.0000,0.0000\n\
           2024-05,GPTBot,2,1,1,0,0,0.5000,0.5000,0.0000,0.0000\n\
           2024-06,GPTBot,1,0,1,0,0,0.0000,1.0000,0.0000,0.0000\n";
        eqnice!(want, got);
        // b.com went from none to full; a.com's identical captures changed
        // nothing.
        let changes =
            std::fs::read_to_string(dir.path().join("changes.csv")).unwrap();
        eqnice!(
            "period,agent,site,from,to\n2024-03,GPTBot,b.com,none,full\n",
            changes
        );
    }
);

rbtest!(history_default_carries_a_year, |dir: Dir, mut cmd: TestCommand| {
    fixture(&dir);
    let got = history(&mut cmd).args(["-a", "GPTBot", "--no-header"]).stdout();
    // Every capture is still in effect in June.
    let want = "2024-01,GPTBot,3,1,1,1,0,0.3333,0.3333,0.3333,0.0000\n\
                2024-02,GPTBot,3,1,1,1,0,0.3333,0.3333,0.3333,0.0000\n\
                2024-03,GPTBot,3,2,1,0,0,0.6667,0.3333,0.0000,0.0000\n\
                2024-04,GPTBot,3,2,1,0,0,0.6667,0.3333,0.0000,0.0000\n\
                2024-05,GPTBot,3,2,1,0,0,0.6667,0.3333,0.0000,0.0000\n\
                2024-06,GPTBot,3,2,1,0,0,0.6667,0.3333,0.0000,0.0000\n";
    eqnice!(want, got);
});

rbtest!(
    history_identical_captures_are_one_site,
    |dir: Dir, mut cmd: TestCommand| {
        // Only a.com, the same bytes in three captures: one site each month,
        // partial throughout, and no transition.
        for d in ["jan", "mar", "jun"] {
            dir.create_dir(d);
            dir.create(
                format!("{d}/a.com.txt"),
                "User-agent: *\nDisallow: /private\n",
            );
        }
        let got = history(&mut cmd)
            .args(["-a", "CCBot", "--no-header", "--carry-forward", "0"])
            .args(["--transitions", "changes.csv"])
            .stdout();
        eqnice!(
            "2024-01,CCBot,1,0,1,0,0,0.0000,1.0000,0.0000,0.0000\n\
         2024-02,CCBot,0,0,0,0,0,,,,\n\
         2024-03,CCBot,1,0,1,0,0,0.0000,1.0000,0.0000,0.0000\n\
         2024-04,CCBot,0,0,0,0,0,,,,\n\
         2024-05,CCBot,0,0,0,0,0,,,,\n\
         2024-06,CCBot,1,0,1,0,0,0.0000,1.0000,0.0000,0.0000\n",
            got
        );
        let changes =
            std::fs::read_to_string(dir.path().join("changes.csv")).unwrap();
        // --no-header holds for the transitions too.
        eqnice!("", changes);
    }
);

rbtest!(history_by_year_and_by_crawl, |dir: Dir, mut cmd: TestCommand| {
    fixture(&dir);
    let got = history(&mut cmd)
        .args(["-a", "GPTBot,CCBot", "--period", "year", "--format", "tsv"])
        .stdout();
    eqnice!(
        HEADER.replace(',', "\t")
            + "2024\tGPTBot\t3\t2\t1\t0\t0\t0.6667\t0.3333\t0.0000\t0.0000\n\
               2024\tCCBot\t3\t1\t1\t1\t0\t0.3333\t0.3333\t0.3333\t0.0000\n",
        got
    );
    // One period per dated directory; with no carry-forward, a site
    // counts only in the crawls that captured it.
    let got = history(&mut dir.command())
        .args(["-a", "GPTBot", "--period", "crawl", "--carry-forward", "0"])
        .args(["--format", "jsonl", "--transitions", "changes.jsonl"])
        .stdout();
    let row = |period: &str, sites, full, partial, none, shares: &str| {
        format!(
            "{{\"period\":\"{period}\",\"agent\":\"GPTBot\",\"sites\":{sites},\
             \"full\":{full},\"partial\":{partial},\"none\":{none},\"unknown\":0,\
             {shares}}}\n"
        )
    };
    let want = row("2024-01-15", 3, 1, 1, 1, "\"full_share\":0.3333,\"partial_share\":0.3333,\"none_share\":0.3333,\"unknown_share\":0.0000")
        + &row("2024-03-01", 2, 1, 1, 0, "\"full_share\":0.5000,\"partial_share\":0.5000,\"none_share\":0.0000,\"unknown_share\":0.0000")
        + &row("2024-06-01", 1, 0, 1, 0, "\"full_share\":0.0000,\"partial_share\":1.0000,\"none_share\":0.0000,\"unknown_share\":0.0000");
    eqnice!(want, got);
    let changes =
        std::fs::read_to_string(dir.path().join("changes.jsonl")).unwrap();
    eqnice!(
        "{\"period\":\"2024-03-01\",\"agent\":\"GPTBot\",\"site\":\"b.com\",\
         \"from\":\"none\",\"to\":\"full\"}\n",
        changes
    );
});

rbtest!(history_from_an_index_with_dates, |dir: Dir, mut cmd: TestCommand| {
    // Dates as RFC 3339, 14-digit timestamps and seconds; a 503 blocks
    // fully, as the fetch policy says; lines in any order.
    dir.create(
        "index.jsonl",
        "{\"url\":\"https://a.com/robots.txt\",\"status\":503,\"date\":\"20240301000000\"}\n\
         {\"url\":\"https://a.com/robots.txt\",\"status\":200,\"body\":\"User-agent: *\\nAllow: /\\n\",\"date\":\"2024-01-10T08:00:00Z\"}\n\
         {\"url\":\"https://b.com/robots.txt\",\"status\":404,\"date\":\"1706745600\"}\n",
    );
    let got = cmd
        .args(["survey", "--history", "--robots-index", "index.jsonl"])
        .args(["-a", "GPTBot", "--no-header", "--transitions", "t.csv"])
        .stdout();
    eqnice!(
        "2024-01,GPTBot,1,0,0,1,0,0.0000,0.0000,1.0000,0.0000\n\
         2024-02,GPTBot,2,0,0,2,0,0.0000,0.0000,1.0000,0.0000\n\
         2024-03,GPTBot,2,1,0,1,0,0.5000,0.0000,0.5000,0.0000\n",
        got
    );
    let changes = std::fs::read_to_string(dir.path().join("t.csv")).unwrap();
    eqnice!("2024-03,GPTBot,https://a.com,none,full\n", changes);
});

rbtest!(history_plot, |dir: Dir, mut cmd: TestCommand| {
    fixture(&dir);
    history(&mut cmd)
        .args(["-a", "GPTBot,CCBot", "--plot", "history.svg"])
        .stdout();
    let svg = std::fs::read_to_string(dir.path().join("history.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    for text in [
        "GPTBot",
        "CCBot",
        "Sites that block each agent fully, by month",
        "sites blocking the agent fully (%)",
        "2024-03",
        "</svg>",
    ] {
        assert!(svg.contains(text), "no {text:?} in\n{svg}");
    }
    assert!(svg.contains("<polyline") || svg.contains("<path"), "{svg}");
});

rbtest!(history_bad_input, |dir: Dir, mut cmd: TestCommand| {
    fixture(&dir);
    let err = cmd
        .args(["survey", "--history", "--robots-dir", "jan", "-a", "GPTBot"])
        .assert_exit_code(2);
    eqnice!(
        "robots-batch: 3 undated captures left out: a history counts dated ones only\n\
         robots-batch: no dated capture: give directories with dates (--robots-dir \
         DATE=DIR), index lines with \"date\", or WARC files\n",
        err.stderr
    );
    let err = history(&mut dir.command())
        .args(["-a", "GPTBot", "--plot", "-"])
        .assert_error();
    eqnice!(
        "robots-batch: --plot needs a file: standard output holds the rows",
        err
    );
    let err = dir
        .command()
        .args(["survey", "--history", "robots.txt", "-a", "GPTBot"])
        .assert_error();
    assert!(
        err.contains("robots.txt files given by name have no date"),
        "{err}"
    );
    // The history's flags need --history, and --summary does not go with
    // it.
    dir.command()
        .args(["survey", "--period", "year"])
        .args(DIRS)
        .assert_exit_code(2);
    history(&mut dir.command()).arg("--summary").assert_exit_code(2);
    history(&mut dir.command())
        .args(["--carry-forward", "-1"])
        .assert_exit_code(2);
    // A date centuries away makes too many periods.
    dir.create(
        "far.jsonl",
        "{\"url\":\"https://a.com/robots.txt\",\"status\":404,\"date\":\"1970-01-01\"}\n\
         {\"url\":\"https://a.com/robots.txt\",\"status\":404,\"date\":\"99999999999\"}\n",
    );
    let err = dir
        .command()
        .args(["survey", "--history", "--robots-index", "far.jsonl"])
        .assert_error();
    assert!(err.contains("more than the 12000 a history holds"), "{err}");
});

rbtest!(history_readme_chart_is_current, |dir: Dir, mut cmd: TestCommand| {
    // docs/img/history.svg, shown in the README, is what its command
    // draws.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let index = root.join("datasets/history/captures.jsonl");
    cmd.args(["survey", "--history", "--robots-index"])
        .arg(&index)
        .args(["-a", "GPTBot,CCBot,ClaudeBot", "--plot", "history.svg"])
        .stdout();
    let drawn =
        std::fs::read_to_string(dir.path().join("history.svg")).unwrap();
    eqnice!(include_str!("../docs/img/history.svg"), drawn);
});
