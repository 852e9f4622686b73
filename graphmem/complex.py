"""One user's simplicial complex, stored as a simplex tree in the graph.

Every operation is one Cypher statement from cypher/ (or one batched UNWIND); the trie is
never walked from Python."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from itertools import repeat
from operator import neg
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from .errors import GraphmemError, InputError, UnknownEntity, UnknownUser
from .keys import check_user
from .simplex import (Face, Simplex, Vertex, check_vertices, normalise, subsets, to_epoch,
                      trie_nodes, word_key)

if TYPE_CHECKING:
    from .store import Store

BATCH = 2000  # words per insert statement (one round trip each); each statement is atomic
SEP = "\x1f"  # field separator of a simplex's `packed` string: JSON escapes it, keys and counts never hold it
PLACE_KINDS = ["GPE", "LOC", "FAC"]


@dataclass(frozen=True)
class Observation:
    """One simplex to insert: vertices (names or vids) and what observed it."""

    vertices: Sequence[Vertex]
    kind: str = "observed"
    meta: Mapping[str, Any] | None = None
    witnesses: Sequence[str] = ()
    at: datetime | float | None = None


def _merge_observation(words: dict[str, dict], vids: tuple[int, ...], obs: Observation) -> None:
    """Fold one observation into the batch's row for its word (insert_simplices.cypher's $words)."""
    at = to_epoch(obs.at)
    word = words.setdefault(word_key(vids), {
        "key": word_key(vids), "vids": vids, "kind": obs.kind, "count": 0, "first": at, "last": at,
        "meta": json.dumps(dict(obs.meta), sort_keys=True, default=str) if obs.meta else None,
        "witnesses": []})
    word["count"] += 1
    word["first"], word["last"] = min(word["first"], at), max(word["last"], at)
    word["witnesses"] = sorted(set(word["witnesses"]) | set(obs.witnesses))


def _check_count(value: int | None, name: str, minimum: int = 1) -> None:
    """A caller's limit (minimum 1) or dimension (minimum 0): None, or an int of at least `minimum`."""
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < minimum):
        raise InputError(f"{name} must be a {'positive' if minimum else 'non-negative'} integer, not {value!r}")


def _check_meta(meta: Any) -> None:
    """An observation's metadata: None or a mapping (stored as one JSON object)."""
    if meta is not None and not isinstance(meta, Mapping):
        raise InputError(f"a simplex's meta must be a mapping (a JSON object), not {type(meta).__name__}")


@dataclass(frozen=True)
class Support:
    """A face and whether its vertices were seen together: observed itself (`face.stored`),
    only inside a larger stored simplex, or never (`together` False)."""

    face: Face
    together: bool


