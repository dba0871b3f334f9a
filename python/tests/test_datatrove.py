"""robots_batch.datatrove.RobotsFilter in real datatrove pipelines
(LocalPipelineExecutor: JsonlReader or ParquetReader, the filter,
JsonlWriter) with 1 and 2 tasks: the documents kept, and each document's
disallowed_user_agents, are those of `robots-batch crawl` for the same
URLs, agents and robots.txt files; the filter pickles (with dill, as
datatrove ships it) without its compiled state and judges the same after.
Skips without datatrove or the release command."""

import glob
import gzip
import json
import os
import pickle
import warnings

import pytest

import pipeline_data as pdata

datatrove = pytest.importorskip(
    "datatrove",
    reason="datatrove is not installed (pip install 'robots-batch[datatrove]'): "
    "the datatrove filter is not tested",
)

from datatrove.data import Document  # noqa: E402
from datatrove.executor import LocalPipelineExecutor  # noqa: E402
from datatrove.pipeline.readers import JsonlReader, ParquetReader  # noqa: E402
from datatrove.pipeline.writers import JsonlWriter  # noqa: E402

from robots_batch._judge import count  # noqa: E402
from robots_batch.datatrove import RobotsFilter  # noqa: E402


@pytest.fixture
def robots_dir(tmp_path):
    return str(pdata.write_robots_dir(tmp_path / "robots"))


