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

from ._judge import JudgeSpec

__all__ = ["with_verdicts", "RobotsVerdicts"]

#: The columns with_verdicts adds (and with explain=True, the last three).
COLUMNS = ("robots_verdict", "robots_reason", "disallowed_user_agents")
EXPLAIN_COLUMNS = ("robots_source", "robots_line", "robots_rule")


class RobotsVerdicts:
    """The ``map_batches`` callable: built once per actor from a
    :class:`JudgeSpec` (options and paths, shipped cheaply), it builds the
    Crawl on its first batch and adds the verdict columns to each."""

    def __init__(self, spec: JudgeSpec, url_column: str = "url", explain: bool = False) -> None:
        self.spec = spec
        self.url_column = url_column
        self.explain = explain

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        names = list(batch.column_names)
        if self.url_column in names:
            urls = batch.column(self.url_column)
        else:
            # Judged as documents without a URL: unknown, not an error.
            urls = pa.nulls(batch.num_rows, pa.string())
        verdicts = self.spec.judge(urls, explain=self.explain)
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
    explain: bool = False,
    batch_size: int = 4096,
    map_batches_args: Optional[dict] = None,
    **options: Any,
) -> Any:
    """``ds`` with the columns ``robots_verdict`` (``allowed``,
    ``disallowed`` to at least one agent, or ``unknown``), ``robots_reason``
    and ``disallowed_user_agents`` (a list of the agents, empty when none),
    and with ``explain`` the deciding agent's ``robots_source``,
    ``robots_line`` and ``robots_rule``.

    ``agents`` (with the presets ``"ai"``, ``"ai:CATEGORY"``,
    ``"swiss-ai"``) and the ``options`` (sources: ``robots_dir``,
    ``robots_index``, ``robots_warc``, ``fetches``, ``robots_parquet``;
    policy: ``dialect``, ``on_4xx``, ``on_5xx``, ``on_missing``...) are
    those of :class:`robots_batch.datatrove.RobotsFilter`, checked here on
    the driver. ``map_batches_args`` go to ``Dataset.map_batches``
    (``{"compute": ray.data.ActorPoolStrategy(size=4)}``, ``num_cpus``...).
    A null, non-string or non-URL value in ``url_column`` gives ``unknown``
    with its reason; it never raises.

    Drop the disallowed rows with
    ``.filter(expr=ray.data.expressions.col("robots_verdict") != "disallowed")``.
    """
    spec = JudgeSpec(agents, **options)
    return ds.map_batches(
        RobotsVerdicts,
        fn_constructor_kwargs={"spec": spec, "url_column": url_column, "explain": explain},
        batch_format="pyarrow",
        batch_size=batch_size,
        **(map_batches_args or {}),
    )
