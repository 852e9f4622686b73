"""Export and import: one user's whole memory as a JSON Lines file, out of any backend and into
any (`Memory.export` / `Memory.import_`, `graphmem export` / `graphmem import`). It is also how
a memory moves from the embedded default to Neo4j without ingesting anything again.

The file (format 1) holds one JSON object a line: a header, then every node of the user with
every property it has (vectors as lists of floats), then every relationship between them:

    {"graphmem_export": 1, "user": "alice", "embedding_model": "all-MiniLM-L6-v2", "dimensions": 384,
     "exported_at": "2026-11-24T09:30:00+00:00", "backend": "falkordb", "nodes": 812, "relationships": 5120}
    {"node": 1, "labels": ["User"], "properties": {"id": "alice", "next_vid": 41, "memories": 96, ...}}
    {"node": 2, "labels": ["Memory"], "properties": {"user_id": "alice", "uid": "9f2c...", "text": "...",
     "embedding": [0.0213, -0.0871, ...], ...}}
    {"rel": "MENTIONS", "from": 2, "to": 17, "properties": {}}

Node numbers hold within one file only. Nodes are read page by page in the order of their
natural keys (KEYS), with every property, so properties added to the data model travel without
a change here; a label or relationship type this module does not know is refused by name, on
export and on import, rather than left behind. Abstracts (graphmem/consolidation.py) are derived
from the memories: they are not exported, and an import derives them again.

An import validates the whole file before it writes anything (one line naming file and line
on the first problem), then merges every node on its natural key and every relationship
between them, in batches: a retry, or an import interrupted anywhere and run again, changes
nothing. It refuses a user that already holds memories unless told to replace them; the
user's node carries the import's key (a digest of the file) until the import is done, so that
an interrupted import of the same file may go on. The user's own node, its counters, is
written last. An export and an import hold the user's lease (graphmem/ingest/lease.py), so no
ingest runs into the user meanwhile."""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from functools import partial
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator, Union

from .consolidation import consolidate, deferred
from .errors import GraphmemError, InputError, UnknownUser
from .ingest.claims import rekey_instructions
from .ingest.lease import UserLease
from .keys import check_user
from .store import Store
from .vectors import as_param

log = logging.getLogger(__name__)

FORMAT = 1
PAGE = 2000  # nodes per export statement (memories, for sentences)
BATCH = 500  # nodes or relationships per import statement
CLEAR_BATCH = 10_000  # nodes per delete statement when an import replaces a user's memory

# Every label a user's memory holds, in the order of the file (the nodes a relationship points
# to before the nodes it leaves), with the properties that identify a node of it within its
# user: what an import merges it on (import_nodes.cypher), and what a relationship's ends are
# found by (import_relationships.cypher). A sentence belongs to its memory (uid) at place n.
KEYS: dict[str, tuple[str, ...]] = {
    "User": ("id",),
    "Session": ("id",),
    "Term": ("word",),
    "Entity": ("vid",),
    "Memory": ("uid",),
    "Sentence": ("uid", "n"),
    "SimplexNode": ("key",),
}
KEY_TYPES: dict[str, type] = {"id": str, "word": str, "vid": int, "uid": str, "n": int, "key": str}
EXPORTS = {"User": "export_user", "Session": "export_sessions", "Term": "export_terms",
           "Entity": "export_entities", "Memory": "export_memories", "Sentence": "export_sentences",
           "SimplexNode": "export_simplex_nodes"}
