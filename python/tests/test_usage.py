"""AI usage preferences in Python: Matcher.usage, evaluate(usage=True) and
with_verdicts(usage=True), against the command's --usage columns."""

import csv
import io

import pyarrow as pa
import pytest

import robots_batch
from robots_batch import Matcher, UsagePrefs

from conftest import run

ROBOTS = b"""\
Content-Signal: ai-input=no
User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y, search=n
"""

URLS = ["https://e.com/test", "https://e.com/never/test", "/ai-ok/test", None]


def test_usage_list_form():
    m = Matcher(ROBOTS, ["OtherBot", "ExampleBot"])
    assert m.usage(URLS, agent="OtherBot") == [
        UsagePrefs("allowed", "disallowed", "unknown", "disallowed", 5, None, 1),
        UsagePrefs("disallowed", None, None, None, None, None, None),
        UsagePrefs("allowed", "allowed", "unknown", "disallowed", 6, None, 1),
        None,
    ]
    assert m.usage(URLS[:1], agent="ExampleBot") == [
        UsagePrefs("allowed", "allowed", "disallowed", "disallowed", 10, 10, 1),
    ]


def test_usage_arrow_form():
    m = Matcher(ROBOTS, ["OtherBot", "ExampleBot"])
    batch = m.evaluate(pa.array(URLS), usage=True)
    assert batch.schema.names == [
        "OtherBot", "OtherBot_train_ai", "OtherBot_search", "OtherBot_ai_input",
        "ExampleBot", "ExampleBot_train_ai", "ExampleBot_search", "ExampleBot_ai_input",
    ]
    assert batch.column("OtherBot_train_ai").to_pylist() == [
        "disallowed", None, "allowed", None,
    ]
    assert batch.column("ExampleBot_search").to_pylist() == [
        "disallowed", "disallowed", "disallowed", None,
    ]
    one = Matcher(ROBOTS).evaluate(
        pa.chunked_array([URLS[:2], URLS[2:]]), usage=True, explain=True
    )
    assert one.column_names == [
        "verdict", "line", "rule", "group", "reason",
        "train_ai", "search", "ai_input",
        "train_ai_line", "search_line", "ai_input_line",
    ]
    assert one.column("train_ai_line").to_pylist() == [5, None, 6, None]
    assert one.column("ai_input_line").to_pylist() == [1, None, 1, None]
    # Without usage, no usage columns.
    assert Matcher(ROBOTS).evaluate(pa.array(URLS)).schema.names == ["verdict"]


def test_usage_agrees_with_the_command(binary, tmp_path):
    robots = tmp_path / "robots.txt"
    robots.write_bytes(ROBOTS)
    urls = tmp_path / "urls.txt"
    paths = ["/test", "/never/x", "/ai-ok/y", "/ai-ok", "/"]
    urls.write_text("".join(p + "\n" for p in paths))
    for agent in ["OtherBot", "ExampleBot"]:
        out = run(binary, "--usage", "-a", agent, str(robots), str(urls))
        rows = list(csv.reader(io.StringIO(out.decode())))[1:]
        got = Matcher(ROBOTS, agent).usage(paths)
        want = [
            UsagePrefs(r[1], *[v or None for v in r[2:5]], None, None, None)
            for r in rows
        ]
        assert [u._replace(train_ai_line=None, search_line=None,
                           ai_input_line=None) for u in got] == want


def test_usage_is_unknown_in_the_older_dialects():
    m = Matcher(ROBOTS, "OtherBot", "draft1996")
    assert m.usage(["/test"]) == [
        UsagePrefs("allowed", "unknown", "unknown", "unknown", None, None, None),
    ]


def test_spark_usage_needs_robots():
    pytest.importorskip("pyspark")
    from robots_batch.spark import verdict_fields, with_verdicts

    names = [f.name for f in verdict_fields("a", crawl=False, explain=True, usage=True)]
    assert names == [
        "verdict", "line", "rule", "group", "reason", "train_ai", "search",
        "ai_input", "train_ai_line", "search_line", "ai_input_line",
    ]

    class Frame:
        columns = ["url"]

    with pytest.raises(ValueError, match="usage=True needs robots="):
        with_verdicts(Frame(), fetches=Frame(), usage=True)


def test_spark_with_verdicts_usage(spark):
    from robots_batch.spark import with_verdicts

    df = spark.createDataFrame([(u,) for u in URLS], "url string")
    rows = with_verdicts(df, robots=ROBOTS, agents="OtherBot", usage=True).collect()
    assert [(r.url, r.verdict, r.train_ai, r.search, r.ai_input) for r in rows] == [
        ("https://e.com/test", "allowed", "disallowed", "unknown", "disallowed"),
        ("https://e.com/never/test", "disallowed", None, None, None),
        ("/ai-ok/test", "allowed", "allowed", "unknown", "disallowed"),
        (None, None, None, None, None),
    ]
