"""Neo4j 5 through the official driver."""

from __future__ import annotations

from typing import Any, Mapping

import neo4j
from neo4j.exceptions import AuthError, ClientError, Neo4jError, ServiceUnavailable

from ..errors import BackendUnavailable, ConfigError, GraphmemError
from .base import Driver


class Neo4jDriver(Driver):
    dialect = "neo4j"

    def __init__(self, uri: str, auth: tuple[str, str] | None = None, database: str | None = None):
        self.uri, self.database = uri, database or None
        try:
            self._driver = neo4j.GraphDatabase.driver(uri, auth=auth)
            self._driver.verify_connectivity()
        except AuthError as exc:
            raise BackendUnavailable(f"Neo4j at {uri} refused the credentials: {exc.message}") from None
        except (ServiceUnavailable, OSError) as exc:
            raise BackendUnavailable(f"cannot reach Neo4j at {uri}: {exc}") from None
        except ValueError as exc:
            raise ConfigError(f"bad Neo4j URI {uri!r}: {exc}") from None

    def _run(self, query: str, params: dict, read_only: bool) -> list[dict]:
        routing = neo4j.RoutingControl.READ if read_only else neo4j.RoutingControl.WRITE
        try:
            records, _, _ = self._driver.execute_query(
                query, params, database_=self.database, routing_=routing)
        except ServiceUnavailable as exc:
            raise BackendUnavailable(f"lost Neo4j at {self.uri}: {exc}") from None
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

    def describe(self) -> str:
        return f"neo4j {self.uri} database={self.database or '(default)'}"
