"""Dated captures in Python: a Crawl keeps every capture of an origin with
its date, judges by the newest, as of a date, or at each URL's own fetch
time, as the command's `crawl --as-of` and `--at-fetch-time` do."""

import datetime
import json

import pytest

from robots_batch import Crawl

from conftest import run

pa = pytest.importorskip("pyarrow")

ALLOW = "User-agent: *\nAllow: /\n"
PRIVATE = "User-agent: *\nDisallow: /private\n"
ALL = "User-agent: *\nDisallow: /\n"

# a.com allows everything from January 2024 and disallows /private from
# June; b.com is captured once, in March. Given newest first, in three
# spellings of a date.
FETCHES = [
    {"url": "https://a.com/robots.txt", "status": 200, "body": PRIVATE, "date": "20240601000000"},
    {"url": "https://a.com/robots.txt", "status": 200, "body": ALLOW, "date": "2024-01-01"},
    {"origin": "https://b.com", "status": 200, "body": ALL,
     "date": datetime.datetime(2024, 3, 15, tzinfo=datetime.timezone.utc)},
]
URLS = ["https://a.com/private/x", "https://b.com/y"]


def table(fetches, date_type=None):
    """The fetches as an Arrow table, their dates of ``date_type``."""
    rows = [{"url": f.get("url") or f["origin"] + "/robots.txt", "status": f["status"],
             "body": f["body"].encode()} for f in fetches]
    t = pa.Table.from_pylist(rows)
    dates = [datetime.datetime(2024, 6, 1), datetime.datetime(2024, 1, 1),
             datetime.datetime(2024, 3, 15)][:len(fetches)]
    return t.append_column("date", pa.array(dates, date_type or pa.timestamp("s")))


def pairs(verdicts):
    return [None if v is None else tuple(v) for v in verdicts]


def test_every_capture_is_kept_and_the_newest_judges():
    c = Crawl(fetches=FETCHES)
    assert (len(c), c.captures) == (2, 3)
    assert (c.as_of, c.at_fetch_time, c.before_first) == (None, False, "earliest")
    assert pairs(c.verdicts(URLS)) == [("disallowed", "rule"), ("disallowed", "rule")]
    e = c.explain(URLS[:1])[0]
    assert (e.robots, e.capture, e.line, e.rule) == (
        "https://a.com", "2024-06-01T00:00:00Z", 2, "Disallow: /private")


@pytest.mark.parametrize("as_of, want", [
    # Before every capture: the earliest judges, and the reason says so.
    ("2023-12-31", [("allowed", "rule;before-first"), ("disallowed", "rule;before-first")]),
    # Between a.com's two captures, after b.com's only one.
    ("2024-05-31T23:59:59Z", [("allowed", "rule"), ("disallowed", "rule")]),
    # A day alone is its end: June 1st's capture is in effect.
    ("2024-06-01", [("disallowed", "rule"), ("disallowed", "rule")]),
    (datetime.date(2024, 6, 1), [("disallowed", "rule"), ("disallowed", "rule")]),
    (1717199999, [("allowed", "rule"), ("disallowed", "rule")]),
    ("2030-01-01", [("disallowed", "rule"), ("disallowed", "rule")]),
])
def test_as_of_before_between_and_after(as_of, want):
    c = Crawl(fetches=FETCHES, as_of=as_of)
    assert pairs(c.verdicts(URLS)) == want
    got = c.evaluate(pa.array(URLS), explain=True)
    assert list(zip(got.column("verdict").to_pylist(), got.column("reason").to_pylist())) == want


def test_before_first_unknown():
    c = Crawl(fetches=FETCHES, as_of="2024-02-01", before_first="unknown")
    assert c.before_first == "unknown" and c.as_of == "2024-02-01T23:59:59Z"
    assert pairs(c.verdicts(URLS)) == [("allowed", "rule"), ("unknown", "before-first")]
    timed = Crawl(fetches=FETCHES, at_fetch_time=True, before_first="unknown")
    got = timed.explain(URLS, times=["2023-06-01", "2023-06-01"])
    assert [tuple(e) for e in got] == [("unknown", "before-first", None, None, None, None)] * 2
    with pytest.raises(ValueError, match='before_first must be "earliest" or "unknown"'):
        Crawl(fetches=FETCHES, before_first="latest")


def test_a_capture_switches_from_allow_to_disallow_between_fetch_times():
    c = Crawl(fetches=FETCHES, at_fetch_time=True)
    url = "https://a.com/private/x"
    times = ["2024-05-31T23:59:59Z", "20240601000000", 1700000000,
             datetime.datetime(2024, 7, 1), "last week", None]
    got = c.explain([url] * len(times), times=times)
    assert [(e.verdict, e.reason, e.capture) for e in got] == [
        ("allowed", "rule", "2024-01-01T00:00:00Z"),
        ("disallowed", "rule", "2024-06-01T00:00:00Z"),
        ("allowed", "rule;before-first", "2024-01-01T00:00:00Z"),
        ("disallowed", "rule", "2024-06-01T00:00:00Z"),
        # A time that cannot be read: unknown, never an exception.
        ("unknown", "no-time", None),
        ("unknown", "no-time", None),
    ]
    # A null URL stays null, with or without a time.
    assert c.verdicts([None, None], times=["2024-01-02", None]) == [None, None]


