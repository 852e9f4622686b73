"""The one interface every backend implements: run a parameterised statement, get rows."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from typing import Any, Callable, Mapping

from ..errors import InputError
from ..keys import unstorable

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
        try:
            return self._run(query, params, read_only, retry)
        except UnicodeEncodeError:  # a lone surrogate (JSON's "\\ud800" makes one) has no UTF-8
            held = unstorable_parameter(params) or "a value holds a lone surrogate"
            raise InputError(f"{held}, which cannot be stored or searched") from None

    @abstractmethod
    def _run(self, query: str, params: dict, read_only: bool, retry: bool = False) -> list[dict]: ...

    @abstractmethod
    def install_schema(self, statements: list[str], params: Mapping[str, Any]) -> None:
        """Run DDL idempotently."""

    @abstractmethod
    def close(self) -> None: ...

    def purge_logs(self) -> bool:
        """After a delete: rewrite the files that graphmem's own server keeps besides the graph
        (the embedded server's append-only log) so that none holds what was deleted, and wait
        for it. Whether it did: a server graphmem does not run keeps its logs and backups by
        its own rules (README.md, "Living memory")."""
        return False

    def describe(self) -> str:
        return self.dialect


def unstorable_parameter(params: Mapping[str, Any]) -> str | None:
    """ "$name holds ..." for the first parameter with a string (as a value or inside one) that no
    backend can store (keys.unstorable), for an error message; None when there is none."""
    def problem(value: Any) -> str | None:
        if isinstance(value, str):
            return unstorable(value)
        inside = value.values() if isinstance(value, Mapping) else value if isinstance(value, (list, tuple)) else ()
        return next((found for found in map(problem, inside) if found), None)

    return next((f"${name} holds {found}" for name, value in params.items() if (found := problem(value))), None)


def _short(value: Any) -> Any:
    """Keep vectors out of debug logs."""
    if isinstance(value, (list, tuple)) and len(value) > 8 and all(isinstance(x, float) for x in value[:8]):
        return f"<vector of {len(value)}>"
    return value
