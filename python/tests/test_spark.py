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


def test_the_driver_keeps_one_fetch_per_key_as_the_window_does():
    """The broadcast path's choice of one fetch per key and date, made on
    the driver in Arrow (no Spark needed): every dated capture of a key,
    and of rows with one key and date (both null included) the first by
    status, location and body; rows without an origin are left out, and a
    table with one fetch per key and date comes back whole."""
    pa = pytest.importorskip("pyarrow")
    from robots_batch.spark import _first_per_key

    a = "https://a.com/robots.txt"
    table = pa.table({
        "at": [a, a, a, "http://a.com/robots.txt", "not a url", None,
               "https://b.com/x/robots.txt", "https://b.com/x/robots.txt", "https://c.com/robots.txt",
               "https://c.com/robots.txt"],
        "status": pa.array([200, 200, 500, 301, 200, 200, 404, 200, None, 200], pa.int32()),
        "body": pa.array([b"b", b"a", None, None, b"x", b"y", None, b"z", b"q", b"p"]),
        "location": [None, None, None, a, None, None, None, None, None, None],
        "date": ["2024-01-01", "2024-01-01", "2025-01-01", None, None, None, "2023", None, None, None],
    })

    def chosen(t):
        got = _first_per_key(t, False).to_pylist()
        return sorted((r["origin"] or r["url"], r.get("date") or "", r["status"], r["body"], r["location"])
                      for r in got)

    b_capture = "https://b.com/x/robots.txt"
    assert chosen(table) == [
        ("http://a.com", "", 301, None, a),
        ("https://a.com", "2024-01-01", 200, b"a", None),
        ("https://a.com", "2025-01-01", 500, None, None),
        (b_capture, "", 200, b"z", None),
        (b_capture, "2023", 404, None, None),
        ("https://c.com", "", 200, b"p", None),
    ]
    assert chosen(table.drop_columns(["date"])) == [
        ("http://a.com", "", 301, None, a),
        ("https://a.com", "", 200, b"a", None),
        (b_capture, "", 200, b"z", None),
        ("https://c.com", "", 200, b"p", None),
    ]
    unique = table.take([1, 2, 3, 8])
    assert chosen(unique) == [
        ("http://a.com", "", 301, None, a),
        ("https://a.com", "2024-01-01", 200, b"a", None),
        ("https://a.com", "2025-01-01", 500, None, None),
        ("https://c.com", "", None, b"q", None),
    ]


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
    # The made-up hosts (.invalid) get only the fetches written for them
    # below: two fetches of one URL would leave the choice to row order,
    # which Spark does not keep.
    hosts = sorted({urlsplit(u).hostname or "" for u in urls} - {""})
    hosts = [h for h in hosts if not h.endswith(".invalid")]
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
        # A redirect to a capture of another path on the same origin, and
        # to one on another origin.
        rows = [
            {"url": "https://moved.invalid/robots.txt", "status": 301, "location": "/en/robots.txt"},
            {"url": "https://moved.invalid/en/robots.txt", "status": 200,
             "body": "User-agent: *\nDisallow: /private\n"},
            {"url": "https://away.invalid/robots.txt", "status": 302,
             "location": "https://cdn.invalid/site/robots.txt"},
            {"url": "https://cdn.invalid/site/robots.txt", "status": 200,
             "body": "User-agent: GPTBot\nDisallow: /\n"},
        ]
        # A loop, and chains of 5 redirects (followed) and 6 (one too many).
        rows += [
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


@pytest.mark.parametrize("strategy", ["broadcast", "partition"])
def test_with_fetches_equals_the_command(spark, shared, binary, tmp_path, strategy):
    from robots_batch.spark import with_verdicts

    urls = _real_urls(shared, N_URLS) + [
        "not a url", "https://no-fetch.invalid/x", "https://loop-a.invalid/x",
        "https://five0.invalid/x", "https://six0.invalid/x", "https://six1.invalid/x",
        "https://moved.invalid/private/a", "https://moved.invalid/public",
        "https://away.invalid/x", "https://cdn.invalid/site/robots.txt",
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
    out = with_verdicts(df, fetches=fetches, agents=agents.split(","), explain=True,
                        strategy=strategy)
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
        names = [f"{agent}{s}" for s in ("", "_reason", "_robots", "_capture", "_line", "_rule")]
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
    # Redirects to captures of other URLs reach their rules; a capture is
    # no robots.txt of its own origin.
    assert by_url["https://moved.invalid/private/a"]["GPTBot"] == "disallowed"
    assert by_url["https://moved.invalid/public"]["GPTBot"] == "allowed"
    assert by_url["https://away.invalid/x"]["GPTBot"] == "disallowed"
    assert by_url["https://away.invalid/x"]["Googlebot"] == "allowed"
    assert by_url["https://cdn.invalid/site/robots.txt"]["GPTBot_reason"] == "no-robots"


def _ids_by_partition(df):
    return df.select("id").rdd.glom().map(lambda rows: [r.id for r in rows]).collect()


def test_broadcast_keeps_rows_in_place(spark, shared):
    """The broadcast path judges each partition where it is: the same
    partitions, the same rows in the same order; the partition path moves
    them. The default chooses the broadcast for a small fetch table."""
    import robots_batch.spark
    from robots_batch.spark import with_verdicts

    urls = _real_urls(shared, 3000)
    robots_dir = os.path.join(shared, "datasets", "robots")
    hosts = sorted({urlsplit(u).hostname or "" for u in urls} - {""})
    fetches = spark.createDataFrame(
        [(f"https://{h}/robots.txt", 200, open(os.path.join(robots_dir, h + ".txt"), "rb").read())
         for h in hosts if os.path.exists(os.path.join(robots_dir, h + ".txt"))],
        "url string, status int, body binary",
    )
    df = _frame(spark, urls).repartition(3).cache()
    before = _ids_by_partition(df)
    assert len(before) == 3 and sorted(sum(before, [])) == list(range(len(urls)))
    # Small Arrow batches: many per partition, each judged where it is,
    # gathered all in one call (the default) or three or four at a time.
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "97")
    rows = robots_batch.spark._GATHER_ROWS
    gathered = {}
    try:
        for strategy, gather in (("broadcast", rows), ("auto", rows), ("broadcast", 250)):
            robots_batch.spark._GATHER_ROWS = gather
            out = with_verdicts(df, fetches=fetches, agents="GPTBot", strategy=strategy)
            assert _ids_by_partition(out) == before, (strategy, gather)
            gathered[gather] = sorted((r.id, r.verdict, r.reason) for r in out.collect())
    finally:
        robots_batch.spark._GATHER_ROWS = rows
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    assert gathered[rows] == gathered[250]
    # Over the size limit, auto partitions by origin: the rows move.
    out = with_verdicts(df, fetches=fetches, agents="GPTBot", broadcast_bytes=1000)
    moved = _ids_by_partition(out)
    assert sorted(sum(moved, [])) == list(range(len(urls)))
    assert moved != before
    # Whichever the path, the verdicts are the same.
    got = {}
    for strategy in ("broadcast", "partition"):
        rows = with_verdicts(df, fetches=fetches, agents="GPTBot", strategy=strategy).collect()
        got[strategy] = sorted((r.id, r.verdict, r.reason) for r in rows)
    assert got["broadcast"] == got["partition"]
    assert {"rule", "no-robots"} <= {r for _, _, r in got["broadcast"]}
    df.unpersist()


def test_strategy_is_checked(spark):
    from robots_batch.spark import with_verdicts

    df = spark.createDataFrame([("https://a.com/",)], "url string")
    with pytest.raises(ValueError, match="strategy"):
        with_verdicts(df, fetches=df, strategy="shuffle")


def _warc_record(uri, status, body, date, location=None, kind="response"):
    head = f"HTTP/1.1 {status} X\r\nContent-Type: text/plain\r\n"
    if location:
        head += f"Location: {location}\r\n"
    http = (head + "\r\n").encode() + body
    warc = (
        f"WARC/1.0\r\nWARC-Type: {kind}\r\n"
        f"WARC-Target-URI: {uri}\r\nWARC-Date: {date}\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    return warc + http + b"\r\n\r\n"


def test_fetches_from_warc_equals_the_command(spark, binary, tmp_path):
    """WARC files of robots.txt captures read by the executors, judged as
    `robots-batch crawl --robots-warc` judges them, on both paths."""
    import gzip

    from robots_batch.spark import fetches_from_warc, with_verdicts

    old, new = "2024-01-01T00:00:00Z", "2025-06-01T00:00:00Z"
    first = [
        _warc_record("https://a.com/robots.txt", 200, b"User-agent: *\nDisallow: /old\n", old),
        _warc_record("https://a.com/robots.txt", 200, b"User-agent: *\nDisallow: /a\n", new),
        _warc_record("https://a.com/robots.txt", 0, b"", new, kind="request"),
        _warc_record("http://b.com/robots.txt", 301, b"", old, location="https://b.com/robots.txt"),
        _warc_record("https://b.com/robots.txt", 302, b"", old, location="/r/robots.txt"),
        _warc_record("https://b.com/r/robots.txt", 200, b"User-agent: GPTBot\nDisallow: /b\n", old),
        _warc_record("https://c.com/robots.txt", 503, b"busy", old),
    ]
    second = [
        _warc_record("https://c.com/robots.txt", 404, b"", new),
        _warc_record("https://d.com/robots.txt", 200, b"User-agent: *\nAllow: /d/ok\nDisallow: /d\n", old),
        _warc_record("https://e.com/robots.txt", 403, b"", old),
    ]
    paths = []
    for name, records in (("one.warc.gz", first), ("two.warc", second)):
        path = tmp_path / name
        data = b"".join(gzip.compress(r) for r in records) if name.endswith(".gz") else b"".join(records)
        path.write_bytes(data)
        paths.append(str(path))

    fetches = fetches_from_warc(spark, paths)
    assert fetches.columns == ["url", "status", "body", "location", "date"]
    rows = {(r.url, r.date): r for r in fetches.collect()}
    # The request record is no fetch; every dated capture of a URL is a row.
    assert sorted(u for u, _ in rows) == [
        "http://b.com/robots.txt", "https://a.com/robots.txt", "https://a.com/robots.txt",
        "https://b.com/r/robots.txt", "https://b.com/robots.txt", "https://c.com/robots.txt",
        "https://c.com/robots.txt", "https://d.com/robots.txt", "https://e.com/robots.txt",
    ]
    assert bytes(rows[("https://a.com/robots.txt", new)].body) == b"User-agent: *\nDisallow: /a\n"
    assert rows[("https://b.com/robots.txt", old)].location == "/r/robots.txt"

    urls = [f"{s}://{h}.com/{p}" for s in ("http", "https") for h in "abcdef"
            for p in ("", "a", "old", "b", "d", "d/ok")] + ["not a url"]
    urls_file = tmp_path / "urls.txt"
    urls_file.write_text("\n".join(urls) + "\n", encoding="utf-8")
    args = ["crawl", "--no-header", "--explain", "-a", "GPTBot"]
    for p in paths:
        args += ["--robots-warc", p]
    want = _rows(run(binary, *args, str(urls_file)))
    assert len(want) == len(urls)
    df = _frame(spark, urls)
    for strategy in ("broadcast", "partition"):
        out = with_verdicts(df, fetches=fetches, agents="GPTBot", explain=True, strategy=strategy)
        got = {r["id"]: r for r in out.collect()}
        for i, row in enumerate(want):
            g = got[i]
            mine = [g["url"], g["verdict"], g["reason"], g["robots"], g["capture"], g["line"], g["rule"]]
            assert ["" if v is None else str(v) for v in mine] == row, (strategy, row)
    reasons = {r[2] for r in want}
    assert {"rule", "status-4xx", "no-robots", "no-host"} <= reasons


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
    """docs/PYTHON.md's RDD.pipe example, as written there."""
    with open(os.path.join(ROOT, "docs", "PYTHON.md"), encoding="utf-8") as f:
        readme = f.read()
    section = readme.split("## The command as a streaming stage", 1)[1]
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


def test_time_column_and_as_of_choose_among_dated_captures(spark):
    """Dated fetches (a timestamp column) keep every capture; a column of
    fetch times judges each URL by the capture in effect then, on both
    paths, as Crawl does; as_of judges every URL as of one date."""
    import datetime

    from pyspark.sql import types as T

    from robots_batch import Crawl
    from robots_batch.spark import with_verdicts
    from test_captures import FETCHES

    utc = datetime.timezone.utc
    fetches = spark.createDataFrame(
        [(f.get("url") or f["origin"] + "/robots.txt", 200, f["body"], d) for f, d in zip(FETCHES, [
            datetime.datetime(2024, 6, 1, tzinfo=utc), datetime.datetime(2024, 1, 1, tzinfo=utc),
            datetime.datetime(2024, 3, 15, tzinfo=utc)])],
        T.StructType([T.StructField("url", T.StringType()), T.StructField("status", T.IntegerType()),
                      T.StructField("body", T.StringType()), T.StructField("date", T.TimestampType())]))
    when = [datetime.datetime(2024, 2, 1, tzinfo=utc), datetime.datetime(2024, 7, 1, tzinfo=utc), None,
            datetime.datetime(2024, 1, 1, tzinfo=utc)]
    urls = ["https://a.com/private/x"] * 3 + ["https://b.com/y"]
    df = spark.createDataFrame([(i, u, t) for i, (u, t) in enumerate(zip(urls, when))],
                               "id long, url string, fetched timestamp")
    want = [("allowed", "rule", "2024-01-01T00:00:00Z"),
            ("disallowed", "rule", "2024-06-01T00:00:00Z"),
            ("unknown", "no-time", None),
            ("disallowed", "rule;before-first", "2024-03-15T00:00:00Z")]
    crawl = Crawl(fetches=FETCHES, at_fetch_time=True)
    assert [(e.verdict, e.reason, e.capture) for e in crawl.explain(urls, times=when)] == want
    for strategy in ("broadcast", "partition"):
        out = with_verdicts(df, fetches=fetches, time_column="fetched", explain=True,
                            agents="GPTBot", strategy=strategy)
        got = sorted(out.collect(), key=lambda r: r["id"])
        assert [(r["verdict"], r["reason"], r["capture"]) for r in got] == want, strategy
        early = with_verdicts(df, fetches=fetches, as_of="2024-02-01", strategy=strategy)
        assert [r["verdict"] for r in sorted(early.collect(), key=lambda r: r["id"])] == [
            "allowed", "allowed", "allowed", "disallowed"], strategy
    with pytest.raises(ValueError, match="no column 'when'"):
        with_verdicts(df, fetches=fetches, time_column="when")
    with pytest.raises(ValueError, match="one robots= has none"):
        with_verdicts(df, robots=b"User-agent: *\n", time_column="fetched")
