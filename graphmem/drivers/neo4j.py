"""Neo4j 5 (5.23 or later) through the official driver."""

from __future__ import annotations

import logging
import re
from typing import Any, Mapping

import neo4j
from neo4j.exceptions import AuthError, ClientError, ConfigurationError, Neo4jError, ServiceUnavailable

from ..errors import BackendUnavailable, ConfigError, GraphmemError
from .base import Driver

# The oldest Neo4j that runs every file of cypher/: insert_simplices.cypher's `CALL (a, b) { }`
# scope clause and schema.cypher's `vector.quantization.enabled` came with 5.23.
MIN_VERSION = (5, 23)


class Neo4jDriver(Driver):
    dialect = "neo4j"

    def __init__(self, uri: str, auth: tuple[str, str] | None = None, database: str | None = None):
        self.uri, self.database = uri, database or None
        _check_auth(uri, auth)
        _quiet_driver_logs()
        try:
            # No notifications: graphmem's statements read optional properties and aggregate
            # nulls on purpose, and the driver would log every "property does not exist" (01N52)
            # and "null value eliminated" (01G11) it is sent (filtering needs Neo4j 5.7+).
            self._driver = neo4j.GraphDatabase.driver(uri, auth=auth, notifications_min_severity="OFF")
            agent = self._driver.get_server_info().agent
        except AuthError as exc:
            self._close_quietly()
            raise BackendUnavailable(f"Neo4j at {uri} refused the credentials: {_one_line(exc.message)}") from None
        except (ServiceUnavailable, OSError) as exc:
            self._close_quietly()
            raise BackendUnavailable(f"cannot reach Neo4j at {uri}: {_reason(exc)}") from None
        except ConfigurationError as exc:  # a server too old for notification filtering
            self._close_quietly()
            raise BackendUnavailable(f"Neo4j at {uri}: {_one_line(str(exc))} "
                                     f"(graphmem needs Neo4j {'.'.join(map(str, MIN_VERSION))} or later)") from None
        except ValueError as exc:
            raise ConfigError(f"bad Neo4j URI {uri!r}: {_one_line(str(exc))}") from None
        version = _version(agent)
        if version is not None and version < MIN_VERSION:
            self._close_quietly()
            raise BackendUnavailable(f"Neo4j at {uri} is {agent}: graphmem needs Neo4j "
                                     f"{'.'.join(map(str, MIN_VERSION))} or later")

    def _run(self, query: str, params: dict, read_only: bool, retry: bool = False) -> list[dict]:
        routing = neo4j.RoutingControl.READ if read_only else neo4j.RoutingControl.WRITE
        try:
            records, _, _ = self._driver.execute_query(
                query, params, database_=self.database, routing_=routing)
        except ServiceUnavailable as exc:
            raise BackendUnavailable(f"lost Neo4j at {self.uri}: {_reason(exc)}") from None
        except Neo4jError as exc:
            raise GraphmemError(f"Neo4j rejected the statement ({exc.code}): {exc.message}") from exc
        return [record.data() for record in records]

    def install_schema(self, statements: list[str], params: Mapping[str, Any]) -> None:
        for statement in statements:  # every statement says IF NOT EXISTS
            try:
                self._driver.execute_query(statement, dict(params), database_=self.database)
            except ClientError as exc:
                if exc.code != "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists":
                    raise GraphmemError(f"Neo4j rejected schema statement ({exc.code}): {exc.message}") from exc

    def close(self) -> None:
        self._driver.close()

    def _close_quietly(self) -> None:
        driver = getattr(self, "_driver", None)
        if driver is not None:
            try:
                driver.close()
            except Exception:  # closing a driver that never connected is not an error worth reporting
                pass

    def describe(self) -> str:
        return f"neo4j {self.uri} database={self.database or '(default)'}"


def _check_auth(uri: str, auth: Any) -> None:
    """A user without a password would reach the server as a malformed token ("Unsupported
    authentication token, missing key `scheme`"): say what is missing instead. No auth at all is
    fine (a server with authentication disabled)."""
    if isinstance(auth, (tuple, list)):
        if len(auth) != 2 or not auth[0]:
            raise ConfigError(f"Neo4j at {uri}: auth must be (user, password); "
                              f"set GRAPHMEM_NEO4J_USER and GRAPHMEM_NEO4J_PASSWORD")
        if not auth[1]:
            raise ConfigError(f"Neo4j at {uri}: no password for user {auth[0]!r}; "
                              f"set GRAPHMEM_NEO4J_PASSWORD (or pass auth=(user, password))")


def _quiet_driver_logs() -> None:
    """The driver logs on the `neo4j` logger (notifications, dropped connections). Without a
    handler of its own, Python's last-resort handler prints its warnings on the user's stderr;
    a NullHandler stops that, and an application that configures logging still gets them."""
    logger = logging.getLogger("neo4j")
    if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
        logger.addHandler(logging.NullHandler())


def _version(agent: str | None) -> tuple[int, int] | None:
    """(major, minor) of a server agent such as "Neo4j/5.26.0" or "Neo4j/2025.01.0"."""
    match = re.match(r"Neo4j/(\d+)\.(\d+)", agent or "")
    return (int(match[1]), int(match[2])) if match else None


def _reason(exc: Exception) -> str:
    """The driver's connection errors span lines ("Couldn't connect to ... (resolved to ...):\n
    Failed to establish connection to ... (reason [Errno 111] Connection refused)"): their
    reason, in one line."""
    text = str(getattr(exc, "message", None) or exc)
    reasons = re.findall(r"\(reason (.+?)\)\s*$", text, re.MULTILINE)
    return _one_line(reasons[-1] if reasons else text)


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())
