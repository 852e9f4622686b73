"""The one interface every backend implements: run a parameterised statement, get rows."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from typing import Any, Callable, Mapping

from ..errors import InputError

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
        except UnicodeEncodeError as exc:  # a lone surrogate (JSON's "\\ud800" makes one) has no UTF-8
            raise InputError(f"{_holder(params, exc.object)}holds a lone surrogate "
                             f"(U+{ord(exc.object[exc.start]):04X}), which cannot be stored or searched") from None

    @abstractmethod
    def _run(self, query: str, params: dict, read_only: bool, retry: bool = False) -> list[dict]: ...

    @abstractmethod
    def install_schema(self, statements: list[str], params: Mapping[str, Any]) -> None:
        """Run DDL idempotently."""

    @abstractmethod
    def close(self) -> None: ...

    def describe(self) -> str:
        return self.dialect


def _holder(params: Mapping[str, Any], text: object) -> str:
    """ "$name " of the parameter that holds `text` (as a value or inside one), for an error
    message; "a value " when none is found."""
    def holds(value: Any) -> bool:
        if isinstance(value, str):
            return isinstance(text, str) and text in value if text else False
        if isinstance(value, Mapping):
            return any(holds(v) for v in value.values())
        if isinstance(value, (list, tuple)):
            return any(holds(v) for v in value)
        return False

    return next((f"${name} " for name, value in params.items() if holds(value)), "a value ")


def _short(value: Any) -> Any:
    """Keep vectors out of debug logs."""
    if isinstance(value, (list, tuple)) and len(value) > 8 and all(isinstance(x, float) for x in value[:8]):
        return f"<vector of {len(value)}>"
    return value
