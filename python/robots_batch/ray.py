"""robots-batch in Ray Data: verdict columns for a dataset of URLs, added by
``map_batches`` over Arrow batches with a callable class, so that each
actor builds its judge once and no Python object is made per URL.

    import ray
    from ray.data.expressions import col
    from robots_batch.ray import with_verdicts

    ds = ray.data.read_parquet("data/shard")
    judged = with_verdicts(ds, agents="swiss-ai", robots_parquet="robots.parquet")
    kept = judged.filter(expr=col("robots_verdict") != "disallowed")

See docs/PIPELINES.md.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

from ._judge import JudgeSpec, timed_spec

__all__ = ["with_verdicts", "RobotsVerdicts"]

#: The columns with_verdicts adds (and with explain=True, EXPLAIN_COLUMNS).
COLUMNS = ("robots_verdict", "robots_reason", "disallowed_user_agents")
EXPLAIN_COLUMNS = ("robots_source", "robots_capture", "robots_line", "robots_rule")


class RobotsVerdicts:
    """The ``map_batches`` callable: built once per actor from a
    :class:`JudgeSpec` (options and paths, shipped cheaply), it builds the
    Crawl on its first batch and adds the verdict columns to each."""

    def __init__(
        self,
        spec: JudgeSpec,
        url_column: str = "url",
        explain: bool = False,
        time_column: Optional[str] = None,
    ) -> None:
        self.spec = spec
        self.url_column = url_column
        self.explain = explain
        self.time_column = time_column

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        names = list(batch.column_names)
        if self.url_column in names:
            urls = batch.column(self.url_column)
        else:
            # Judged as documents without a URL: unknown, not an error.
            urls = pa.nulls(batch.num_rows, pa.string())
        times = None
        if self.time_column is not None:
            if self.time_column in names:
                times = batch.column(self.time_column)
            else:
                # No time to read: unknown, no-time, not an error.
                times = pa.nulls(batch.num_rows, pa.string())
        verdicts = self.spec.judge(urls, explain=self.explain, times=times)
        arrays = list(batch.columns)
        for name, column in verdicts.columns(self.explain):
            if name in names:
                # A second pass over judged rows replaces the old verdicts.
                arrays.pop(names.index(name))
                names.remove(name)
            names.append(name)
            arrays.append(column)
        return pa.Table.from_arrays(arrays, names=names)


def with_verdicts(
    ds: Any,
    *,
    agents: Union[str, Sequence[str]],
    url_column: str = "url",
    time_column: Optional[str] = None,
    explain: bool = False,
    batch_size: int = 4096,
    map_batches_args: Optional[dict] = None,
    **options: Any,
) -> Any:
    """``ds`` with the columns ``robots_verdict`` (``allowed``,
    ``disallowed`` to at least one agent, or ``unknown``), ``robots_reason``
    and ``disallowed_user_agents`` (a list of the agents, empty when none),
    and with ``explain`` the deciding agent's ``robots_source``,
    ``robots_capture``, ``robots_line`` and ``robots_rule``.

    ``agents`` (with the presets ``"ai"``, ``"ai:CATEGORY"``,
    ``"swiss-ai"``) and the ``options`` (sources: ``robots_dir``,
    ``robots_index``, ``robots_warc``, ``fetches``, ``robots_parquet``;
    policy: ``dialect``, ``on_4xx``, ``on_5xx``, ``on_missing``...) are
    those of :class:`robots_batch.datatrove.RobotsFilter`, checked here on
    the driver. ``map_batches_args`` go to ``Dataset.map_batches``
    (``{"compute": ray.data.ActorPoolStrategy(size=4)}``, ``num_cpus``...).
    A null, non-string or non-URL value in ``url_column`` gives ``unknown``
    with its reason; it never raises. With ``time_column`` (strings,
    timestamps, dates or integers of seconds), each URL is judged by the
    capture of its origin in effect at its fetch time; a time that cannot
    be read gives ``unknown``, ``no-time``.

    Drop the disallowed rows with
    ``.filter(expr=ray.data.expressions.col("robots_verdict") != "disallowed")``.
    """
    spec = timed_spec(agents, time_column, "time_column", options)
    return ds.map_batches(
        RobotsVerdicts,
        fn_constructor_kwargs={
            "spec": spec,
            "url_column": url_column,
            "explain": explain,
            "time_column": time_column,
        },
        batch_format="pyarrow",
        batch_size=batch_size,
        **(map_batches_args or {}),
    )
