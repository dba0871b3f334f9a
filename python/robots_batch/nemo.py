"""robots-batch as a NeMo Curator stage: a
``ProcessingStage[DocumentBatch, DocumentBatch]`` that judges the URLs of a
batch's Arrow table in one call, and drops (or tags) the documents a
robots.txt disallows to any of the agents given.

    from nemo_curator.pipeline import Pipeline
    from robots_batch.nemo import RobotsStage

    pipeline.add_stage(RobotsStage(agents="swiss-ai", robots_parquet="robots.parquet"))

Written against NeMo Curator's ``nemo_curator.stages.base.ProcessingStage``
and ``nemo_curator.tasks.DocumentBatch`` (1.x): NeMo Curator needs torch
and more, so this project's tests run the stage on a minimal stand-in for
those two classes, not on NeMo Curator itself. See docs/PIPELINES.md.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union

try:
    from nemo_curator.stages.base import ProcessingStage
    from nemo_curator.tasks import DocumentBatch
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "robots_batch.nemo needs NeMo Curator (pip install nemo-curator)"
    ) from e

from ._judge import count, timed_spec

__all__ = ["RobotsStage"]

#: The columns the stage adds to every batch.
COLUMNS = ["robots_verdict", "robots_reason", "disallowed_user_agents"]


class RobotsStage(ProcessingStage[DocumentBatch, DocumentBatch]):
    """Adds ``robots_verdict``, ``robots_reason`` and
    ``disallowed_user_agents`` to each batch, and with ``mode="filter"``
    (the default) keeps only the rows not disallowed to any agent.

    ``agents`` and ``options`` (sources and policy) are those of
    :class:`robots_batch.datatrove.RobotsFilter`, checked at construction;
    ``url_field`` is the column of the URLs; ``time_field``, if given, the
    column of each document's fetch time (strings, timestamps, dates or
    integers of seconds), at which its URL is then judged (a time that
    cannot be read: ``unknown``, ``no-time``). :meth:`setup` builds the judge
    once per worker; the stage pickles as its options. The counts of
    ``robots_allowed``, ``robots_disallowed``, ``robots_unknown`` and of
    the unjudged rows by reason go to the stage's custom metrics.
    """

    name = "robots_txt"

    def __init__(
        self,
        agents: Union[str, Sequence[str]],
        *,
        url_field: str = "url",
        time_field: Optional[str] = None,
        mode: str = "filter",
        **options: Any,
    ) -> None:
        if mode not in ("filter", "tag"):
            raise ValueError(f'mode must be "filter" or "tag", not {mode!r}')
        self.spec = timed_spec(agents, time_field, "time_field", options)
        self.url_field = url_field
        self.time_field = time_field
        self.mode = mode

    def inputs(self) -> Tuple[List[str], List[str]]:
        fields = [self.url_field]
        if self.time_field is not None:
            fields.append(self.time_field)
        return ["data"], fields

    def outputs(self) -> Tuple[List[str], List[str]]:
        return ["data"], list(COLUMNS)

    def setup(self, worker_metadata: Any = None) -> None:
        # Reads the sources and builds the Crawl in the worker, once.
        self.spec.crawl()

    def process(self, batch: DocumentBatch) -> DocumentBatch:
        import pyarrow as pa
        import pyarrow.compute as pc

        table = batch.to_pyarrow()
        if self.url_field in table.column_names:
            urls = table.column(self.url_field)
        else:
            urls = pa.nulls(table.num_rows, pa.string())
        times = None
        if self.time_field is not None:
            if self.time_field in table.column_names:
                times = table.column(self.time_field)
            else:
                times = pa.nulls(table.num_rows, pa.string())
        verdicts = self.spec.judge(urls, times=times)
        for name, column in verdicts.columns():
            if name in table.column_names:
                table = table.drop_columns([name])
            table = table.append_column(name, column)
        if self.mode == "filter":
            table = table.filter(pc.not_equal(table.column("robots_verdict"), "disallowed"))
        log = getattr(self, "_log_metrics", None)
        if log is not None:  # NeMo Curator's per-stage metrics, where it has them
            log({name: float(n) for name, n in count(verdicts).items()})
        return DocumentBatch(
            dataset_name=batch.dataset_name,
            data=table,
            _metadata=batch._metadata,
            _stage_perf=batch._stage_perf,
        )