# The property that holds a vector (written as a vector again: vecf32 on FalkorDB), by label.
VECTOR = "embedding"
VECTOR_LABELS = frozenset({"Entity", "Memory", "Sentence"})
# Every relationship type, with the labels of the nodes it leaves and reaches.
RELATIONSHIPS: dict[str, tuple[str, str]] = {
    "PARENT": ("SimplexNode", "SimplexNode"),
    "NEXT_SAME_LABEL": ("SimplexNode", "SimplexNode"),
    "LABEL": ("SimplexNode", "Entity"),
    "WITNESSED_BY": ("SimplexNode", "Memory"),
    "MENTIONS": ("Memory", "Entity"),
    "RELATES": ("Entity", "Entity"),
    "HAS_TERM": ("Memory", "Term"),
    "HAS_SENTENCE": ("Memory", "Sentence"),
    "IN_SESSION": ("Memory", "Session"),
    "CLAIMS": ("Memory", "Entity"),
    "SUPERSEDES": ("Memory", "Memory"),
    "NOT_SUPERSEDES": ("Memory", "Memory"),
    "RECALLED_FOR": ("Memory", "User"),
}
# What a memory held of recall's accesses before they moved to its RECALLED_FOR relationship
# (migrate_accesses.cypher): a memory of an older export brings them as properties, and the
# import gives it the relationship instead.
LEGACY_ACCESSES = ("accesses", "last_accessed", "access_flush")
# Properties that belong to the store a user is in, not to the memory: the lease of a writer
# and what it leaves for the next one (whether it finished, the name of the entity catalogue a
# process may keep a copy of), the time of the last write, an import's mark. Neither exported
# nor imported: an export is a function of the memory alone. What consolidation waits to derive
# (`unconsolidated`) is derived before an export writes anything.
# Derived state, rebuilt from the memories after an import (graphmem/consolidation.py): not exported.
DERIVED = ("Abstract",)
LOCAL = {"User": frozenset({"lease", "lease_until", "lease_holder", "unfinished", "catalog", "touched_at",
                            "importing", "unconsolidated"})}

Progress = Callable[[str, int, int], None]  # (what: "nodes" or "relationships", done, total)
Destination = Union[str, Path, IO[str]]
Source = Union[str, Path, IO[str]]


class UserNotEmpty(GraphmemError):
    """An import into a user that already holds memories, without replacing them."""

    def __init__(self, user: str, memories: int, entities: int):
        self.user, self.memories, self.entities = user, memories, entities
        super().__init__(f"user {user!r} already holds {memories} memories and {entities} entities: replace them "
                         f"(replace=True, --replace) or import under another user")


@dataclass
class TransferSummary:
    """What an export or an import did."""

    user: str  # whose memory was read (export) or written (import)
    file: str
    nodes: int = 0
    relationships: int = 0
    labels: dict[str, int] = field(default_factory=dict)  # nodes by label
    source_user: str | None = None  # import: the user the file was exported from
    replaced: int = 0  # import: nodes of the user's earlier memory deleted first
    resumed: bool = False  # import: went on with an unfinished import of the same file
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)


# -- export ----------------------------------------------------------------------------------


