"""`Store`: the database as the layers above see it, one driver and the operations in cypher/.

`complex`, `ingest` and `recall` receive a Store (and `Models`), never the `Memory` facade, so
that each layer looks only down."""

from __future__ import annotations

import json
from typing import Any

from . import queries
from .drivers import Driver
from .settings import Settings


class Store:
    """One backend connection and the settings its operations are bounded by."""

    def __init__(self, driver: Driver, settings: Settings):
        self.driver, self.settings = driver, settings

    @property
    def dialect(self) -> str:
        return self.driver.dialect

    def query(self, name: str) -> queries.Query:
        return queries.load(name, self.driver.dialect)

    def run(self, name: str, **params: Any) -> list[dict]:
        """Run the operation `name` from cypher/ with its declared parameters; whether it reads
        or writes is declared in its file (`// mode:`)."""
        query = self.query(name)
        missing = set(query.params) - set(params)
        if missing:
            raise TypeError(f"{query.path.name} needs parameters {sorted(missing)}")
        return self.driver.run(query.text, {k: params[k] for k in query.params}, read_only=query.read_only,
                               retry=query.retry)

    def run_each(self, name: str, **params: Any) -> list[dict]:
        """Run every statement of a multi-statement file (verify.cypher), rows concatenated."""
        query = self.query(name)
        rows: list[dict] = []
        for statement in query.statements():
            rows += self.driver.run(statement, {k: params[k] for k in query.params}, read_only=query.read_only,
                                    retry=query.retry)
        return rows

    def install_schema(self) -> None:
        """Install the schema and bring stored data up to this version's layout (idempotent)."""
        schema = self.query("schema")
        self.driver.install_schema(schema.statements(), {"dimensions": self.settings.embedding_dimensions})
        self.run("migrate_lists")

    @staticmethod
    def cypher(name: str, **params: Any) -> str:
        """The statement and its parameters as Neo4j Browser takes them (`:param` lines)."""
        query = queries.load(name, "neo4j")
        lines = [f":param {k} => {json.dumps(params.get(k))};" for k in query.params]
        return "\n".join(lines + ["", query.text])

    def close(self) -> None:
        self.driver.close()

    def describe(self) -> str:
        return self.driver.describe()
