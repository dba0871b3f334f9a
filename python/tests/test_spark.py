"""robots_batch inside Spark (local[2]): with_verdicts over real URLs and
robots.txt files against the command's output, and the command itself as
a streaming stage under RDD.pipe. Skips without Java, pyspark, the built
command or ../shared."""

import csv
import io
import json
import os
import random
import shutil
from urllib.parse import urlsplit

import pytest

from conftest import ROOT, run

N_URLS = 5000


def _rows(out):
    return list(csv.reader(io.StringIO(out.decode("utf-8", "replace"))))


def _real_urls(shared, n):
    path = os.path.join(shared, "datasets", "urls", "anubhavp28_robots_benchmark_site_links.txt")
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [line.rstrip("\r\n") for line in f]
    # A spread over the whole file (it is grouped by site), same every run.
    random.Random(9309).shuffle(lines)
    return lines[:n]


def _frame(spark, urls):
    return spark.createDataFrame([(i, u) for i, u in enumerate(urls)], "id long, url string")


def test_with_robots_equals_the_command(spark, shared, binary, tmp_path):
    from robots_batch.spark import with_verdicts

    robots = os.path.join(shared, "datasets", "robots", "ebay.com.txt")
    urls = _real_urls(shared, N_URLS)
    urls_file = tmp_path / "urls.txt"
    urls_file.write_text("\n".join(urls) + "\n", encoding="utf-8")
    want = _rows(run(binary, "--no-header", "--explain", "-a", "Googlebot", robots, str(urls_file)))
    assert len(want) == len(urls)

    df = _frame(spark, urls).repartition(3)
    out = with_verdicts(df, robots=open(robots, "rb").read(), agents="Googlebot", explain=True)
    assert out.columns == ["id", "url", "verdict", "line", "rule", "group", "reason"]
    got = {r["id"]: r for r in out.collect()}
    assert len(got) == len(urls)
    for i, row in enumerate(want):
        g = got[i]
        mine = [g["url"], g["verdict"], g["line"], g["rule"], g["group"], g["reason"]]
        assert ["" if v is None else str(v) for v in mine] == row, row


def _index(shared, urls, path):
    """A JSON Lines index of fetches for the URLs' hosts: the real
    robots.txt at https (where the dataset has one), http redirecting to
    https, and a few hosts down, gone or redirected away."""
    robots_dir = os.path.join(shared, "datasets", "robots")
    hosts = sorted({urlsplit(u).hostname or "" for u in urls} - {""})
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for k, host in enumerate(hosts):
            file = os.path.join(robots_dir, host + ".txt")
            https = f"https://{host}/robots.txt"
            if k % 17 == 0:
                rows = [{"url": https, "status": 503}]
            elif k % 19 == 0:
                rows = [{"url": https, "status": 404}]
            elif k % 23 == 0:
                rows = [{"url": https, "status": 301, "location": "https://elsewhere.invalid/robots.txt"}]
            elif os.path.exists(file):
                body = open(file, "rb").read()
                rows = [{"url": https, "status": 200, "body": body.decode("utf-8", "replace")}]
            else:
                continue
            rows.append({"url": f"http://{host}/robots.txt", "status": 301, "location": https})
            for row in rows:
                f.write(json.dumps(row) + "\n")
                n += 1
        # A loop, and chains of 5 redirects (followed) and 6 (one too many).
        rows = [
            {"url": "https://loop-a.invalid/robots.txt", "status": 301, "location": "https://loop-b.invalid/robots.txt"},
            {"url": "https://loop-b.invalid/robots.txt", "status": 302, "location": "https://loop-a.invalid/robots.txt"},
        ]
        for chain, hops in (("five", 5), ("six", 6)):
            for i in range(hops):
                rows.append({"url": f"https://{chain}{i}.invalid/robots.txt", "status": 301,
                             "location": f"https://{chain}{i + 1}.invalid/robots.txt"})
            rows.append({"url": f"https://{chain}{hops}.invalid/robots.txt", "status": 200,
                         "body": "User-agent: *\nDisallow: /\n"})
        for row in rows:
            f.write(json.dumps(row) + "\n")
            n += 1
    return n