class Complex:
    """Handle on `user`'s complex: `mem.complex(user="alice")`."""

    def __init__(self, store: "Store", user: str):
        self.store, self.user = store, check_user(user)
        self._vid_of: dict[str, int] = {}
        self._name_of: dict[int, str] = {}
        self._known = False

    def __repr__(self) -> str:
        return f"Complex(user={self.user!r})"

    def clear_cache(self) -> None:
        """Forget the names and vids seen so far (after a server was lost, its last writes may be)."""
        self._vid_of.clear()
        self._name_of.clear()
        self._known = False

    def known_entities(self) -> list[dict]:
        """The entities seen so far, as {norm, vid, name} (for `learn`)."""
        return [{"norm": norm, "vid": vid, "name": self._name_of[vid]}
                for norm, vid in self._vid_of.items() if vid in self._name_of]

    def learn(self, entities: Iterable[dict]) -> None:
        """Take these entities ({norm, vid, name}) as known: what an earlier handle on the same
        user saw, while nothing else has written the user's entities since, so that ensuring
        and naming them needs no statement."""
        for row in entities:
            self._remember(row)

    def _run(self, name: str, **params: Any) -> list[dict]:
        return self.store.run(name, user_id=self.user, **params)

    # -- vertices --------------------------------------------------------------------

    def ensure_entities(self, names: Iterable[str], kinds: Mapping[str, str] | None = None, *,
                        pending: bool = False) -> dict[str, int]:
        """vid of each name, creating entities for names never seen (one statement); `pending`
        ones stay out of ingest's entity resolution until a memory mentioning them is complete."""
        wanted = {normalise(n): n for n in names}
        missing = [
            {"norm": norm, "name": name, "kind": (kinds or {}).get(name, "ENTITY")}
            for norm, name in wanted.items() if norm not in self._vid_of
        ]
        if missing:
            for row in self._run("ensure_entities", entities=missing, now=to_epoch(None), pending=pending):
                self._remember(row)
            self._known = True
        return {name: self._vid_of[norm] for norm, name in wanted.items()}

    def vids(self, vertices: Sequence[Vertex], *, create: bool = False) -> tuple[int, ...] | None:
        """Ascending vids of validated vertices; None when a name is unknown and not created."""
        items = check_vertices(vertices, self.store.settings.max_simplex_size)
        names = [v for v in items if isinstance(v, str)]
        if names:
            if create:
                self.ensure_entities(names)
            else:
                self._lookup(names)
        found = {v if isinstance(v, int) else self._vid_of.get(normalise(v)) for v in items}
        resolved = {v for v in found if v is not None}
        if len(resolved) < len(found):
            return None
        if len(resolved) != len(items):
            raise InputError("a simplex lists the same vertex twice (by name and by vid)")
        return tuple(sorted(resolved))

    def _lookup(self, names: list[str]) -> None:
        norms = [normalise(n) for n in names if normalise(n) not in self._vid_of]
        if norms:
            self.require_user()
            for row in self._run("entity_vids", norms=norms):
                self._remember(row)

    def _remember(self, row: dict) -> None:
        self._vid_of[row["norm"]] = row["vid"]
        self._name_of[row["vid"]] = row["name"]

    def names_of(self, vids: Sequence[int]) -> dict[int, str]:
        """vid -> entity name, for the given vids (one statement for those not seen yet)."""
        return dict(zip(vids, self._names(vids)))

    def _names(self, vids: Iterable[int]) -> tuple[str, ...]:
        missing = [v for v in vids if v not in self._name_of]
        if missing:
            for row in self._run("entity_names", vids=missing):
                self._remember(row)
        return tuple(self._name_of.get(v, str(v)) for v in vids)

    def require_user(self) -> None:
        if not self._known:
            if not self._run("user_exists")[0]["known"]:
                raise UnknownUser(self.user)
            self._known = True

    def _require_vids(self, vertices: Sequence[Vertex]) -> tuple[int, ...]:
        vids = self.vids(vertices)
        if vids is None:
            unknown = [v for v in vertices if isinstance(v, str) and normalise(v) not in self._vid_of]
            raise UnknownEntity(self.user, unknown)
        return vids

    # -- operations ------------------------------------------------------------------

    def insert(self, vertices: Sequence[Vertex], kind: str = "observed", meta: Mapping[str, Any] | None = None,
               witnesses: Sequence[str] = (), at: datetime | float | None = None) -> Simplex:
        """Record one observed simplex; inserting it again raises its count."""
        return self.insert_many([Observation(vertices, kind, meta, witnesses, at)])[0]

    def insert_many(self, observations: Iterable[Observation | Sequence[Vertex]]) -> list[Simplex]:
        """Record many simplices, BATCH words per statement; repeats within the call merge.
        Every vertex is checked before anything is written."""
        given = [o if isinstance(o, Observation) else Observation(o) for o in observations]
        for obs in given:
            _check_meta(obs.meta)
        checked = [check_vertices(o.vertices, self.store.settings.max_simplex_size) for o in given]
        names = list(dict.fromkeys(v for items in checked for v in items if isinstance(v, str)))
        if names:
            self.ensure_entities(names)
        words: dict[str, dict] = {}
        keys = []
        for obs, items in zip(given, checked):
            vids = tuple(sorted(v if isinstance(v, int) else self._vid_of[normalise(v)] for v in items))
            if len(set(vids)) != len(vids):
                raise InputError("a simplex lists the same vertex twice (by name and by vid)")
            keys.append(word_key(vids))
            _merge_observation(words, vids, obs)
        batches = [list(words.values())[i:i + BATCH] for i in range(0, len(words), BATCH)]
        if len(batches) > 1:  # one statement checks its own batch; several need a check first
            self._check_vids_exist({v for w in words.values() for v in w["vids"]})
        stored: dict[str, Simplex] = {}
        for batch in batches:
            stored.update(self._insert_batch(batch))
        self._known = True
        return [stored[key] for key in keys]

    def _check_vids_exist(self, vids: set[int]) -> None:
        known = {row["vid"] for row in self._run("entity_names", vids=sorted(vids))}
        if vids - known:
            raise UnknownEntity(self.user, sorted(vids - known))

    def _insert_batch(self, words: list[dict]) -> dict[str, Simplex]:
        nodes = {node["key"]: node for word in words for node in trie_nodes(word["vids"])}
        vids = sorted({v for word in words for v in word["vids"]})
        # rows refer to each other by position (insert_simplices.cypher): a node to its label
        # ($vids) and its parent ($nodes, parents first), a word to its node
        position = {v: i for i, v in enumerate(vids)}
        ordered = sorted(nodes.values(), key=lambda n: n["depth"])
        index = {node["key"]: i for i, node in enumerate(ordered)}
        rows = self._run(
            "insert_simplices",
            vids=vids,
            nodes=[{"i": i, "key": n["key"], "vertex": n["vertex"], "depth": n["depth"], "path": n["path"],
                    "ring": n["ring"], "vi": position[n["vertex"]], "pi": index.get(n["parent"])}
                   for i, n in enumerate(ordered)],
            words=[{"node": index[w["key"]], **{k: w[k] for k in ("kind", "meta", "count", "first", "last", "witnesses")}}
                   for w in words],
            sep=SEP,
        )
        if not rows:
            self._check_vids_exist(set(vids))
            raise GraphmemError(f"insert_simplices wrote nothing for user {self.user!r}")
        self._names(vids)
        result = {}
        for row in rows:
            simplex = Simplex.from_row(row, self._name_of)
            result[simplex.key] = simplex
        return result

    def find(self, vertices: Sequence[Vertex]) -> Simplex | None:
        """The stored simplex with exactly these vertices (in any order), or None."""
        vids = self.vids(vertices)
        if vids is None:
            return None
        rows = self._run("find", key=word_key(vids))
        if not rows:
            self.require_user()
            return None
        return Simplex.from_row(rows[0])

    def __contains__(self, vertices: Sequence[Vertex]) -> bool:
        return self.find(vertices) is not None

    def cofaces(self, vertices: Sequence[Vertex], limit: int | None = None, *,
                witnesses: bool = True) -> list[Simplex]:
        """Every stored simplex containing all the vertices: largest first, then most observed.
        With witnesses=False the simplices carry no witnesses (one traversal less per simplex)."""
        _check_count(limit, "limit")
        vids = self.vids(vertices)
        if vids is None:
            return []
        statement = "cofaces_witnesses" if witnesses else "cofaces"
        found = self._run(statement, vids=list(vids))[0]
        if not found["rows"]:
            self.require_user()
            return []
        # one `packed` string per simplex (cofaces.cypher): key, count, first, last, meta, kind.
        # Thousands of simplices per call: this is the client's share of a large result, kept
        # lean by working a column at a time (C loops: one json.loads parses every key, half the
        # time of int() on each vid). Names come from the cache; the vertices it has not seen yet
        # cost one entity_names statement, after which the few simplices that lacked them are
        # rebuilt. Times repeat (a simplex seen once has first == last; a session's simplices
        # share its date): each distinct one is converted once.
        keys, counts, firsts, lasts, metas, kinds = zip(*[row.split(SEP, 5) for row in found["rows"]])
        paths = list(map(tuple, json.loads("[[" + "],[".join(keys) + "]]")))
        numbers = list(map(int, map(float, counts)))  # "3" or, written by some statements, "3.000000"
        names = [tuple(map(self._name_of.get, path)) for path in paths]
        stamps = _Stamps()
        seen_by = found.get("witnesses")
        result = list(map(Simplex._trusted, paths, names, [kind[1:] if kind else None for kind in kinds], numbers,
                          map(stamps.__getitem__, firsts), map(stamps.__getitem__, lasts),
                          [tuple(sorted(w)) for w in seen_by] if seen_by else repeat(()),
                          [json.loads(meta) if meta else {} for meta in metas]))
        unnamed = [i for i, named in enumerate(names) if None in named]
        if unnamed:
            self._names({v for i in unnamed for v in result[i].vids})
            for i in unnamed:
                result[i] = replace(result[i], names=tuple(self._name_of.get(v) or str(v) for v in result[i].vids))
        # largest first, then most observed, then by key (the statement returns them unordered)
        ranks = list(zip(map(neg, map(len, paths)), map(neg, numbers), keys))
        order = sorted(range(len(result)), key=ranks.__getitem__)
        return [result[i] for i in order[:limit]]

    def witnessed(self, memory_id: str) -> list[Simplex]:
        """The stored simplices a memory witnessed (its turn's, its session's, ...), largest
        first; none for a memory that witnessed nothing or does not exist."""
        self.require_user()
        return [Simplex.from_row(row) for row in self._run("memory_simplices", uid=memory_id)]

    def simplices(self, limit: int | None = None) -> list[Simplex]:
        """Every stored simplex (at most `limit`), largest first, then most observed."""
        _check_count(limit, "limit")
        self.require_user()
        return [Simplex.from_row(row) for row in self._run("simplices", limit=1 << 31 if limit is None else limit)]

    def __iter__(self):
        return iter(self.simplices())

    def __len__(self) -> int:
        return self.stats()["simplices"]

    def faces(self, vertices: Sequence[Vertex], max_dim: int | None = None) -> list[Face]:
        """All 2^j - 1 faces (up to max_dim), each marked stored or implied-only."""
        _check_count(max_dim, "max_dim", 0)
        vids = self._require_vids(vertices)
        faces = subsets(vids, max_size=None if max_dim is None else max_dim + 1,
                        limit=self.store.settings.max_faces)
        rows = self._run("face_membership", keys=[word_key(f) for f in faces])
        counts = {row["key"]: row["count"] for row in rows}
        names = dict(zip(vids, self._names(vids)))
        return [Face(f, tuple(names[v] for v in f), counts[word_key(f)] > 0, counts[word_key(f)]) for f in faces]

    def gaps(self, vertices: Sequence[Vertex], min_dim: int = 1) -> list[Face]:
        """Faces over these vertices implied by stored simplices but never observed themselves."""
        vids = self._require_vids(vertices)
        faces = subsets(vids, min_size=min_dim + 1, limit=self.store.settings.max_faces)
        if not faces:
            return []
        rows = self._run("gaps", faces=[{"key": word_key(f), "vids": list(f)} for f in faces])
        implied = {row["key"] for row in rows}
        names = dict(zip(vids, self._names(vids)))
        return [Face(f, tuple(names[v] for v in f), False) for f in faces if word_key(f) in implied]

    def support(self, vertices: Sequence[Vertex], min_dim: int = 1, max_dim: int | None = None) -> list[Support]:
        """Every face over these vertices (of dimension min_dim up to max_dim), and whether its
        vertices were seen together: observed itself (`face.stored`), or only inside a larger
        stored simplex, or never (`together` False). One statement."""
        _check_count(max_dim, "max_dim", 0)
        vids = self._require_vids(vertices)
        faces = subsets(vids, min_size=min_dim + 1, max_size=None if max_dim is None else max_dim + 1,
                        limit=self.store.settings.max_faces)
        if not faces:
            return []
        rows = {row["key"]: row["count"] for row in self._run("gap_support", faces=[
            {"key": word_key(f), "vids": list(f)} for f in faces])}
        names = dict(zip(vids, self._names(vids)))
        return [Support(Face(f, tuple(names[v] for v in f), rows.get(word_key(f), 0) > 0, rows.get(word_key(f), 0)),
                        word_key(f) in rows) for f in faces]

    def holders(self, faces: Sequence[Sequence[int]]) -> dict[tuple[int, ...], tuple[Face, str | None]]:
        """For faces (ascending vids) seen together only inside larger simplices, the smallest
        stored simplex holding each, as a Face of its vertices, and what observed it (turn,
        session, ...). One statement."""
        words = [tuple(f) for f in faces]
        if not words:
            return {}
        rows = self._run("gap_holders", faces=[{"key": word_key(f), "vids": list(f)} for f in words])
        found = {row["key"]: row for row in rows}
        every = sorted({v for row in rows for v in row["path"]})
        names = dict(zip(every, self._names(every)))
        return {f: (Face(tuple(row["path"]), tuple(names[v] for v in row["path"]), True), row["kind"])
                for f in words if (row := found.get(word_key(f)))}

    def remove(self, vertices: Sequence[Vertex], cofaces: bool = False) -> int:
        """Unstore a simplex (with cofaces=True, every stored simplex containing it).
        Returns how many stored simplices went."""
        vids = self.vids(vertices)
        if vids is None:
            return 0
        rows = self._run("remove", vids=list(vids), cofaces=cofaces)
        return rows[0]["removed_count"] if rows else 0

    def unwitness(self, memories: Sequence[str]) -> int:
        """Take back what these memories (uids) stated and observed: their mentions, the
        relations they stated, and their witness of simplices (a simplex no other observation
        keeps is removed). Returns how many simplices went."""
        gone = self._run("unwitness_memories", uids=list(memories), sep=SEP)
        return sum(self.remove(row["path"]) for row in gone)

    def finish_unwitnessing(self) -> int:
        """Remove the simplices an interrupted `unwitness` left stored without a witness."""
        return sum(self.remove(row["path"]) for row in self._run("unwitnessed_simplices"))

    def rewitness_sessions(self, sessions: Iterable[str]) -> int:
        """Witness these sessions anew from the memories they hold now: a session that grew or
        lost memories may observe another simplex, and the old one must not keep its
        witnesses, so what such a session witnessed is taken back first. A session whose
        simplex is the one it already witnesses (a live conversation's message that names
        nothing new to it) keeps it and gains its new memories' witness: an insert counts only
        the witnesses it adds, so both ways end in the same counts. Returns the groups."""
        sessions = sorted(set(sessions))
        observations = self._observations(self._run("witness_sessions", sessions=sessions), "session")
        held = {row["grp"]: sorted(row["keys"]) for row in self._run("session_simplices", sessions=sessions)}
        wanted = {obs.meta["group"]: [word_key(sorted(int(v) for v in obs.vertices))]
                  for obs in observations if obs.meta}
        changed = [grp for grp in sessions if held.get(grp, []) != wanted.get(grp, [])]
        if changed:
            for row in self._run("unwitness_sessions", sessions=changed, sep=SEP):
                self.remove(row["path"])
        return len(self.insert_many(observations)) if observations else 0

    def witness(self, by: str = "session", window: timedelta | float | None = None,
                sessions: Iterable[str] | None = None) -> int:
        """Insert one simplex per session / time window / place from the memories' entities.
        Each group's simplex is witnessed by its memories; a group with more entities than
        max_simplex_size keeps the most mentioned ones. `sessions` limits by="session" to those
        session ids. Returns the number of groups."""
        return len(self.witness_groups(by, window, sessions))

    def witness_groups(self, by: str = "session", window: timedelta | float | None = None,
                       sessions: Iterable[str] | None = None) -> list[Simplex]:
        if by == "place":
            rows = self._run("witness_places", place_kinds=PLACE_KINDS)
        elif by == "session" and sessions is not None:
            rows = self._run("witness_sessions", sessions=sorted(set(sessions)))
        elif by in ("session", "window"):
            seconds = window.total_seconds() if isinstance(window, timedelta) else float(window or 86400)
            if seconds <= 0:
                raise InputError("a witness window must be positive")
            rows = self._run("witness_groups", by=by, window=seconds)
        else:
            raise InputError(f"unknown witness {by!r}: use 'session', 'window' or 'place'")
        observations = self._observations(rows, by)
        return self.insert_many(observations) if observations else []

    def _observations(self, rows: list[dict], by: str) -> list[Observation]:
        """One observation per group row: its most mentioned entities, up to max_simplex_size,
        witnessed by the group's memories."""
        limit = self.store.settings.max_simplex_size
        observations = []
        for row in rows:
            ranked = sorted(row["vertices"], key=lambda pair: (-pair[1], pair[0]))
            observations.append(Observation(
                [vid for vid, _ in ranked[:limit]], kind=by, witnesses=sorted(set(row["memories"])),
                at=row["at"], meta={"group": row["grp"], "dropped": max(0, len(ranked) - limit)}
                if len(ranked) > limit else {"group": row["grp"]}))
        return observations

    def stats(self) -> dict:
        """Counts of what the user's memory holds, stored simplices by dimension included."""
        self.require_user()
        by_dim = self._run("stats")
        counts = self._run("counts")[0]
        return {
            "user": self.user,
            **counts,
            "simplices": sum(row["simplices"] for row in by_dim),
            "trie_nodes": sum(row["nodes"] for row in by_dim),
            "by_dimension": {row["dimension"]: row["simplices"] for row in by_dim if row["simplices"]},
        }

    def verify(self) -> list[dict]:
        """Every violated trie invariant as {problem, key}; empty when the tree is sound. Raises
        UnknownUser for a user nothing has been stored for, as stats() does."""
        self.require_user()
        return self.store.run_each("verify", user_id=self.user)


class _Stamps(dict):
    """Epoch-seconds text ("" for none) to a UTC datetime, each distinct text converted once."""

    def __missing__(self, text: str) -> datetime | None:
        moment = self[text] = datetime.fromtimestamp(float(text), timezone.utc) if text else None
        return moment