def _read_out(folder):
    """The documents a JsonlWriter wrote, by id."""
    docs = {}
    for path in glob.glob(os.path.join(folder, "*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for line in f:
                doc = json.loads(line)
                docs[doc["id"]] = doc
    return docs


def _stats(logs):
    with open(os.path.join(logs, "stats.json")) as f:
        stats = json.load(f)
    [mine] = [s for s in stats if "robots" in s["name"]]
    return {k: (v["total"] if isinstance(v, dict) else v) for k, v in mine["stats"].items()}


def _docs(n=400):
    # The reader sorts by nothing: ids say which document is which.
    return pdata.documents(n)


@pytest.mark.parametrize("tasks", [1, 2])
def test_a_pipeline_keeps_what_the_command_allows(tmp_path, binary, robots_dir, tasks):
    docs = _docs()
    shard = tmp_path / "shard"
    shard.mkdir()
    # Two files, so that two tasks each read one.
    half = len(docs) // 2
    pdata.write_jsonl(shard / "part-0.jsonl", docs[:half])
    pdata.write_jsonl(shard / "part-1.jsonl", docs[half:])
    out, dropped, logs = (str(tmp_path / d) for d in ("out", "dropped", "logs"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # `*` is an agent here
        robots = RobotsFilter(
            agents=pdata.AGENTS,
            robots_dir=robots_dir,
            exclusion_writer=JsonlWriter(dropped),
            batch_size=37,
        )
    LocalPipelineExecutor(
        pipeline=[JsonlReader(str(shard)), robots, JsonlWriter(out)],
        tasks=tasks,
        workers=tasks,
        logging_dir=logs,
    ).run()

    urls = [d.get("url") for d in docs]
    verdicts = pdata.command_verdicts(
        binary, tmp_path, urls, pdata.AGENTS, "--robots-dir", robots_dir
    )
    want = pdata.expected(docs, verdicts, pdata.AGENTS)
    kept, gone = _read_out(out), _read_out(dropped)
    assert set(kept) == {i for i, agents in want.items() if not agents}
    assert set(gone) == {i for i, agents in want.items() if agents}
    assert gone, "the cases include disallowed URLs"
    for i, doc in {**kept, **gone}.items():
        assert doc["metadata"]["disallowed_user_agents"] == want[i], i
    assert all(d["metadata"]["filter_reason"] == "robots" for d in gone.values())

    stats = _stats(logs)
    unknown = [d for d in docs if not isinstance(d.get("url"), str)
               or verdicts.get(d["url"], {}).get("*") in (None, "unknown")]
    assert stats["dropped_robots"] == len(gone)
    assert stats["robots_unknown"] == len(unknown)
    assert stats["robots_no-url"] == sum(d.get("url") is None for d in docs)
    assert stats["robots_not-a-string"] == sum(
        d.get("url") is not None and not isinstance(d["url"], str) for d in docs)
    assert stats["robots_no-robots"] > 0 and stats["robots_no-host"] > 0


def test_tag_mode_keeps_all_and_writes_the_swiss_ai_columns(tmp_path, binary, robots_dir):
    """mode="tag" with the swiss-ai preset and robots_parquet (their own
    layout): every document kept, with its list; `id, disallowed_user_agents`
    written as their id filter reads it."""
    docs = _docs(200)
    shard = tmp_path / "shard"
    shard.mkdir()
    import pyarrow as pa
    import pyarrow.parquet as pq

    # A Parquet shard as FineWeb's: text, id, url (no bad values: typed column).
    good = [d for d in docs if isinstance(d.get("url"), str) and d["url"]]
    pq.write_table(pa.Table.from_pylist(good), shard / "000.parquet")
    table = pdata.write_robots_parquet(str(tmp_path / "robots.parquet"))
    out, logs = str(tmp_path / "out"), str(tmp_path / "logs")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        robots = RobotsFilter(agents="swiss-ai", robots_parquet=table, mode="tag")
    tagged = JsonlWriter(
        out,
        adapter=lambda self, doc: {
            "id": doc.id,
            "user_agents": doc.metadata["disallowed_user_agents"],
        },
    )
    LocalPipelineExecutor(
        pipeline=[ParquetReader(str(shard)), robots, tagged], tasks=1, logging_dir=logs
    ).run()
    got = {d["id"]: d["user_agents"] for d in _read_out(out).values()}
    assert set(got) == {d["id"] for d in good}
    # The parquet rows apply to their domain's host over both schemes, as
    # the same files in a robots directory do for the command.
    verdicts = pdata.command_verdicts(
        binary, tmp_path, [d["url"] for d in good], robots.agents, "--robots-dir", robots_dir
    )
    want = pdata.expected(good, verdicts, robots.agents)
    assert got == want
    assert any(got.values()) and not all(got.values())


def test_the_filter_pickles_without_its_judge(tmp_path, robots_dir):
    dill = pytest.importorskip("dill", reason="dill is not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        f = RobotsFilter(agents=pdata.AGENTS, robots_dir=robots_dir)
    docs = _docs(120)

    def judged(flt):
        batch = [Document(text=d["text"], id=d["id"], metadata={k: v for k, v in d.items()
                 if k not in ("text", "id")}) for d in docs]
        results = flt.filter_batch(batch)
        return [(r, doc.metadata["disallowed_user_agents"]) for r, doc in zip(results, batch)]

    spec_before = dill.dumps(f.spec)
    first = judged(f)
    assert f.spec.built
    blob = dill.dumps(f)
    # The compiled judge stays behind: its part of the pickle is what it
    # was before it was built, and the whole filter is a few KB (its
    # datatrove stats included).
    assert dill.dumps(f.spec) == spec_before
    assert len(blob) < 8192
    copy = dill.loads(blob)
    assert not copy.spec.built
    assert judged(copy) == first
    assert copy.spec.built
    assert pickle.loads(pickle.dumps(f)).spec.built is False


def test_bad_input_is_unknown_and_never_raises(robots_dir):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        f = RobotsFilter(agents=["GPTBot", "*"], robots_dir=robots_dir)
    values = [None, 7, b"https://a.example/", "not a url", "", {"u": 1},
              "https://a.example/private/x", "https://none.example/"]
    batch = [Document(text="", id=str(i), metadata={"url": v}) for i, v in enumerate(values)]
    batch.append(Document(text="", id="none", metadata={}))
    results = f.filter_batch(batch)
    assert results[:6] == [True] * 6
    assert results[6] == (False, "robots")
    assert results[7] is True and results[8] is True
    verdicts = f.spec.judge([d.metadata.get("url") for d in batch])
    assert verdicts.verdict == ["unknown"] * 6 + ["disallowed", "unknown", "unknown"]
    assert verdicts.reason == ["no-url", "not-a-string", "not-a-string", "no-host",
                               "no-host", "not-a-string", "rule", "no-robots", "no-url"]
    assert [d.metadata["disallowed_user_agents"] for d in batch] == (
        [[]] * 6 + [["GPTBot", "*"]] + [[]] * 2)
    assert f.filter_batch([]) == []


def test_on_missing_disallow_drops_what_no_robots_txt_judged(robots_dir):
    f = RobotsFilter(agents="GPTBot", robots_dir=robots_dir, on_missing="disallow")
    batch = [Document(text="", id=str(i), metadata={"url": v}) for i, v in enumerate(
        ["https://none.example/", None, "not a url", "https://e.example/page"])]
    assert f.filter_batch(batch) == [(False, "robots")] * 3 + [True]
    assert [d.metadata["disallowed_user_agents"] for d in batch] == [["GPTBot"]] * 3 + [[]]
    allow = RobotsFilter(agents="GPTBot", robots_dir=robots_dir, on_missing="allow")
    assert allow.filter_batch(batch) == [True] * 4


def test_sources_and_options_fail_at_construction(tmp_path, robots_dir):
    with pytest.raises(OSError):
        RobotsFilter(agents="GPTBot", robots_dir=str(tmp_path / "absent"))
    with pytest.raises(OSError):
        RobotsFilter(agents="GPTBot", robots_index=str(tmp_path / "absent.jsonl"))
    with pytest.raises(OSError):
        RobotsFilter(agents="GPTBot", robots_parquet=str(tmp_path / "absent.parquet"))
    not_parquet = tmp_path / "robots.parquet"
    not_parquet.write_bytes(b"not parquet at all")
    with pytest.raises((OSError, ValueError)):
        RobotsFilter(agents="GPTBot", robots_parquet=str(not_parquet))
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"host": ["a.example"], "body": ["x"]}), tmp_path / "cols.parquet")
    with pytest.raises(ValueError, match="domain"):
        RobotsFilter(agents="GPTBot", robots_parquet=str(tmp_path / "cols.parquet"))
    with pytest.raises(ValueError, match="source"):
        RobotsFilter(agents="GPTBot")
    with pytest.raises(ValueError):
        RobotsFilter(agents="GPTBot", robots_dir=robots_dir, dialect="nope")
    with pytest.raises(ValueError):
        RobotsFilter(agents="GPTBot", robots_dir=robots_dir, on_missing="keep")
    with pytest.raises(ValueError):
        RobotsFilter(agents="GPTBot", robots_dir=robots_dir, mode="drop")
    with pytest.raises(ValueError, match="category"):
        RobotsFilter(agents="ai:nope", robots_dir=robots_dir)
    with pytest.raises(TypeError):
        RobotsFilter(agents="GPTBot", robots_dir=robots_dir, robots_txt="x")


def test_time_key_judges_each_document_at_its_fetch_time():
    import datetime

    from test_captures import FETCHES

    def batch():
        times = ["2024-02-01T00:00:00Z", 1719792000, datetime.datetime(2024, 7, 1), None, "soon"]
        docs = [Document(text="", id=str(i), metadata={"url": "https://a.com/private/x", "fetched": t})
                for i, t in enumerate(times)]
        docs.append(Document(text="", id="no-time", metadata={"url": "https://a.com/private/x"}))
        return docs

    f = RobotsFilter(agents="GPTBot", fetches=FETCHES, time_key="fetched")
    docs = batch()
    assert f.filter_batch(docs) == [True, (False, "robots"), (False, "robots"), True, True, True]
    verdicts = f.spec.judge([d.metadata["url"] for d in docs],
                            times=[d.metadata.get("fetched") for d in docs])
    assert verdicts.reason == ["rule", "rule", "rule", "no-time", "no-time", "no-time"]
    assert count(verdicts) == {"robots_allowed": 1, "robots_disallowed": 2, "robots_unknown": 3,
                               "robots_no-time": 3}
    # Without a time key the newest capture judges every document; as of
    # a date, the capture then; the spec pickles with its time options.
    assert RobotsFilter(agents="GPTBot", fetches=FETCHES).filter_batch(batch()) == [(False, "robots")] * 6
    early = RobotsFilter(agents="GPTBot", fetches=FETCHES, as_of="2024-02-01")
    assert early.filter_batch(batch()) == [True] * 6
    copy = pickle.loads(pickle.dumps(f))
    assert copy.filter_batch(batch()) == [True, (False, "robots"), (False, "robots"), True, True, True]
    # Older than every capture, under before_first="unknown": kept as unknown.
    strict = RobotsFilter(agents="GPTBot", fetches=FETCHES, time_key="fetched", before_first="unknown")
    old = [Document(text="", id="old", metadata={"url": "https://a.com/private/x", "fetched": "2020-01-01"})]
    assert strict.filter_batch(old) == [True]
    assert count(strict.spec.judge(["https://a.com/private/x"], times=["2020-01-01"])) == {
        "robots_unknown": 1, "robots_before-first": 1}
    with pytest.raises(TypeError, match="time_key"):
        RobotsFilter(agents="GPTBot", fetches=FETCHES, at_fetch_time=True)
