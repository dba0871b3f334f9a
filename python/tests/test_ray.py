"""robots_batch.ray.with_verdicts on a local Ray (2 CPUs): over
ray.data.from_arrow and read_parquet, each row's verdict and
disallowed_user_agents are those of `robots-batch crawl` for the same URLs,
agents and robots.txt files, the recipe drops exactly the disallowed rows,
and the callable class pickles without its judge. Skips without Ray or
the release command."""

import pickle
import warnings

import pytest

import pipeline_data as pdata

ray = pytest.importorskip(
    "ray", reason="Ray is not installed (pip install 'robots-batch[ray]'): "
    "the Ray Data adapter is not tested"
)
pytest.importorskip("ray.data", reason="Ray Data is not installed (pip install 'ray[data]')")

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from robots_batch._judge import JudgeSpec  # noqa: E402
from robots_batch.ray import RobotsVerdicts, with_verdicts  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    yield
    ray.shutdown()


@pytest.fixture
def robots_dir(tmp_path):
    return str(pdata.write_robots_dir(tmp_path / "robots"))


def _table(docs):
    # A string column: the bad values that are not strings become nulls.
    return pa.table({
        "id": [d["id"] for d in docs],
        "url": pa.array([d.get("url") if isinstance(d.get("url"), str) else None
                         for d in docs], pa.string()),
    })


def _check(rows, binary, tmp_path, robots_dir, agents):
    urls = [r["url"] for r in rows]
    verdicts = pdata.command_verdicts(binary, tmp_path, urls, agents, "--robots-dir", robots_dir)
    for r in rows:
        per_agent = verdicts.get(r["url"]) if r["url"] else None
        want = [a for a in agents if per_agent and per_agent[a] == "disallowed"]
        assert list(r["disallowed_user_agents"]) == want, r
        if want:
            assert r["robots_verdict"] == "disallowed", r
        elif per_agent is None or per_agent[agents[0]] == "unknown":
            assert r["robots_verdict"] == "unknown", r
            assert r["robots_reason"] in ("no-url", "no-host", "no-robots"), r
        else:
            assert r["robots_verdict"] == "allowed", r
    return verdicts


def test_from_arrow_gets_the_commands_verdicts(local_ray, tmp_path, binary, robots_dir):
    docs = pdata.documents(400)
    table = _table(docs)
    # Several blocks, judged in batches of 50 by the actors.
    ds = ray.data.from_arrow([table.slice(0, 200), table.slice(200)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        judged = with_verdicts(ds, agents=pdata.AGENTS, robots_dir=robots_dir,
                               batch_size=50, explain=True)
    rows = judged.take_all()
    assert sorted(r["id"] for r in rows) == sorted(d["id"] for d in docs)
    verdicts = _check(rows, binary, tmp_path, robots_dir, pdata.AGENTS)
    explained = [r for r in rows if r["robots_verdict"] == "disallowed"
                 and r["robots_reason"] == "rule"]
    assert explained and all(r["robots_rule"] and r["robots_line"] for r in explained)

    # The recipe: drop the rows disallowed to any agent.
    from ray.data.expressions import col

    kept = judged.filter(expr=col("robots_verdict") != "disallowed").drop_columns(
        ["robots_verdict", "robots_reason", "disallowed_user_agents",
         "robots_source", "robots_capture", "robots_line", "robots_rule"])
    kept_ids = {r["id"] for r in kept.take_all()}
    want = {d["id"] for d in docs if not (
        isinstance(d.get("url"), str) and d["url"] in verdicts
        and "disallowed" in verdicts[d["url"]].values())}
    assert kept_ids == want
    assert len(kept_ids) < len(docs)


def test_read_parquet_with_robots_parquet(local_ray, tmp_path, binary, robots_dir):
    docs = [d for d in pdata.documents(300) if isinstance(d.get("url"), str)]
    shard = tmp_path / "shard"
    shard.mkdir()
    pq.write_table(_table(docs[:150]), shard / "0.parquet")
    pq.write_table(_table(docs[150:]), shard / "1.parquet")
    robots = pdata.write_robots_parquet(str(tmp_path / "robots.parquet"))
    ds = ray.data.read_parquet(str(shard))
    rows = with_verdicts(ds, agents=["GPTBot", "CCBot"], robots_parquet=robots,
                         batch_size=64).take_all()
    assert len(rows) == len(docs)
    # The domain rows apply to their hosts as the same files in a robots
    # directory do for the command.
    _check(rows, binary, tmp_path, robots_dir, ["GPTBot", "CCBot"])


def test_the_callable_pickles_without_its_judge(robots_dir):
    from robots_batch._judge import JudgeSpec

    spec = JudgeSpec(["GPTBot", "CCBot"], robots_dir=robots_dir)
    fn = RobotsVerdicts(spec)
    table = _table(pdata.documents(100))
    first = fn(table)
    assert spec.built
    copy = pickle.loads(pickle.dumps(fn))
    assert not copy.spec.built
    assert copy(table).equals(first)
    # A batch without the URL column is judged as rows without URLs.
    other = RobotsVerdicts(spec, url_column="link")(table)
    assert set(other.column("robots_reason").to_pylist()) == {"no-url"}


def test_time_column_judges_each_row_at_its_fetch_time(local_ray):
    import datetime

    from test_captures import FETCHES

    table = pa.table({
        "id": [0, 1, 2, 3],
        "url": ["https://a.com/private/x"] * 3 + ["https://b.com/y"],
        "fetched": pa.array([datetime.datetime(2024, 2, 1), datetime.datetime(2024, 7, 1), None,
                             datetime.datetime(2024, 1, 1)], pa.timestamp("us", tz="UTC")),
    })
    ds = ray.data.from_arrow(table)
    judged = with_verdicts(ds, agents="GPTBot", fetches=FETCHES, time_column="fetched",
                           explain=True)
    rows = sorted(judged.take_all(), key=lambda r: r["id"])
    assert [(r["robots_verdict"], r["robots_reason"], r["robots_capture"]) for r in rows] == [
        ("allowed", "rule", "2024-01-01T00:00:00Z"),
        ("disallowed", "rule", "2024-06-01T00:00:00Z"),
        ("unknown", "no-time", None),
        ("disallowed", "rule;before-first", "2024-03-15T00:00:00Z"),
    ]
    # Without the time column, the newest capture: every row disallowed.
    newest = with_verdicts(ds, agents="GPTBot", fetches=FETCHES)
    assert [r["robots_verdict"] for r in newest.take_all()] == ["disallowed"] * 4
    # A batch without the column: its rows have no time.
    spec = JudgeSpec("GPTBot", fetches=FETCHES, at_fetch_time=True)
    call = RobotsVerdicts(spec, time_column="fetched")
    out = call(table.drop_columns(["fetched"]))
    assert out.column("robots_reason").to_pylist() == ["no-time"] * 4