@pytest.mark.parametrize("date_type", [pa.timestamp("s"), pa.timestamp("us", tz="UTC"),
                                       pa.date32(), pa.string()])
def test_arrow_fetches_and_times_with_a_timestamp_column(date_type):
    fetches = table(FETCHES, date_type if date_type != pa.string() else None)
    if date_type == pa.string():
        fetches = fetches.set_column(3, "date", pa.array(["2024-06-01", "20240101000000", "1710460800"]))
    c = Crawl(fetches=fetches, at_fetch_time=True)
    assert (len(c), c.captures) == (2, 3)
    urls = pa.array(["https://a.com/private/x"] * 3 + ["https://b.com/y"])
    times = pa.array([datetime.datetime(2024, 5, 31, 23), datetime.datetime(2024, 6, 2), None,
                      datetime.datetime(2024, 3, 1)], pa.timestamp("ms", tz="UTC"))
    got = c.evaluate(urls, times=times, explain=True)
    assert got.select(["verdict", "reason", "capture"]).to_pylist() == [
        {"verdict": "allowed", "reason": "rule", "capture": "2024-01-01T00:00:00Z"},
        {"verdict": "disallowed", "reason": "rule", "capture": "2024-06-01T00:00:00Z"},
        {"verdict": "unknown", "reason": "no-time", "capture": None},
        {"verdict": "disallowed", "reason": "rule;before-first", "capture": "2024-03-15T00:00:00Z"},
    ]
    # The time column of a table, and chunks of URLs beside one array of
    # times, judge the same.
    both = pa.table({"u": urls, "t": times})
    assert c.evaluate(both, column="u", time_column="t", explain=True) == pa.Table.from_batches([got])
    chunked = pa.chunked_array([urls.slice(0, 1), urls.slice(1)])
    assert c.evaluate(chunked, times=times, explain=True).combine_chunks() == pa.Table.from_batches([got])
    # Integers of seconds, and a list of Python times, read alike.
    seconds = pa.array([1717196400, 1717286400, None, 1709251200], pa.int64())
    assert c.evaluate(urls, times=seconds, explain=True) == got
    assert c.evaluate(urls, times=times.to_pylist(), explain=True) == got


def test_repeated_arrow_rows_count_once_per_origin_and_date():
    # The rows of a Spark batch repeat their origin's fetches: each capture
    # counts once; two at one instant, the first (as Arrow rows do).
    rows = table(FETCHES)
    twice = pa.concat_tables([rows, rows.slice(0, 1).set_column(
        2, "body", pa.array([ALL.encode()]))])
    c = Crawl(fetches=twice, as_of="2024-06-02")
    assert c.captures == 3
    assert pairs(c.verdicts(["https://a.com/public"])) == [("allowed", "no-matching-rule")]


def test_a_date_that_is_no_date_names_the_fetch():
    bad = FETCHES + [{"origin": "https://c.com", "status": 200, "date": "June"}]
    with pytest.raises(ValueError, match=r"fetch 3: its \"date\" is not a date: 'June'"):
        Crawl(fetches=bad)
    with pytest.raises(ValueError, match=r"fetch 0: its \"date\" is not a date: True"):
        Crawl(fetches=[{"origin": "https://c.com", "date": True}])
    rows = table(FETCHES).drop_columns(["date"]).append_column(
        "date", pa.array(["2024-06-01", None, "2024-13-01"]))
    with pytest.raises(ValueError, match=r'fetch row 2: its "date" is not a date: "2024-13-01"'):
        Crawl(fetches=rows)
    # Rows are numbered across the chunks of a table.
    chunks = pa.Table.from_batches(rows.to_batches(max_chunksize=2))
    assert chunks.column("date").num_chunks == 2
    with pytest.raises(ValueError, match="fetch row 2:"):
        Crawl(fetches=chunks)
    floats = table(FETCHES).drop_columns(["date"]).append_column("date", pa.array([1.0, 2.0, 3.0]))
    with pytest.raises(TypeError, match='"date" field holds Float64, not times'):
        Crawl(fetches=floats)
    with pytest.raises(ValueError, match="as_of is not a date: 'soon'"):
        Crawl(fetches=FETCHES, as_of="soon")


def test_a_date_that_is_no_date_in_an_index_names_its_line(tmp_path):
    index = tmp_path / "index.jsonl"
    index.write_text('{"url": "https://a.com/robots.txt", "status": 200}\n'
                     '{"url": "https://a.com/robots.txt", "status": 200, "date": "June"}\n')
    with pytest.raises(ValueError, match=r'index.jsonl:2: "date" "June" is not a date'):
        Crawl(robots_index=index)


