"""The judge the pipeline steps share (robots_batch._judge): the agent
presets are the command's lists, robots_parquet's domain rule is the
netloc lookup it stands for, and bad URLs are `unknown` with a reason."""

import warnings

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("numpy", reason="numpy is not installed: the pipeline judge needs it")

import pyarrow.parquet as pq  # noqa: E402

import pipeline_data as pdata  # noqa: E402
from conftest import run  # noqa: E402
from robots_batch._judge import SWISS_AI_AGENTS, JudgeSpec, count, expand_agents  # noqa: E402


def _command_agents(binary, tmp_path, preset):
    """The agents `crawl --agents PRESET` judges, in its order."""
    (tmp_path / "robots").mkdir(exist_ok=True)
    urls = tmp_path / "one.txt"
    urls.write_text("https://a.example/\n")
    out = run(binary, "crawl", "--no-header", "--robots-dir", str(tmp_path / "robots"),
              "--agents", preset, str(urls)).decode()
    return [line.split(",")[1] for line in out.splitlines()]


@pytest.mark.parametrize("preset", ["ai", "ai:data-scrapers", "ai:assistants"])
def test_the_ai_presets_are_the_commands(binary, tmp_path, preset):
    assert expand_agents(preset) == _command_agents(binary, tmp_path, preset)


def test_presets_mix_with_names_and_duplicates_go():
    agents = expand_agents(["MyBot", "swiss-ai", "gptbot"])
    assert agents == ["MyBot", *SWISS_AI_AGENTS]
    assert len(SWISS_AI_AGENTS) == 15
    with pytest.raises(ValueError, match="category"):
        expand_agents("ai:nothing")
    with pytest.raises(ValueError):
        expand_agents([])
    with pytest.raises(TypeError):
        expand_agents(["GPTBot", 3])


def test_a_parquet_domain_is_its_host_over_both_schemes(tmp_path):
    path = tmp_path / "robots.parquet"
    pq.write_table(pa.table({
        "domain": ["www.site.example", "Port.example:8080", "null.example"],
        "content": [b"User-agent: *\nDisallow: /\n", b"User-agent: *\nDisallow: /p\n", None],
    }), path)
    spec = JudgeSpec("GPTBot", robots_parquet=str(path))
    urls = [
        "http://www.site.example/a", "https://www.site.example/a", "https://site.example/a",
        "https://sub.www.site.example/a", "https://WWW.SITE.EXAMPLE/a",
        "http://port.example:8080/p", "http://port.example/p", "https://null.example/",
    ]
    v = spec.judge(urls)
    assert v.verdict == ["disallowed", "disallowed", "unknown", "unknown", "disallowed",
                         "disallowed", "unknown", "unknown"]
    assert v.reason[2] == v.reason[7] == "no-robots"


def test_bad_urls_are_unknown_with_a_reason(tmp_path):
    robots = pdata.write_robots_dir(tmp_path / "robots")
    spec = JudgeSpec(["GPTBot", "CCBot"], robots_dir=str(robots))
    values = [None, 1.5, b"x", "not a url", "https://a.example/private/x", "https://none.example/"]
    v = spec.judge(values)
    assert v.verdict == ["unknown"] * 4 + ["disallowed", "unknown"]
    assert v.reason == ["no-url", "not-a-string", "not-a-string", "no-host", "rule", "no-robots"]
    assert v.disallowed() == [[]] * 4 + [["GPTBot", "CCBot"], []]
    assert count(v) == {"robots_unknown": 5, "robots_disallowed": 1, "robots_no-url": 1,
                        "robots_not-a-string": 2, "robots_no-host": 1, "robots_no-robots": 1}
    # An Arrow column of another type holds no URL either.
    assert spec.judge(pa.array([1, None])).reason == ["not-a-string", "no-url"]
    assert spec.judge(pa.array([], pa.string())).verdict == []
    arrow = dict(spec.judge(pa.array(values[3:])).columns())
    assert arrow["disallowed_user_agents"].to_pylist() == [[], ["GPTBot", "CCBot"], []]


def test_the_spec_pickles_as_its_options(tmp_path):
    import pickle

    robots = pdata.write_robots_dir(tmp_path / "robots")
    spec = JudgeSpec("GPTBot", robots_dir=str(robots))
    before = pickle.dumps(spec)
    spec.judge(["https://a.example/"])
    assert spec.built and pickle.dumps(spec) == before
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Built in the worker without warnings (said at construction).
        copy = pickle.loads(before)
        assert copy.judge(["https://a.example/x"]).verdict == ["disallowed"]
