"""robots-batch as a datatrove filter: drops (or tags) the documents whose
URL a robots.txt disallows to any of the agents given.

    from datatrove.pipeline.readers import ParquetReader
    from datatrove.pipeline.writers import JsonlWriter
    from robots_batch.datatrove import RobotsFilter

    pipeline = [
        ParquetReader("data/shard"),
        RobotsFilter(agents="swiss-ai", robots_parquet="robots.parquet"),
        JsonlWriter("out/kept"),
    ]

The filter judges a batch of documents (``batch_size``, 4,096 by default)
in one call of the Rust library, not one document at a time. It pickles as
its options and paths: each datatrove worker builds the judge the first
time it filters. See docs/PIPELINES.md.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union

from datatrove.data import Document
from datatrove.pipeline.filters.base_filter import BaseFilter

from ._judge import count, timed_spec

__all__ = ["RobotsFilter"]

#: The metadata field every document gets: the agents that may not fetch
#: its URL (empty when none, or when it has no URL to judge).
FIELD = "disallowed_user_agents"


class RobotsFilter(BaseFilter):
    """Drops a document when its URL (``doc.metadata[url_key]``) is
    disallowed to any of ``agents``, with the drop reason ``robots``; with
    ``mode="tag"`` keeps every document. Every document gets
    ``metadata["disallowed_user_agents"]``, the list of those agents.

    :param agents: agent names, or the presets ``"ai"``, ``"ai:CATEGORY"``
        and ``"swiss-ai"`` (the 15 agents of the Swiss AI filter).
    :param options: where the robots.txt fetches come from, one or more of
        ``robots_dir``, ``robots_index``, ``robots_warc``, ``fetches`` (as
        :class:`robots_batch.Crawl` takes them) and ``robots_parquet``
        (Parquet files of ``domain, content``, a row applying to the URLs
        whose host is that domain, over http and https); and the policy:
        ``dialect``, ``engine``, ``on_4xx``, ``on_401_403``, ``on_5xx``,
        ``on_missing``, ``max_redirects``, ``max_robots_bytes``,
        ``cache_bytes``, ``as_of``, ``before_first``, as
        :class:`robots_batch.Crawl`.
    :param on_missing (in options): a URL whose origin has no robots.txt, or a document
        with no URL string: ``None`` (the default) keeps it as ``unknown``,
        ``"allow"`` keeps it, ``"disallow"`` drops it as disallowed to
        every agent. The stats count ``robots_allowed``,
        ``robots_disallowed``, ``robots_unknown``, and the documents not
        judged by a robots.txt by why: ``robots_no-url`` (no URL, or null),
        ``robots_not-a-string``, ``robots_no-host`` (not a URL),
        ``robots_no-robots`` (no robots.txt for its origin),
        ``robots_no-time`` (no fetch time that could be read, with
        ``time_key``), ``robots_before-first`` (older than every capture,
        under ``before_first="unknown"``).
    :param url_key: the metadata key of the URL.
    :param time_key: the metadata key of the document's fetch time (a str
        such as ``2024-06-01T12:00:00Z`` or a 14-digit timestamp, an int of
        seconds, a datetime): each URL is then judged by the capture of its
        origin in effect at that time (``at_fetch_time``), and a document
        whose time cannot be read is ``unknown``, ``no-time``.
    :param mode: ``"filter"`` (the default) or ``"tag"``.
    :param exclusion_writer: a datatrove writer for the dropped documents.
    :param batch_size: documents judged per call.

    Missing or unreadable sources, and bad options, raise ``OSError`` or
    ``ValueError`` here, before any document is read; a bad URL never
    raises.
    """

    name = "🤖 robots.txt"

    def __init__(
        self,
        agents: Union[str, Sequence[str]],
        *,
        url_key: str = "url",
        time_key: Optional[str] = None,
        mode: str = "filter",
        exclusion_writer: Any = None,
        batch_size: int = 4096,
        **options: Any,
    ) -> None:
        super().__init__(exclusion_writer, batch_size)
        if mode not in ("filter", "tag"):
            raise ValueError(f'mode must be "filter" or "tag", not {mode!r}')
        self.spec = timed_spec(agents, time_key, "time_key", options)
        self.url_key = url_key
        self.time_key = time_key
        self.mode = mode

    @property
    def agents(self) -> List[str]:
        """The agents judged, presets expanded, in the order of the lists."""
        return self.spec.agents

    def filter(self, doc: Document) -> Union[bool, Tuple[bool, str]]:
        """One document (datatrove calls :meth:`filter_batch` instead)."""
        return self.filter_batch([doc])[0]

    def filter_batch(self, batch: List[Document]) -> List[Union[bool, Tuple[bool, str]]]:
        key = self.url_key
        times = None
        if self.time_key is not None:
            times = [doc.metadata.get(self.time_key) for doc in batch]
        verdicts = self.spec.judge([doc.metadata.get(key) for doc in batch], times=times)
        keep_all = self.mode == "tag"
        out: List[Union[bool, Tuple[bool, str]]] = []
        for doc, verdict, agents in zip(batch, verdicts.verdict, verdicts.disallowed()):
            doc.metadata[FIELD] = agents
            out.append(True if keep_all or verdict != "disallowed" else (False, "robots"))
        # Counted per batch, not per document: a stat update costs about
        # as much as judging a URL.
        for name, n in count(verdicts).items():
            self.stat_update(name, value=n, unit="batch")
        return out
