"""The one interface every backend implements: run a parameterised statement, get rows."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from typing import Any, Callable, Mapping

log = logging.getLogger("graphmem.cypher")

Tracer = Callable[[str, Mapping[str, Any]], None]


class Driver(ABC):
    """A connection to one graph. `dialect` names the Cypher variant ("neo4j" or "falkordb")."""

    dialect: str
    tracer: Tracer | None = None

    def run(self, query: str, params: Mapping[str, Any] | None = None, *, read_only: bool = False,
            retry: bool = False) -> list[dict]:
        """`retry`: the statement may run again after a lost connection (it reads, or its
        writes are idempotent)."""
        params = dict(params or {})
        if self.tracer:
            self.tracer(query, params)
        if log.isEnabledFor(logging.DEBUG):
            log.debug("%s %s", query, {k: _short(v) for k, v in params.items()})
        return self._run(query, params, read_only, retry)

    @abstractmethod
    def _run(self, query: str, params: dict, read_only: bool, retry: bool = False) -> list[dict]: ...

    @abstractmethod
    def install_schema(self, statements: list[str], params: Mapping[str, Any]) -> None:
        """Run DDL idempotently."""

    @abstractmethod
    def close(self) -> None: ...

    def describe(self) -> str:
        return self.dialect


def _short(value: Any) -> Any:
    """Keep vectors out of debug logs."""
    if isinstance(value, (list, tuple)) and len(value) > 8 and all(isinstance(x, float) for x in value[:8]):
        return f"<vector of {len(value)}>"
    return value
