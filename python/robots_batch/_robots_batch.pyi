# Type stubs of the extension module (python/src/lib.rs). The public API is
# in __init__.py and spark.py; these are its building blocks.
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

__version__: str

_URL = Union[str, bytes, bytearray, memoryview, None]
_Agents = Union[str, Sequence[str]]
_Columns = List[Tuple[str, "ArrowColumn"]]
# A time: RFC 3339, a day, a 14-digit timestamp, int seconds, a datetime or date.
_Time = Any

class ArrowColumn:
    def __arrow_c_array__(self, requested_schema: Any = None) -> Tuple[Any, Any]: ...

class Matchers:
    def __init__(
        self,
        robots: Union[bytes, str],
        agents: _Agents,
        dialect: str,
        engine: str,
        max_robots_bytes: int,
    ) -> None: ...
    @property
    def agents(self) -> List[str]: ...
    @property
    def dialect(self) -> str: ...
    @property
    def strategies(self) -> List[str]: ...
    def verdicts(self, urls: Iterable[_URL], agent: Optional[str] = None) -> List[Optional[str]]: ...
    def explain(
        self, urls: Iterable[_URL], agent: Optional[str] = None
    ) -> List[Optional[Tuple[str, str, Optional[int], Optional[str], Optional[str]]]]: ...
    def usage(
        self, urls: Iterable[_URL], agent: Optional[str] = None
    ) -> List[
        Optional[
            Tuple[
                str,
                Optional[str],
                Optional[str],
                Optional[str],
                Optional[int],
                Optional[int],
                Optional[int],
            ]
        ]
    ]: ...
    def evaluate_arrow(
        self, urls: Any, explain: bool = False, usage: bool = False
    ) -> _Columns: ...

class Crawl:
    def __init__(
        self,
        agents: _Agents,
        dialect: str,
        engine: str,
        robots_dir: Optional[str],
        dated_dirs: List[Tuple[_Time, str]],
        robots_index: List[str],
        robots_warc: List[str],
        fetches: Optional[Iterable[Any]],
        fetch_array: Optional[List[Any]],
        on_4xx: str,
        on_401_403: str,
        on_5xx: str,
        on_missing: Optional[str],
        max_redirects: int,
        max_robots_bytes: int,
        cache_bytes: Optional[int],
        shared_cache: bool,
        as_of: _Time,
        at_fetch_time: bool,
        before_first: str,
    ) -> None: ...
    def __len__(self) -> int: ...
    @property
    def agents(self) -> List[str]: ...
    @property
    def cache_bytes(self) -> int: ...
    @property
    def captures(self) -> int: ...
    @property
    def as_of(self) -> Optional[str]: ...
    @property
    def at_fetch_time(self) -> bool: ...
    @property
    def before_first(self) -> str: ...
    def verdicts(
        self, urls: Iterable[_URL], agent: Optional[str] = None, times: Any = None
    ) -> List[Optional[Tuple[str, str]]]: ...
    def explain(
        self, urls: Iterable[_URL], agent: Optional[str] = None, times: Any = None
    ) -> List[
        Optional[
            Tuple[str, str, Optional[str], Optional[str], Optional[int], Optional[str]]
        ]
    ]: ...
    def evaluate_arrow(
        self, urls: Any, explain: bool = False, times: Any = None
    ) -> _Columns: ...

def cache_info() -> Tuple[int, int]: ...
def origins(urls: Any) -> _Columns: ...
def fetch_origins(urls: Any, locations: Any) -> _Columns: ...
def read_warc(path: Any, max_robots_bytes: int) -> _Columns: ...
def read_sitemap(
    path: Any, sitemap_dir: Any = ..., origin: Optional[str] = ...
) -> _Columns: ...
def default_max_robots_bytes() -> int: ...
def ai_agent_tokens(category: Optional[str] = None) -> Optional[List[str]]: ...
def ai_categories() -> List[str]: ...