def export(store: Store, user: str, file: Destination, *, progress: Progress | None = None) -> TransferSummary:
    """Write `user`'s whole memory to `file` (a path, gzip-compressed when it ends in .gz, or a
    text stream). A path is written whole or not at all (through FILE.partial)."""
    started = time.perf_counter()
    user = check_user(user)
    if not store.run("user_exists", user_id=user)[0]["known"]:
        raise UnknownUser(user)
    with UserLease(store, user) as lease:
        if deferred(store, user):  # what `Memory.add` left waiting is derived first: session simplices travel
            consolidate(store, user, [])
        counts = _counts(store, user)
        total = sum(nodes + rels for nodes, rels in counts.values())
        header = {"graphmem_export": FORMAT, "user": user, "embedding_model": store.settings.embedding_model,
                  "dimensions": store.settings.embedding_dimensions,
                  "exported_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "backend": store.dialect,
                  "nodes": sum(nodes for nodes, _ in counts.values()),
                  "relationships": sum(rels for _, rels in counts.values())}
        with _writer(file) as (out, name), tempfile.TemporaryFile("w+", encoding="utf-8") as links:
            summary = TransferSummary(user, name)
            out.write(_line(header))
            numbers: dict[tuple, int] = {}  # (label, key) -> node number in the file
            for label in KEYS:
                if label not in counts:
                    continue
                for nodes in _pages(store, EXPORTS[label], user, lease):
                    for properties, rels in nodes:
                        if label == "User" and properties.get("importing"):
                            raise GraphmemError(f"user {user!r} holds an unfinished import: run it again to "
                                                f"complete it (or import with replace) before exporting")
                        properties = {k: v for k, v in properties.items() if k not in LOCAL.get(label, ())}
                        number = numbers[_identity(label, properties)] = len(numbers) + 1
                        out.write(_node_line(number, label, properties))
                        for kind, rel_properties, labels, key in rels:
                            links.write(json.dumps([number, kind, rel_properties, labels, key]) + "\n")
                            summary.relationships += 1
                    summary.labels[label] = summary.labels.get(label, 0) + len(nodes)
                    summary.nodes += len(nodes)
                    if progress:
                        progress("nodes", summary.nodes, total)
            links.seek(0)
            for done, line in enumerate(links, start=1):
                number, kind, rel_properties, labels, key = json.loads(line)
                end = labels[0] if len(labels) == 1 else ""
                target = numbers.get((end, tuple(key.get(k) for k in KEYS[end]))) if end in KEYS else None
                if target is None:
                    raise GraphmemError(f"a {kind} relationship of user {user!r} leads to a node outside the user's "
                                        f"memory ({':'.join(labels)} {key}); run verify")
                out.write(_line({"rel": kind, "from": number, "to": target, "properties": rel_properties}))
                if progress and (done % PAGE == 0 or done == summary.relationships):
                    progress("relationships", summary.nodes + done, total)
            _check_complete(user, counts, summary)
        if not lease.unfinished:  # an export changes nothing: the user is as its last writer left it
            lease.settle(lease.catalog)
    summary.seconds = time.perf_counter() - started
    return summary


def _counts(store: Store, user: str) -> dict[str, tuple[int, int]]:
    """label -> (nodes, outgoing relationships) of the user's memory; a label this module does
    not know, or a node of several labels, is refused by name."""
    counts: dict[str, tuple[int, int]] = {}
    for row in store.run("export_counts", user_id=user):
        labels = row["labels"]
        if labels == list(DERIVED):
            continue
        if len(labels) != 1 or labels[0] not in KEYS:
            raise GraphmemError(f"user {user!r} holds {row['nodes']} nodes labelled {':'.join(labels) or '(none)'}, "
                                f"which graphmem.transfer does not know how to export (it knows {', '.join(KEYS)})")
        counts[labels[0]] = (int(row["nodes"]), int(row["relationships"]))
    return counts


def _pages(store: Store, statement: str, user: str, lease: UserLease) -> Iterator[list]:
    """The nodes of each page of `statement` ([properties, relationships] each), in key order."""
    after = None
    while True:
        rows = store.run(statement, user_id=user, after=after, limit=PAGE)
        yield [node for row in rows for node in row["nodes"]]
        if len(rows) < PAGE:
            return
        after = rows[-1]["key"]
        lease.renew()


def _check_complete(user: str, counts: dict[str, tuple[int, int]], summary: TransferSummary) -> None:
    """What was written is what the user holds: a node no page reached (a sentence away from
    its memory) or a write meanwhile (by something that holds no lease) would make it wrong."""
    missed = {label: nodes - summary.labels.get(label, 0) for label, (nodes, _) in counts.items()
              if nodes != summary.labels.get(label, 0)}
    relationships = sum(rels for _, rels in counts.values())
    if missed or relationships != summary.relationships:
        raise GraphmemError(f"the export of user {user!r} is not whole: nodes not reached by label {missed}, "
                            f"{summary.relationships} of {relationships} relationships; run verify, then export again")


def _identity(label: str, properties: dict) -> tuple:
    return (label, tuple(properties.get(k) for k in KEYS[label]))


def _node_line(number: int, label: str, properties: dict) -> str:
    try:
        return _line({"node": number, "labels": [label], "properties": properties})
    except (TypeError, ValueError) as exc:
        key = ", ".join(f"{k}={properties.get(k)!r}" for k in KEYS[label])
        raise GraphmemError(f"the {label} node {key} has a property JSON cannot hold: {exc}") from None


