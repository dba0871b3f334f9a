"""robots_batch.nemo.RobotsStage: filters and tags a DocumentBatch's Arrow
table as `robots-batch crawl` judges its URLs, declares its inputs and
outputs, builds its judge in setup() and pickles without it.

NeMo Curator itself needs torch and more than a 2-core CI machine without
a GPU should install, so where it is absent these tests run the stage on a
minimal stand-in for its two base classes (ProcessingStage and
DocumentBatch, as nemo_curator 1.x defines them); where it is installed,
on the real ones."""

import dataclasses
import importlib
import pickle
import sys
import types
import warnings
from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar

import pytest

import pipeline_data as pdata

pa = pytest.importorskip("pyarrow")


def _stand_in():
    """Modules nemo_curator.stages.base and nemo_curator.tasks with the
    interface RobotsStage uses: ProcessingStage (generic over its input and
    output tasks; process, setup, inputs, outputs, _log_metrics) and
    DocumentBatch (dataset_name, data, _metadata, _stage_perf, to_pyarrow)."""
    X, Y = TypeVar("X"), TypeVar("Y")

    class ProcessingStage(ABC, Generic[X, Y]):
        name = "ProcessingStage"
        batch_size = 1

        @abstractmethod
        def process(self, task):
            ...

        def setup(self, worker_metadata=None):
            pass

        def inputs(self):
            return [], []

        def outputs(self):
            return [], []

        def _log_metrics(self, metrics):
            self.__dict__.setdefault("_custom_metrics", {}).update(metrics)

    @dataclasses.dataclass
    class DocumentBatch:
        dataset_name: str
        data: Any
        _stage_perf: list = dataclasses.field(default_factory=list)
        _metadata: dict = dataclasses.field(default_factory=dict)
        task_id: str = ""

        def to_pyarrow(self):
            return self.data if isinstance(self.data, pa.Table) else pa.Table.from_pandas(self.data)

    root = types.ModuleType("nemo_curator")
    stages = types.ModuleType("nemo_curator.stages")
    base = types.ModuleType("nemo_curator.stages.base")
    tasks = types.ModuleType("nemo_curator.tasks")
    base.ProcessingStage = ProcessingStage
    tasks.DocumentBatch = DocumentBatch
    root.stages, stages.base, root.tasks = stages, base, tasks
    return {"nemo_curator": root, "nemo_curator.stages": stages,
            "nemo_curator.stages.base": base, "nemo_curator.tasks": tasks}


@pytest.fixture(scope="module")
def nemo():
    """(RobotsStage, DocumentBatch, whether the real NeMo Curator)."""
    try:
        from nemo_curator.tasks import DocumentBatch

        real = True
    except ImportError:
        real = False
    saved = {}
    if not real:
        for name, module in _stand_in().items():
            saved[name] = sys.modules.get(name)
            sys.modules[name] = module
        DocumentBatch = sys.modules["nemo_curator.tasks"].DocumentBatch
    sys.modules.pop("robots_batch.nemo", None)
    module = importlib.import_module("robots_batch.nemo")
    # The stand-in's classes live in this test only; the stage is pickled
    # here by value of its state, its class by reference to this module.
    yield module.RobotsStage, DocumentBatch, real
    sys.modules.pop("robots_batch.nemo", None)
    for name, module in saved.items():
        if module is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = module


@pytest.fixture
def robots_dir(tmp_path):
    return str(pdata.write_robots_dir(tmp_path / "robots"))


def _batch(DocumentBatch, docs):
    table = pa.table({
        "id": [d["id"] for d in docs],
        "text": [d["text"] for d in docs],
        "url": pa.array([d.get("url") if isinstance(d.get("url"), str) else None
                         for d in docs], pa.string()),
    })
    return DocumentBatch(dataset_name="shard", data=table)


@pytest.mark.parametrize("mode", ["filter", "tag"])
def test_the_stage_keeps_what_the_command_allows(nemo, tmp_path, binary, robots_dir, mode):
    RobotsStage, DocumentBatch, _ = nemo
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        stage = RobotsStage(agents=pdata.AGENTS, robots_dir=robots_dir, mode=mode)
    assert stage.inputs() == (["data"], ["url"])
    assert stage.outputs() == (["data"], ["robots_verdict", "robots_reason",
                                          "disallowed_user_agents"])
    # As a worker gets it: pickled, then set up.
    stage = pickle.loads(pickle.dumps(stage))
    assert not stage.spec.built
    stage.setup()
    assert stage.spec.built
    docs = pdata.documents(300)
    out = stage.process(_batch(DocumentBatch, docs))
    assert out.dataset_name == "shard"
    rows = out.to_pyarrow().to_pylist()

    verdicts = pdata.command_verdicts(binary, tmp_path, [d.get("url") for d in docs],
                                      pdata.AGENTS, "--robots-dir", robots_dir)
    want = pdata.expected(docs, verdicts, pdata.AGENTS)
    got = {r["id"]: r["disallowed_user_agents"] for r in rows}
    if mode == "filter":
        assert set(got) == {i for i, agents in want.items() if not agents}
    else:
        assert got == want
    assert all((r["robots_verdict"] == "disallowed") == bool(r["disallowed_user_agents"])
               for r in rows)
    metrics = getattr(stage, "_custom_metrics", None)
    if metrics is not None:
        assert metrics["robots_disallowed"] == sum(bool(a) for a in want.values())
        assert metrics["robots_no-url"] == sum(not isinstance(d.get("url"), str) for d in docs)


def test_a_pandas_batch_and_a_batch_without_the_column(nemo, robots_dir):
    RobotsStage, DocumentBatch, _ = nemo
    pd = pytest.importorskip("pandas")
    stage = RobotsStage(agents="GPTBot", robots_dir=robots_dir, url_field="link")
    frame = pd.DataFrame({"link": ["https://a.example/x", None, "nope"], "id": [1, 2, 3]})
    out = stage.process(DocumentBatch(dataset_name="d", data=frame)).to_pyarrow()
    assert out.column("id").to_pylist() == [2, 3]
    assert out.column("robots_reason").to_pylist() == ["no-url", "no-host"]
    none = stage.process(DocumentBatch(dataset_name="d", data=pa.table({"id": [1]})))
    assert none.to_pyarrow().column("robots_reason").to_pylist() == ["no-url"]


def test_time_field_judges_each_row_at_its_fetch_time(nemo):
    from test_captures import FETCHES

    RobotsStage, DocumentBatch, _ = nemo
    stage = RobotsStage(agents="GPTBot", fetches=FETCHES, time_field="fetched")
    assert stage.inputs() == (["data"], ["url", "fetched"])
    table = pa.table({
        "id": [0, 1, 2, 3],
        "url": ["https://a.com/private/x"] * 4,
        "fetched": ["2024-02-01", "20240701000000", None, "soon"],
    })
    out = stage.process(DocumentBatch(dataset_name="d", data=table)).to_pyarrow()
    # The disallowed row goes; the unreadable times stay, as unknown.
    assert out.column("id").to_pylist() == [0, 2, 3]
    assert out.column("robots_reason").to_pylist() == ["rule", "no-time", "no-time"]
    metrics = getattr(stage, "_custom_metrics", None)
    if metrics is not None:
        assert metrics["robots_no-time"] == 2
    newest = RobotsStage(agents="GPTBot", fetches=FETCHES, mode="tag")
    tagged = newest.process(DocumentBatch(dataset_name="d", data=table)).to_pyarrow()
    assert tagged.column("robots_verdict").to_pylist() == ["disallowed"] * 4
