"""`Store`: the database as the layers above see it, one driver and the operations in cypher/.

`complex`, `ingest` and `recall` receive a Store (and `Models`), never the `Memory` facade, so
that each layer looks only down."""

from __future__ import annotations

import json
import math
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

from . import queries
from .drivers import Driver
from .settings import Settings


# Reads that turn what a caller names into parameters (names to vids, is the user known): a plan
# runs them, so that the statements it shows carry the parameters they would run with.
LOOKUPS = frozenset({"user_exists", "entity_vids", "entity_names", "recall_entities_by_name"})
# Writes a plan takes as done, with the rows they would give, so that it goes on to what the
# command does: the user's ingest lease (ingest/lease.py), granted to a writer that left it finished.
ASSUMED = {"lock_user": [{"held": True, "unfinished": False, "catalog": None}]}


@dataclass(frozen=True)
class Planned:
    """One statement a plan holds: the operation, its parameters, and whether it ran."""
    name: str
    params: dict[str, Any]
    read_only: bool
    ran: bool
    assumed: bool = False  # a write taken as done (ASSUMED), not run


class PlanEnded(BaseException):
    """Raised out of the library at the statement a plan stops at. A BaseException, so that no
    `except Exception` on the way swallows it."""


@dataclass
class Plan:
    """What an operation would run, recorded instead of run (`graphmem ... --cypher`).
    Lookups (LOOKUPS) run. With `reads`, every read runs too, so that the statements after it get
    the parameters its rows give; without, the first statement that is not a lookup ends the
    plan, unrun. A write never runs: it ends the plan. Once ended, whatever the caller still
    runs (a lease released in a `finally`) is neither run nor recorded."""
    reads: bool = False
    statements: list[Planned] = field(default_factory=list)
    ended: bool = False

    def admit(self, query: queries.Query, params: dict[str, Any]) -> list[dict] | None:
        """None: run this statement now; else the rows to take instead of running it. Raises
        PlanEnded at the statement the plan ends at."""
        if self.ended:
            return []
        if self.reads and query.name in ASSUMED:
            self.statements.append(Planned(query.name, params, query.read_only, False, assumed=True))
            return ASSUMED[query.name]
        runs = query.name in LOOKUPS or (self.reads and query.read_only)
        if runs and not self.reads:
            return None  # a lookup, shown only with the reads that follow from it
        self.statements.append(Planned(query.name, params, query.read_only, runs))
        if not runs:
            self.ended = True
            raise PlanEnded(query.name)
        return None

    def show(self) -> str:
        """The plan as Neo4j Browser takes it: each statement in its readable Neo4j-dialect form
        (whichever dialect ran it) with its `:param` lines, in order, each headed by a comment
        saying whether it ran."""
        if not self.statements:
            return "// no statement: the command ends before it runs one (an unknown name, nothing to do)\n"
        parts = ["// reads ran, for the parameters of the statements after them; no write ran"] if self.reads else []
        for i, step in enumerate(self.statements, start=1):
            if step.assumed:
                note = "write, not run, taken as done (the user's ingest lease, granted)"
            elif step.ran:
                note = "read, ran"
            elif step.read_only:
                note = "read, not run"
            else:
                note = "write, not run (nothing runs from here on: a write's result may feed the rest)"
            parts.append(f"// {i}. {queries.load(step.name).path.name}: {note}\n" + Store.cypher(step.name, **step.params))
        return "\n\n".join(parts) + "\n"


class Store:
    """One backend connection and the settings its operations are bounded by."""

    def __init__(self, driver: Driver, settings: Settings):
        self.driver, self.settings = driver, settings
        self.plan: Plan | None = None

    @contextmanager
    def planning(self, reads: bool = False) -> Iterator[Plan]:
        """Record what runs inside instead of running it (Plan says which statements still run);
        the caller catches PlanEnded."""
        plan = self.plan = Plan(reads)
        try:
            yield plan
        finally:
            self.plan = None

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
        chosen = {k: params[k] for k in query.params}
        if self.plan is not None and (instead := self.plan.admit(query, chosen)) is not None:
            return instead
        return self.driver.run(query.text, chosen, read_only=query.read_only, retry=query.retry)

    def run_each(self, name: str, **params: Any) -> list[dict]:
        """Run every statement of a multi-statement file (verify.cypher), rows concatenated."""
        query = self.query(name)
        chosen = {k: params[k] for k in query.params}
        if self.plan is not None and (instead := self.plan.admit(query, chosen)) is not None:
            return instead
        rows: list[dict] = []
        for statement in query.statements():
            rows += self.driver.run(statement, chosen, read_only=query.read_only, retry=query.retry)
        return rows

    def install_schema(self) -> None:
        """Install the schema and bring stored data up to this version's layout (idempotent)."""
        schema = self.query("schema")
        self.driver.install_schema(schema.statements(), {"dimensions": self.settings.embedding_dimensions})
        self.run("migrate_lists")
        self.run("migrate_alias_norms")
        self.run("migrate_accesses")

    @staticmethod
    def cypher(name: str, **params: Any) -> str:
        """The statement as a person runs it in Neo4j Browser: its readable form (queries.py),
        after a `:param` line for each parameter (null where not given)."""
        query = queries.load(name, "neo4j")
        lines = [f":param {k} => {literal(params.get(k))};" for k in query.params]
        return "\n".join(lines + ["", (query.browser or query.text) + ";"])

    def close(self) -> None:
        self.driver.close()

    def describe(self) -> str:
        return self.driver.describe()


IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def literal(value: Any) -> str:
    """A parameter's value as a Cypher literal, for a `:param` line (JSON is not Cypher: a map's
    keys are names, not strings)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else "null"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # Cypher's string escapes include JSON's
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k if IDENTIFIER.fullmatch(str(k)) else '`' + str(k).replace('`', '``') + '`'}: "
                               f"{literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if hasattr(value, "tolist"):  # a numpy array or number
        return literal(value.tolist())
    return json.dumps(str(value), ensure_ascii=False)