def _line(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n"


@contextmanager
def _writer(file: Destination) -> Iterator[tuple[IO[str], str]]:
    if not isinstance(file, (str, Path)):
        yield file, str(getattr(file, "name", "<stream>"))
        return
    path = Path(file)
    partial = path.with_name(path.name + ".partial")
    try:
        out: IO[str] = (gzip.open(partial, "wt", encoding="utf-8", compresslevel=6) if path.suffix == ".gz"
                        else open(partial, "w", encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot write it: {exc.strerror or exc}", source=str(path)) from None
    try:
        with out:
            yield out, str(path)
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


# -- import ----------------------------------------------------------------------------------


def import_(store: Store, file: Source, *, user: str | None = None, replace: bool = False,
            progress: Progress | None = None) -> TransferSummary:
    """Read an export into this store, under the user it was exported from or under `user`.
    The whole file is validated first; a user that already holds memories is refused unless
    `replace` (which deletes them first)."""
    started = time.perf_counter()
    with _lines(file) as lines:
        plan = _validate(lines, store.settings.embedding_dimensions)
        target = check_user(user) if user is not None else plan.user
        summary = TransferSummary(target, lines.name, source_user=plan.user, labels=dict(plan.labels))
        if plan.model != store.settings.embedding_model:
            summary.notes.append(f"exported with the embedding model {plan.model!r}; this store embeds questions "
                                 f"with {store.settings.embedding_model!r}, so semantic recall may suffer")
            log.warning(summary.notes[-1])
        total = plan.nodes + plan.relationships
        with UserLease(store, target) as lease:
            held = store.run("import_target", user_id=target)[0]
            summary.resumed = held["importing"] == plan.token and not replace
            if (held["memories"] or held["entities"]) and not (replace or summary.resumed):
                raise UserNotEmpty(target, int(held["memories"]), int(held["entities"]))
            if replace:
                while deleted := int(store.run("import_clear", user_id=target, limit=CLEAR_BATCH)[0]["deleted"]):
                    summary.replaced += deleted
                    lease.renew()
            store.run("import_begin", user_id=target, token=plan.token)
            users: list[dict] = []  # the user's node, its counters, is written last
            for batch in _batches(_node_rows(lines, target)):
                users += [row for row in batch if row["label"] == "User"]
                rows = [row for row in batch if row["label"] != "User"]
                if rows:
                    store.run("import_nodes", user_id=target, nodes=rows)
                summary.nodes += len(rows)
                if progress:
                    progress("nodes", summary.nodes, total)
                lease.renew()
            for batch in _batches(_relationship_rows(lines, plan, target)):
                found = int(store.run("import_relationships", user_id=target, rels=batch)[0]["relationships"])
                if found != len(batch):
                    raise GraphmemError(f"{len(batch) - found} relationships of {lines.name} found no node at one "
                                        f"end in the store; nothing is lost: run the import again")
                summary.relationships += found
                if progress:
                    progress("relationships", summary.nodes + summary.relationships, total)
                lease.renew()
            store.run("import_nodes", user_id=target, nodes=users)
            summary.nodes += len(users)
            store.run("import_end", user_id=target)
            rekey_instructions(store, target)  # an export of an older version
            consolidate(store, target)  # derived state does not travel: rebuilt from the memories
            lease.settle(None)  # a catalogue no process holds a copy of
    if progress:
        progress("done", total, total)
    summary.seconds = time.perf_counter() - started
    return summary


@dataclass
class _Plan:
    """What validation learnt of a file: its header's user, model and counts, a digest of it
    (the import's key), and each node number's label and key."""

    user: str
    model: str
    nodes: int  # as the header announces them (validation checks the file holds as many)
    relationships: int
    token: str = ""
    labels: Counter = field(default_factory=Counter)
    ends: dict[Any, tuple[str, tuple]] = field(default_factory=dict)


class _Lines:
    """The lines of an export, readable more than once: a path (gzip-compressed or not), or a
    stream (one that cannot seek is copied to a temporary file first)."""

    def __init__(self, path: Path | None, stream: IO[str] | None, name: str):
        self.path, self.stream, self.name = path, stream, name
        self._start = stream.tell() if stream is not None else 0

    def __iter__(self) -> Iterator[tuple[int, str]]:
        """(line number, text) of each line."""
        if self.stream is not None:
            self.stream.seek(self._start)
            yield from enumerate(self.stream, start=1)
            return
        assert self.path is not None
        try:
            with open(self.path, "rb") as probe:
                packed = probe.read(2) == b"\x1f\x8b"
            with (gzip.open(self.path, "rt", encoding="utf-8") if packed
                  else open(self.path, encoding="utf-8")) as handle:
                yield from enumerate(handle, start=1)
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 text ({exc.reason})", source=self.name) from None
        except (OSError, EOFError) as exc:
            raise InputError(f"cannot read it: {getattr(exc, 'strerror', None) or exc}", source=self.name) from None


@contextmanager
def _lines(file: Source) -> Iterator[_Lines]:
    if isinstance(file, (str, Path)):
        path = Path(file)
        if not path.is_file():
            raise InputError("no such file", source=str(path))
        yield _Lines(path, None, str(path))
        return
    name = str(getattr(file, "name", "<stream>"))
    if file.seekable():
        yield _Lines(None, file, name)
        return
    with tempfile.TemporaryFile("w+", encoding="utf-8") as copy:
        shutil.copyfileobj(file, copy)
        copy.seek(0)
        yield _Lines(None, copy, name)


def _validate(lines: _Lines, dimensions: int) -> _Plan:
    """Every line checked, nothing written: the header, each node and relationship, every
    relationship's ends, each sentence's memory, and the counts the header announced."""
    digest = hashlib.sha256()
    plan: _Plan | None = None
    first_line: dict[tuple, int] = {}  # (label, key) -> line
    pending: list[tuple[int, str, Any, str]] = []  # (line, type, node number, its label) defined further on
    sentences: list[tuple[int, str]] = []  # (line, its memory's uid)
    memories: set[str] = set()
    relationships = last = 0
    for number, text in lines:
        digest.update(text.encode("utf-8"))
        last = number
        if not text.strip():
            continue
        bad = partial(InputError, source=lines.name, line=number)
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except ValueError as exc:
            raise bad(f"not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise bad("not a JSON object")
        if plan is None:
            plan = _header(data, dimensions, bad)
        elif "node" in data and "rel" not in data:
            label, key = _check_node(data, plan.user, dimensions, bad)
            if data["node"] in plan.ends:
                raise bad(f"node {data['node']!r} is defined twice")
            if (label, key) in first_line:
                raise bad(f"a second {label} node with {_key_text(label, key)} (the first is on line "
                          f"{first_line[label, key]})")
            first_line[label, key] = number
            plan.ends[data["node"]] = (label, key)
            plan.labels[label] += 1
            if label == "Memory":
                memories.add(key[0])
            elif label == "Sentence":
                sentences.append((number, key[0]))
        elif "rel" in data and "node" not in data:
            kind = _check_relationship(data, bad)
            relationships += 1
            for end, label in zip((data["from"], data["to"]), RELATIONSHIPS[kind]):
                if end in plan.ends:
                    _check_end(kind, end, plan.ends[end][0], label, bad)
                else:
                    pending.append((number, kind, end, label))
        else:
            raise bad('neither a node ("node", "labels", "properties") nor a relationship ("rel", "from", "to", '
                      '"properties")')
    if plan is None:
        raise InputError("empty: no graphmem export header", source=lines.name)
    for number, kind, end, label in pending:
        bad = partial(InputError, source=lines.name, line=number)
        if end not in plan.ends:
            raise bad(f"a {kind} relationship names node {end!r}, which the file does not define")
        _check_end(kind, end, plan.ends[end][0], label, bad)
    for number, uid in sentences:
        if uid not in memories:
            raise InputError(f"a sentence of memory {uid!r}, which the file does not hold", source=lines.name,
                             line=number)
    if plan.labels["User"] != 1:
        raise InputError(f"holds {plan.labels['User']} User nodes; an export holds its user's node, once",
                         source=lines.name)
    nodes = sum(plan.labels.values())
    if (nodes, relationships) != (plan.nodes, plan.relationships):
        raise InputError(f"the header announces {plan.nodes} nodes and {plan.relationships} relationships, the "
                         f"file holds {nodes} and {relationships}: is it cut short?", source=lines.name, line=last)
    plan.token = digest.hexdigest()
    return plan


def _check_end(kind: str, end: Any, label: str, expected: str, bad: Callable[[str], InputError]) -> None:
    if label != expected:
        raise bad(f"a {kind} relationship goes from a {RELATIONSHIPS[kind][0]} to a {RELATIONSHIPS[kind][1]}; "
                  f"node {end!r} is a {label}")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _header(data: dict, dimensions: int, bad: Callable[[str], InputError]) -> _Plan:
    if "graphmem_export" not in data:
        raise bad("not a graphmem export: its first line has no \"graphmem_export\" version")
    if data["graphmem_export"] != FORMAT:
        raise bad(f"export format {data['graphmem_export']!r}: this graphmem reads format {FORMAT}")
    for name, kind in (("user", str), ("dimensions", int), ("nodes", int), ("relationships", int)):
        if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
            raise bad(f"the header's {name!r} should be {'a string' if kind is str else 'an integer'}")
    try:
        user = check_user(data["user"])
    except InputError as exc:
        raise bad(f"the header's user: {exc}") from None
    if data["dimensions"] != dimensions:
        raise bad(f"its embeddings have {data['dimensions']} dimensions; this store's have {dimensions} "
                  f"(GRAPHMEM_EMBEDDING_DIMENSIONS, with an embedding model of that size)")
    return _Plan(user, str(data.get("embedding_model") or ""), data["nodes"], data["relationships"])


def _check_node(data: dict, user: str, dimensions: int, bad: Callable[[str], InputError]) -> tuple[str, tuple]:
    if set(data) != {"node", "labels", "properties"}:
        raise bad('a node has "node", "labels" and "properties", and nothing else')
    if not isinstance(data["node"], (int, str)) or isinstance(data["node"], bool):
        raise bad("a node's number is an integer or a string")
    labels, properties = data["labels"], data["properties"]
    if not (isinstance(labels, list) and len(labels) == 1 and labels[0] in KEYS):
        raise bad(f"a node's labels are one of {', '.join(KEYS)}; these are {labels!r}")
    label = labels[0]
    if not isinstance(properties, dict):
        raise bad("a node's properties are a JSON object")
    owner = properties.get("id" if label == "User" else "user_id")
    if owner != user:
        raise bad(f"a {label} node of user {owner!r} in the export of user {user!r}")
    for name in KEYS[label]:
        value = properties.get(name)
        if not isinstance(value, KEY_TYPES[name]) or isinstance(value, bool):
            raise bad(f"a {label} node needs {name!r} ({'an integer' if KEY_TYPES[name] is int else 'a string'}); "
                      f"this one has {value!r}")
    # FalkorDB's unique key on (user_id, vid) crashes the server on a vid of 0: entities count from 1
    if label == "Entity" and properties["vid"] < 1:
        raise bad(f"an Entity node's 'vid' counts from 1, as graphmem numbers entities; this one has "
                  f"{properties['vid']!r}")
    if label == "User" and "next_vid" in properties:
        next_vid = properties["next_vid"]
        if not isinstance(next_vid, int) or isinstance(next_vid, bool) or next_vid < 1:
            raise bad(f"a User node's 'next_vid' (the next entity's number) counts from 1; this one has "
                      f"{next_vid!r}")
    for name, value in properties.items():
        if label in VECTOR_LABELS and name == VECTOR:
            if not (isinstance(value, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                    for x in value)):
                raise bad(f"a {label} node's {VECTOR} is a list of numbers")
            if len(value) != dimensions:
                raise bad(f"a {label} node's {VECTOR} has {len(value)} numbers; this store's have {dimensions}")
        elif not _storable(value):
            raise bad(f"a {label} node's property {name!r} is {type(value).__name__} that holds more than plain "
                      f"values; properties are numbers, strings, booleans, or lists of those")
    return label, tuple(properties[k] for k in KEYS[label])


def _check_relationship(data: dict, bad: Callable[[str], InputError]) -> str:
    if set(data) != {"rel", "from", "to", "properties"}:
        raise bad('a relationship has "rel", "from", "to" and "properties", and nothing else')
    kind = data["rel"]
    if kind not in RELATIONSHIPS:
        raise bad(f"a relationship of type {kind!r}, which graphmem.transfer does not know (it knows "
                  f"{', '.join(RELATIONSHIPS)})")
    if not isinstance(data["properties"], dict) or not all(_storable(v) for v in data["properties"].values()):
        raise bad("a relationship's properties are a JSON object of numbers, strings, booleans, or lists of those")
    if kind == "RELATES" and not all(k in data["properties"] for k in ("label", "memory")):
        raise bad("a RELATES relationship names its label and the memory that stated it")
    return kind


def _storable(value: Any) -> bool:
    """A value both backends keep as a property: a number, string or boolean, or a list of those."""
    if isinstance(value, list):
        return all(isinstance(x, (str, int, float, bool)) for x in value)
    return isinstance(value, (str, int, float, bool))


def _key_text(label: str, key: tuple) -> str:
    return ", ".join(f"{name} {value!r}" for name, value in zip(KEYS[label], key))


def _node_rows(lines: _Lines, target: str) -> Iterator[dict]:
    """import_nodes.cypher's rows, the user's id in place of the exported one."""
    for _, text in lines:
        data = json.loads(text) if text.strip() else {}
        if "node" not in data or "graphmem_export" in data:
            continue
        label = data["labels"][0]
        local = LOCAL.get(label, ()) if label != "Memory" else LEGACY_ACCESSES
        properties = {k: v for k, v in data["properties"].items() if k not in local}
        vector = properties.pop(VECTOR, None) if label in VECTOR_LABELS else None
        properties["id" if label == "User" else "user_id"] = target
        yield {"label": label, "properties": properties, "embedding": None if vector is None else as_param(vector)}


def _relationship_rows(lines: _Lines, plan: _Plan, target: str) -> Iterator[dict]:
    """import_relationships.cypher's rows: each end as its label and key properties (and a
    RECALLED_FOR for each memory of an older export that holds its accesses itself)."""
    for _, text in lines:
        data = json.loads(text) if text.strip() else {}
        if "rel" in data:
            yield {"type": data["rel"], "properties": data["properties"],
                   "a": _end(plan.ends[data["from"]], target), "b": _end(plan.ends[data["to"]], target)}
        elif data.get("labels") == ["Memory"] and (data["properties"].get("accesses")
                                                   or data["properties"].get("last_accessed") is not None):
            counts = {"accesses": data["properties"].get("accesses") or 0,
                      "last_accessed": data["properties"].get("last_accessed")}
            yield {"type": "RECALLED_FOR", "properties": counts, "a": _end(plan.ends[data["node"]], target),
                   "b": _end(("User", (plan.user,)), target)}


def _end(identity: tuple[str, tuple], target: str) -> dict:
    label, key = identity
    end: dict[str, Any] = dict.fromkeys(KEY_TYPES)
    end.update(zip(KEYS[label], key), label=label)
    if label == "User":
        end["id"] = target
    return end


def _batches(rows: Iterable[dict]) -> Iterator[list[dict]]:
    batch: list[dict] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= BATCH:
            yield batch
            batch = []
    if batch:
        yield batch