def test_with_fetches_equals_the_command(spark, shared, binary, tmp_path):
    from robots_batch.spark import with_verdicts

    urls = _real_urls(shared, N_URLS) + [
        "not a url", "https://no-fetch.invalid/x", "https://loop-a.invalid/x",
        "https://five0.invalid/x", "https://six0.invalid/x", "https://six1.invalid/x",
    ]
    urls_file = tmp_path / "urls.txt"
    urls_file.write_text("\n".join(urls) + "\n", encoding="utf-8")
    index = tmp_path / "index.jsonl"
    assert _index(shared, urls, index) > 100
    agents = "GPTBot,Googlebot"
    want = _rows(run(binary, "crawl", "--no-header", "--explain", "--robots-index", str(index),
                     "-a", agents, str(urls_file)))
    # Several agents: the command writes a row per URL and agent.
    assert len(want) == 2 * len(urls)

    fetches = spark.read.json(str(index))
    df = _frame(spark, urls)
    out = with_verdicts(df, fetches=fetches, agents=agents.split(","), explain=True)
    # Small Arrow batches, so that origins' rows straddle batch boundaries.
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "97")
    try:
        got = {r["id"]: r for r in out.collect()}
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    assert len(got) == len(urls)
    reasons = set()
    for k, row in enumerate(want):
        g = got[k // 2]
        agent = row[1]
        names = [f"{agent}{s}" for s in ("", "_reason", "_robots", "_line", "_rule")]
        mine = [g["url"], agent] + [g[n] for n in names]
        assert ["" if v is None else str(v) for v in mine] == row, row
        reasons.add(g[f"{agent}_reason"])
    # The data covers the fetch classes, not only rules.
    assert {"rule", "status-5xx", "status-4xx", "redirect-missing", "redirect-limit",
            "no-robots", "no-host"} <= reasons
    # Five redirects are followed to the rules; six are one too many.
    by_url = {g["url"]: g for g in got.values()}
    assert by_url["https://five0.invalid/x"]["GPTBot_reason"] == "rule"
    assert by_url["https://six0.invalid/x"]["GPTBot_reason"] == "redirect-limit"
    assert by_url["https://six1.invalid/x"]["GPTBot_reason"] == "rule"
    assert by_url["https://loop-a.invalid/x"]["GPTBot_reason"] == "redirect-limit"


def test_rdd_pipe_streams_the_command(spark, binary):
    robots = os.path.join(ROOT, "datasets", "example", "robots.txt")
    with open(os.path.join(ROOT, "datasets", "example", "urls.txt"), encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f] * 40
    lines += ["", "  ", "https://example.com/a,b", 'https://example.com/"q"']
    want = run(binary, "--no-header", "-a", "GPTBot", robots, "-",
               stdin=("\n".join(lines) + "\n").encode()).decode().splitlines()
    assert len(want) == len(lines)
    rdd = spark.sparkContext.parallelize(lines, 3)
    got = rdd.pipe(f"{binary} --no-header -a GPTBot {robots} -").collect()
    # One line out per line in, in order within and across partitions.
    assert got == want


def readme_pipe_example():
    """The README's RDD.pipe example, as written there."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    section = readme.split("### The command as a streaming stage", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_readme_pipe_example_runs_as_written(spark, binary, tmp_path, monkeypatch):
    # As a user would: the command on PATH, the files in the working
    # directory, `sc` at hand.
    shutil.copy(os.path.join(ROOT, "datasets", "example", "robots.txt"), tmp_path)
    shutil.copy(os.path.join(ROOT, "datasets", "example", "urls.txt"), tmp_path / "crawl.log")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", os.path.dirname(binary) + os.pathsep + os.environ["PATH"])
    scope = {"sc": spark.sparkContext}
    exec(readme_pipe_example(), scope)
    want = run(binary, "--no-header", "-a", "GPTBot", "robots.txt", "crawl.log")
    assert scope["lines"].collect() == want.decode().splitlines()
    # A failing command fails the job: the example checks the exit status.
    os.remove(tmp_path / "robots.txt")
    scope = {"sc": spark.sparkContext}
    exec(readme_pipe_example(), scope)
    with pytest.raises(Exception):
        scope["lines"].collect()


def test_rdd_pipe_fails_the_job_when_the_command_fails(spark, binary):
    rdd = spark.sparkContext.parallelize(["https://example.com/"], 1)
    with pytest.raises(Exception, match="robots-batch|exit|Python|subprocess"):
        rdd.pipe(f"{binary} --no-header /nonexistent/robots.txt -", checkCode=True).collect()


def test_large_string_batches(spark):
    """Spark may send URLs as large_string (useLargeVarTypes): the verdict
    columns come back in kind."""
    from robots_batch.spark import with_verdicts

    robots = b"User-agent: *\nDisallow: /x\n"
    urls = spark.createDataFrame([("https://a.com/x",), ("https://b.com/y",), (None,)], "url string")
    fetches = spark.createDataFrame(
        [("https://a.com/robots.txt", 200, robots.decode(), None)],
        "url string, status int, body string, location string",
    )
    spark.conf.set("spark.sql.execution.arrow.useLargeVarTypes", "true")
    try:
        one = with_verdicts(urls, robots=robots, explain=True).collect()
        crawl = with_verdicts(urls, fetches=fetches).collect()
    finally:
        spark.conf.unset("spark.sql.execution.arrow.useLargeVarTypes")
    assert [(r.url, r.verdict, r.line) for r in one] == [
        ("https://a.com/x", "disallowed", 2), ("https://b.com/y", "allowed", None), (None, None, None),
    ]
    assert sorted((r.url or "", r.verdict or "", r.reason or "") for r in crawl) == [
        ("", "", ""), ("https://a.com/x", "disallowed", "rule"), ("https://b.com/y", "unknown", "no-robots"),
    ]
