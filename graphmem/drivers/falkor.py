"""FalkorDB, embedded or at falkor://host:port, through the `falkordb` client."""

from __future__ import annotations

import logging
import time
from typing import Any, Callable, Mapping

import redis
from falkordb import FalkorDB
from falkordb.helpers import stringify_param_value
from falkordb.query_result import QueryResult

from ..errors import BackendUnavailable, GraphmemError, InputError
from ..vectors import Vector
from .base import Driver, unstorable_parameter

log = logging.getLogger(__name__)

# A statement that runs this long is taken for a hung server (the largest batch statements
# take seconds): the call fails in one line instead of waiting forever.
STATEMENT_TIMEOUT = 600.0
CONNECT_TIMEOUT = 10.0
REVIVALS = 2  # times one call restarts a dead embedded server before it gives up
INDEX_WAIT = 60.0  # a restarted server's indexes are waited for this long before recall uses them
FLOAT32 = "%.9g"  # nine significant digits give back any float32 exactly

# FalkorDB enforces uniqueness through GRAPH.CONSTRAINT, not Cypher; Neo4j gets its rules from
# cypher/schema.cypher. On FalkorDB only integer keys get a constraint: its enforcement of a
# string key crashes the server on a value over 4,096 bytes or with surrounding whitespace
# (FalkorDB#1340, #2440), whatever statement writes it. String keys stay unique without one:
# every statement MERGEs them, and FalkorDB runs write statements one at a time.
UNIQUE_KEYS: list[tuple[str, tuple[str, ...]]] = [
    ("Entity", ("user_id", "vid")),
]
# ... and the constraints earlier versions created, dropped from a store opened by this one.
DROPPED_KEYS: list[tuple[str, tuple[str, ...]]] = [
    ("User", ("id",)),
    ("Entity", ("user_id", "norm")),
    ("Memory", ("user_id", "uid")),
    ("Session", ("user_id", "id")),
    ("SimplexNode", ("user_id", "key")),
    ("Term", ("user_id", "word")),
]


