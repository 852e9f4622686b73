"""Mentions to canonical entities, per user. The rules, in order (the first that fires wins):

1. the same normalised name, or a known alias of an entity;
2. a person's short name: one word that begins another person's first name ("Mel" and
   "Melanie"), when exactly one known person fits;
3. embedding similarity of the names, within compatible kinds, at or above
   `Settings.entity_merge_threshold` (never for concepts: "dog" and "cat" are close
   vectors and different things; and a name for someone by their relation to someone,
   "Robin's sister", only with a name for the same relation: "Robin's sister" and "Robin's
   cousin" are close vectors and two people).

Otherwise the mention is a new entity."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..simplex import normalise

NAMED = {"PERSON", "PROPN", "ORG", "GPE", "LOC", "FAC", "GROUP", "EVENT", "WORK", "PRODUCT", "LANGUAGE", "LAW"}


@dataclass
class Entity:
    name: str
    norm: str
    kind: str
    aliases: list[str] = field(default_factory=list)
    vid: int | None = None
    vector: np.ndarray | None = None
    dirty: bool = False  # aliases changed since the catalog was read


def compatible(a: str, b: str) -> bool:
    return a == b or "PROPN" in (a, b) and a in NAMED and b in NAMED


# Words for one relation or one kind of thing said two ways ("Mel's mom", "Melanie's mother";
# "two kids", "one child"), each to one of them, singular.
SAME_WORD = {"mom": "mother", "mum": "mother", "dad": "father", "grandma": "grandmother", "grandpa": "grandfather",
             "kid": "child", "kids": "child", "children": "child", "puppy": "dog", "kitten": "cat",
             "kitty": "cat", "baby": "child", "postgresql": "postgres"}


def same_word(word: str) -> str:
    """One word for what `word` (lower case) names: "kids" -> "child", "mum" -> "mother"."""
    return SAME_WORD.get(word, word)


def relation(name: str) -> str | None:
    """What a relational name names ("Robin's sister" -> "sister"), None for any other name."""
    owner, mark, related = name.lower().rpartition("'s ")
    return same_word(related.strip()) if mark and owner else None


class Resolver:
    def __init__(self, catalog: list[dict], embed, threshold: float):
        self.embed, self.threshold = embed, threshold
        self.primed: dict[str, np.ndarray] = {}  # name -> vector, embedded with the batch's texts (prime)
        self.entities: dict[str, Entity] = {}
        self.alias: dict[str, str] = {}
        for row in catalog:
            entity = Entity(row["name"], row["norm"], row["kind"] or "ENTITY", list(row["aliases"] or []), row["vid"],
                            dirty=not row["embedded"])  # written again, with its vector, when next mentioned
            self._add(entity)

    def _add(self, entity: Entity) -> Entity:
        self.entities[entity.norm] = entity
        for alias in entity.aliases + [entity.name]:
            self.alias.setdefault(normalise(alias), entity.norm)
        return entity

    def speaker(self, name: str) -> Entity:
        return self._exact(name) or self._add(Entity(name, normalise(name), "PERSON", [name], dirty=True))

    def unknown(self, mentions: list[tuple[str, str]]) -> list[str]:
        """The names among `mentions` that no known name or short name resolves: resolving
        them embeds them (prime lets the caller embed them with its own texts, in one call)."""
        return list(dict.fromkeys(name for name, kind in mentions
                                  if not (self._exact(name) or self._short_name(name, kind))))

    def prime(self, names: list[str], vectors: np.ndarray) -> None:
        """The vectors of `names`, for this batch's resolution instead of embedding them again."""
        self.primed = dict(zip(names, vectors))

    def vectors(self, names: list[str]) -> np.ndarray:
        """Each name's vector: primed, or embedded now (those not primed, in one call)."""
        todo = [n for n in dict.fromkeys(names) if n not in self.primed]
        embedded = dict(zip(todo, self.embed(todo))) if todo else {}
        return np.stack([self.primed[n] if n in self.primed else embedded[n] for n in names])

    def _exact(self, name: str) -> Entity | None:
        norm = self.alias.get(normalise(name))
        return self.entities[norm] if norm else None

    def resolve_all(self, mentions: list[tuple[str, str]]) -> dict[tuple[str, str], Entity]:
        """Resolve a batch of (name, kind) mentions; new named entities are compared by
        embedding to the known ones (one batched embedding call)."""
        out: dict[tuple[str, str], Entity] = {}
        pending: dict[str, tuple[str, str]] = {}
        for name, kind in mentions:
            found = self._exact(name) or self._short_name(name, kind)
            if found:
                self._alias(found, name)
                out[(name, kind)] = found
            else:
                pending.setdefault(normalise(name), (name, kind))
        similar, vectors = self._similar(list(pending.values()))
        for norm, (name, kind) in pending.items():
            entity = self._exact(name) or similar.get(norm)
            if entity is None:
                entity = self._add(Entity(name, norm, kind, [name], vector=vectors.get(norm), dirty=True))
            else:
                self._alias(entity, name)
            out[(name, kind)] = entity
        for name, kind in mentions:  # a later spelling of a name created in this batch
            if (name, kind) not in out:
                later = self._exact(name)
                assert later is not None  # every pending name was added or aliased above
                out[(name, kind)] = later
        return out

    def _alias(self, entity: Entity, name: str) -> None:
        if name not in entity.aliases:
            entity.aliases.append(name)
            entity.dirty = True
            self.alias.setdefault(normalise(name), entity.norm)

    def _short_name(self, name: str, kind: str) -> Entity | None:
        if kind not in ("PERSON", "PROPN") or " " in name or len(name) < 3:
            return None
        low = name.lower()
        fits = [e for e in self.entities.values() if e.kind == "PERSON" and "'" not in e.name
                and e.name.split()[0].lower().startswith(low) and e.norm != normalise(name)]
        return fits[0] if len(fits) == 1 else None

    def _similar(self, pending: list[tuple[str, str]]) -> tuple[dict[str, Entity], dict[str, np.ndarray]]:
        named = [(n, k) for n, k in pending if k in NAMED]
        known = [e for e in self.entities.values() if e.kind in NAMED]
        if not named:
            return {}, {}
        vectors = self.vectors([n for n, _ in named])
        by_norm = {normalise(n): v for (n, _), v in zip(named, vectors)}
        if not known:
            return {}, by_norm
        missing = [e for e in known if e.vector is None]
        if missing:
            for entity, vector in zip(missing, self.vectors([e.name for e in missing])):
                entity.vector = vector
        matrix = np.stack([e.vector for e in known if e.vector is not None])
        scores = vectors @ matrix.T
        out = {}
        for (name, kind), row in zip(named, scores):
            order = np.argsort(-row)
            for j in order[:5]:
                if row[j] < self.threshold:
                    break
                if compatible(kind, known[j].kind) and (relation(name) == relation(known[j].name)
                                                        or "PERSON" not in (kind, known[j].kind)):
                    out[normalise(name)] = known[j]
                    break
        return out, by_norm