def test_times_go_with_at_fetch_time_only():
    with pytest.raises(ValueError, match="not both"):
        Crawl(fetches=FETCHES, as_of="2024-01-01", at_fetch_time=True)
    with pytest.raises(ValueError, match=r"needs Crawl\(at_fetch_time=True\)"):
        Crawl(fetches=FETCHES).verdicts(URLS, times=["2024-01-01"] * 2)
    timed = Crawl(fetches=FETCHES, at_fetch_time=True)
    with pytest.raises(ValueError, match="give them with times="):
        timed.evaluate(pa.array(URLS))
    with pytest.raises(ValueError, match="1 times for 2 URLs"):
        timed.verdicts(URLS, times=["2024-01-01"])
    with pytest.raises(TypeError, match="not one str"):
        timed.verdicts(URLS, times="2024-01-01")
    with pytest.raises(TypeError, match="the column of times holds Float64"):
        timed.evaluate(pa.array(URLS), times=pa.array([1.0, 2.0]))


def test_crawl_equals_the_command(binary, tmp_path):
    """The command's `crawl --as-of` and `--at-fetch-time` over the same
    dated index, row by row, explanations included."""
    index = tmp_path / "index.jsonl"
    with open(index, "w") as f:
        for fetch in FETCHES:
            date = fetch["date"]
            row = {"url": fetch.get("url") or fetch["origin"] + "/robots.txt", "status": 200,
                   "body": fetch["body"],
                   "date": date.isoformat() if isinstance(date, datetime.datetime) else date}
            f.write(json.dumps(row) + "\n")
    records = [{"url": u, "t": t} for u in ("https://a.com/private/x", "https://a.com/y", "https://b.com/z")
               for t in ("2023-01-01T00:00:00Z", "2024-02-01T00:00:00Z", "2024-03-15T00:00:00Z",
                         "2024-06-01T00:00:00Z", "20250101000000", "later")]
    records_file = tmp_path / "records.jsonl"
    records_file.write_text("".join(json.dumps(r) + "\n" for r in records))
    fields = ("robots_verdict", "robots_reason", "robots_origin", "robots_capture",
              "robots_line", "robots_rule")
    for before_first in ("earliest", "unknown"):
        out = run(binary, "crawl", "--robots-index", str(index), "--at-fetch-time",
                  "--time-field", "t", "--explain", "--before-first", before_first,
                  str(records_file))
        want = [[json.loads(line).get(k) for k in fields] for line in out.decode().splitlines()]
        c = Crawl(robots_index=index, at_fetch_time=True, before_first=before_first)
        got = c.explain([r["url"] for r in records], times=[r["t"] for r in records])
        assert len(got) == len(want) == len(records)
        for r, e, w in zip(records, got, want):
            if r["t"] == "later":
                # A bad record to the command (its reason is why); a
                # verdict with its reason here.
                assert (w[0], tuple(e)) == ("unknown", ("unknown", "no-time") + (None,) * 4)
            else:
                assert list(e) == w, (before_first, r)
    urls_file = tmp_path / "urls.txt"
    urls_file.write_text("".join(r["url"] + "\n" for r in records[::6]))
    for as_of in ("2023-12-31", "2024-03-15", "2024-06-01", "2030-01-01"):
        out = run(binary, "crawl", "--robots-index", str(index), "--as-of", as_of,
                  "--explain", "--no-header", str(urls_file))
        want = [line.split(",")[1:] for line in out.decode().splitlines()]
        c = Crawl(fetches=FETCHES, as_of=as_of)
        got = c.explain([r["url"] for r in records[::6]])
        assert [["" if v is None else str(v) for v in e] for e in got] == want, as_of


def test_dated_directories_as_the_command(binary, tmp_path):
    """robots_dir={DATE: DIR} reads each directory's files as captures made
    at its date, as `--robots-dir DATE=DIR` does."""
    for name, host, body in (("jan", "a.com", ALLOW), ("jun", "a.com", PRIVATE), ("mar", "b.com", ALL)):
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{host}.txt").write_text(body)
    dirs = {"2024-01-01": tmp_path / "jan", "2024-06-01": tmp_path / "jun",
            datetime.date(2024, 3, 15): tmp_path / "mar"}
    urls_file = tmp_path / "urls.txt"
    urls_file.write_text("".join(u + "\n" for u in URLS))
    flags = []
    for date, d in dirs.items():
        flags += ["--robots-dir", f"{date}={d}"]
    for as_of in ("2023-12-31", "2024-02-01", "2024-06-01"):
        out = run(binary, "crawl", *flags, "--as-of", as_of, "--explain", "--no-header", str(urls_file))
        want = [line.split(",")[1:] for line in out.decode().splitlines()]
        got = Crawl(robots_dir=dirs, as_of=as_of).explain(URLS)
        assert [["" if v is None else str(v) for v in e] for e in got] == want, as_of
    c = Crawl(robots_dir=dirs)
    assert (len(c), c.captures) == (2, 3)
    with pytest.raises(ValueError, match="the date of robots_dir .* is not a date: 'soon'"):
        Crawl(robots_dir={"soon": tmp_path / "jan"})