class FalkorDriver(Driver):
    dialect = "falkordb"

    def __init__(self, graph: str, *, unix_socket_path: str | None = None, host: str = "localhost",
                 port: int = 6379, password: str | None = None, where: str = "",
                 revive: Callable[[], object] | None = None, purge: Callable[[], bool] | None = None):
        """`revive` restarts a server that died (the embedded one): calls that lose the
        server call it and go on, retrying the statement when that is safe. `purge`: what
        `purge_logs` does (the embedded server's AOF rewrite; none for a server of its own)."""
        self.where = where or (unix_socket_path or f"{host}:{port}")
        self._revive, self._purge = revive, purge
        timeouts = {"socket_timeout": STATEMENT_TIMEOUT, "socket_connect_timeout": CONNECT_TIMEOUT}
        try:
            if unix_socket_path:
                self._db = FalkorDB(unix_socket_path=unix_socket_path, **timeouts)
            else:
                self._db = FalkorDB(host=host, port=port, password=password, **timeouts)
            self._db.connection.ping()
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError) as exc:
            raise BackendUnavailable(f"cannot reach FalkorDB at {self.where}: {exc}") from None
        self._graph = self._db.select_graph(graph)
        self.graph_name = graph

    def _run(self, query: str, params: dict, read_only: bool, retry: bool = False) -> list[dict]:
        for attempt in range(REVIVALS + 1):
            try:
                return self._once(query, params, read_only)
            except redis.exceptions.TimeoutError:
                raise BackendUnavailable(f"FalkorDB at {self.where} did not answer in {STATEMENT_TIMEOUT:.0f}s; "
                                         f"it may be hung: see its log") from None
            except redis.exceptions.ConnectionError as exc:
                if self._revive is None or attempt == REVIVALS:
                    raise BackendUnavailable(f"lost FalkorDB at {self.where}: {exc}") from None
                log.warning("lost the embedded FalkorDB at %s (%s): restarting it on the same data", self.where, exc)
                try:
                    self._revive()
                    self.wait_for_indexes()
                except (BackendUnavailable, redis.exceptions.ConnectionError) as failed:
                    if attempt + 1 == REVIVALS:
                        raise BackendUnavailable(f"lost FalkorDB at {self.where} and could not restart it: "
                                                 f"{failed}") from None
                    # it died again while it started (killed while loading a large store): once more
                    log.warning("restarting the embedded FalkorDB at %s failed (%s); trying again", self.where, failed)
                    continue
                if not retry:
                    raise BackendUnavailable(
                        f"lost FalkorDB at {self.where} during a write that may have been applied, so it was not "
                        f"repeated; the server was restarted: run the call again") from None
        raise AssertionError("unreachable")

    def _once(self, query: str, params: dict, read_only: bool) -> list[dict]:
        graph = self._graph
        header = params_header(params)
        if "\x00" in header:  # the server reads the statement as a C string: it would end there
            held = unstorable_parameter(params) or "a value holds a NUL character (U+0000)"
            raise InputError(f"{held}, which FalkorDB cannot take")
        try:
            # the client's own query()/ro_query() with its compact format; its per-value parser
            # (a function call and a type lookup per value) is replaced for plain values
            response = graph.execute_command("GRAPH.RO_QUERY" if read_only else "GRAPH.QUERY", graph.name,
                                             header + query, "--compact")
            rows = _plain_rows(response)
            if rows is None:  # nodes, edges, paths, maps, points, errors: the client's parser
                result = QueryResult(graph, response)
                columns = [column[1] if isinstance(column, (list, tuple)) else column for column in result.header]
                rows = [dict(zip(columns, row)) for row in result.result_set]
        except redis.exceptions.ResponseError as exc:
            raise GraphmemError(f"FalkorDB rejected the statement: {exc}") from exc
        return rows

    def wait_for_indexes(self, timeout: float = INDEX_WAIT) -> None:
        """Until every index is operational: a server that has just replayed its data answers
        before its vector indexes are rebuilt, and queries on them fail meanwhile."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                rows = self._once("CALL db.indexes() YIELD status RETURN status", {}, True)
            except redis.exceptions.ConnectionError:
                rows = [{"status": "down"}]
            if all(row["status"] == "OPERATIONAL" for row in rows):
                return
            if time.monotonic() > deadline:
                raise BackendUnavailable(f"FalkorDB at {self.where}: its indexes were not rebuilt in {timeout:.0f}s")
            time.sleep(0.02)

    def install_schema(self, statements: list[str], params: Mapping[str, Any]) -> None:
        # the query telemetry an earlier version's server kept (queries with their parameters:
        # chat text); the embedded server now runs without it (embedded.py, CMD_INFO)
        self._db.connection.delete(f"telemetry{{{self.graph_name}}}")
        existing = self._existing_indexes()
        known = self._known_names()
        for statement in statements:
            made = _made_known(statement)
            if _index_signature(statement) in existing or (made is not None and made <= known):
                continue  # a registration is a write: only where a name is still unknown
            try:
                self._graph.query(statement, dict(params))
            except redis.exceptions.ResponseError:
                # another process opening the same fresh store created it meanwhile: fine; any
                # other refusal is raised
                if _index_signature(statement) not in self._existing_indexes():
                    raise
        constraints = self._constraints()
        for label, props in UNIQUE_KEYS:
            if (label, tuple(sorted(props))) not in constraints:
                try:
                    self._constraint("CREATE", label, props)
                except redis.exceptions.ResponseError:
                    if (label, tuple(sorted(props))) not in self._constraints():
                        raise  # not another process's creation: a real refusal
        for label, props in DROPPED_KEYS:
            if (label, tuple(sorted(props))) in constraints:
                try:
                    self._constraint("DROP", label, props)
                except redis.exceptions.ResponseError:
                    if (label, tuple(sorted(props))) in self._constraints():
                        raise
        self.wait_for_indexes()

    def _known_names(self) -> set[str]:
        """The labels and relationship types the graph has known at some time."""
        labels = self.run("CALL db.labels() YIELD label RETURN label AS name")
        types = self.run("CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType AS name")
        return {row["name"] for row in labels + types}

    def _constraints(self) -> set[tuple[str, tuple[str, ...]]]:
        return {(row["label"], tuple(sorted(row["properties"]))) for row in
                self.run("CALL db.constraints() YIELD label, properties RETURN label, properties")}

    def _constraint(self, action: str, label: str, props: tuple[str, ...]) -> None:
        self._db.connection.execute_command(
            "GRAPH.CONSTRAINT", action, self.graph_name, "UNIQUE", "NODE", label, "PROPERTIES", len(props), *props)

    def _existing_indexes(self) -> set[tuple[str, str, str]]:
        rows = self.run("CALL db.indexes() YIELD label, properties, types RETURN label, properties, types")
        found = set()
        for row in rows:
            for prop in row["properties"]:
                for kind in row["types"].get(prop, []):
                    found.add((row["label"], prop, kind))
        return found

    def purge_logs(self) -> bool:
        return self._purge() if self._purge is not None else False

    def close(self) -> None:
        try:
            self._db.connection.close()
        except Exception:  # closing a dead connection is not an error worth reporting
            pass

    def describe(self) -> str:
        return f"falkordb {self.where} graph={self.graph_name}"


class _NotPlain(Exception):
    pass


def _plain(cell):
    """One value of FalkorDB's compact result format ([type, value]) when it is null, a string,
    an integer, a boolean, a double, a vector (a list of floats, as the client reads it) or an
    array of those; _NotPlain otherwise."""
    kind, value = cell
    if kind == 2 or kind == 3:
        return value
    if kind == 5:
        return float(value)
    if kind == 12:
        return list(map(float, value))
    if kind == 6:
        if {item[0] for item in value} <= {2, 3}:  # strings and integers: most of a large result
            return [item[1] for item in value]
        return [_plain(item) for item in value]
    if kind == 1:
        return None
    if kind == 4:
        return value == "true" or value == b"true"
    raise _NotPlain


def _plain_rows(response) -> list[dict] | None:
    """Rows of a compact response holding only plain values (see _plain); None for anything else
    (the caller falls back on the falkordb client's parser, which also raises its errors)."""
    if len(response) != 3 or any(isinstance(part, redis.exceptions.ResponseError) for part in response):
        return None
    try:
        header = [column[1] for column in response[0]]
        if any(isinstance(name, bytes) for name in header):
            return None
        return [dict(zip(header, map(_plain, row))) for row in response[1]]
    except _NotPlain:
        return None


def _made_known(statement: str) -> frozenset[str] | None:
    """The labels and relationship types a registering statement of cypher/schema.falkordb.cypher
    makes known (it creates a node `t` and its edges only to delete them); None for any other."""
    import re

    node = re.match(r"CREATE \(t:([\w:]+)\)", statement.lstrip())
    if node is None or "DETACH DELETE t" not in statement:
        return None
    return frozenset(node[1].split(":")) | frozenset(re.findall(r"\[:(\w+)\]", statement))


def _index_signature(statement: str) -> tuple[str, str, str] | None:
    """(label, first property, index type) of a FalkorDB DDL statement, to skip existing ones.

    Statements come from our own cypher/schema.falkordb.cypher (one property each), so a
    light parse is enough."""
    import re

    if m := re.search(r"CREATE VECTOR INDEX FOR \(\w+:(\w+)\) ON \(\w+\.(\w+)", statement):
        return (m[1], m[2], "VECTOR")
    if m := re.search(r"createNodeIndex\(\{label: '(\w+)'.*?\}, '(\w+)'", statement):
        return (m[1], m[2], "FULLTEXT")
    if m := re.search(r"CREATE INDEX FOR \(\w+:(\w+)\) ON \(\w+\.(\w+)\)", statement):
        return (m[1], m[2], "RANGE")
    return None


def params_header(params: Mapping[str, Any]) -> str:
    """The statement's parameters as the client writes them ("CYPHER `a`=1 `b`=\"x\" "), but a
    `Vector` in float32's nine significant digits, in one join: the client writes each float of
    a vector through a call of its own, in a double's seventeen digits, and an ingest batch's
    vectors are megabytes of text for the server to parse."""
    return "".join(["CYPHER ", *(f"`{_name(k)}`={_literal(v)} " for k, v in params.items())]) if params else ""


def _literal(value: Any) -> str:
    if type(value) is Vector:
        return "[" + ",".join(map(FLOAT32.__mod__, value)) + "]"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(map(_literal, value)) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"`{_name(k)}`:{_literal(v)}" for k, v in value.items()) + "}"
    return str(stringify_param_value(value))


def _name(key: Any) -> str:
    """A parameter's or a map key's name, checked as the client checks it."""
    name = key.decode() if isinstance(key, bytes) else str(key)
    if not name or "`" in name:
        raise ValueError(f"a Cypher parameter or map key must be non-empty and hold no backtick: {name!r}")
    return name
