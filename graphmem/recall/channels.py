"""Recall's channels: each ranks the user's memories for an analysed question by one kind of
evidence, with one Cypher statement (or two: a walk and a boost), and all have one shape.

A channel has a `name`, says which parts of the analysis it `needs` (it ranks nothing when
they are empty) and whether it `boosts` (reads what the channels before it found), and its
`rank(ask)` returns `Ranked` memories, best first, with the cosines or simplices it computed on
the way. A boosting channel ranks in two steps, `walk(ask)`, which reads nothing the others
found, and `boost(ask, walked)`, so that recall can run the walks beside the other channels.
Every channel breaks ties by uid, so the same data ranks the same on every backend."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Protocol

from ..store import Store
from .analysis import Analysis
from .tuning import (DEPTH, DEPTH_BY_TYPE, ENTITY_DECAY, EXACT_UP_TO, FANOUT, INDEX_OVERREAD, SCORE_DECIMALS,
                     SEMANTIC_READ, SPEAKER_PRIOR)

# A memory's cosines: its whole turn and its best sentence with the question, then with its topic.
Cosines = tuple[float, float, float, float]


@dataclass(frozen=True)
class Ask:
    """What a channel is given: whose memory, the analysed question, how deep to rank, and what
    the channels before it found."""

    store: Store
    user: str
    analysis: Analysis
    found: tuple[str, ...] = ()

    @property
    def depth(self) -> int:
        return DEPTH_BY_TYPE.get(self.analysis.type, DEPTH)


@dataclass
class Ranked:
    """A channel's memories, best first, with what it computed on the way."""

    uids: list[str] = field(default_factory=list)
    cosines: dict[str, Cosines] = field(default_factory=dict)  # the semantic channel's
    simplices: list[dict] = field(default_factory=list)  # the simplicial channel's rows (the subcomplex)


class Channel(Protocol):
    name: str
    needs: tuple[str, ...]  # attributes of Analysis that must be non-empty
    boosts: bool  # reads Ask.found

    def rank(self, ask: Ask) -> Ranked: ...


class Booster(Channel, Protocol):
    """A channel that boosts ranks in two steps: a walk that reads nothing the others found (it
    may run beside them), then the boost of what they found."""

    def walk(self, ask: Ask) -> list[dict]: ...

    def boost(self, ask: Ask, walked: list[dict]) -> Ranked: ...


def by_score(scores: dict[str, float], depth: int) -> list[str]:
    """The uids by score, best first, ties to the smaller uid."""
    return sorted(scores, key=lambda uid: (-round(scores[uid], SCORE_DECIMALS), uid))[:depth]


def first_where(ranked: list[tuple[str, float]], chosen: Callable[[str], bool]) -> list[tuple[str, float]]:
    """`ranked` (uid, score) with the uids `chosen` picks above the rest, each side in its order;
    a score lowered where needed so that scores stay in order down the list."""
    out: list[tuple[str, float]] = []
    floor = float("inf")
    for uid, score in [item for item in ranked if chosen(item[0])] + [item for item in ranked if not chosen(item[0])]:
        floor = min(floor, score)
        out.append((uid, floor))
    return out


def cosines_of(rows: Iterable[dict]) -> dict[str, Cosines]:
    """uid -> `Cosines` of rows of uid, turn, sentence, topic_turn, topic_sentence: a memory of
    one sentence (sentences null) is its own best sentence."""
    return {r["uid"]: (r["turn"], _or(r["sentence"], r["turn"]), r["topic_turn"],
                       _or(r["topic_sentence"], r["topic_turn"])) for r in rows}


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


def similarity(cosines: Cosines) -> float:
    """How near a memory is to a question: the mean of its cosines, of the whole turn and of its
    best sentence, with the question and with its topic (`analysis.topic_of`)."""
    return sum(cosines) / len(cosines)


class Semantic:
    """The memories nearest the question's topic, by the memory vector index (or an exact scan, for
    a user of at most EXACT_UP_TO memories), ranked by `similarity` (the named people's a little
    first, SPEAKER_PRIOR)."""

    name = "semantic"
    needs: tuple[str, ...] = ("vector",)
    boosts = False

    def rank(self, ask: Ask) -> Ranked:
        a, depth = ask.analysis, ask.depth
        asked = {"user_id": ask.user, "vector": a.vector, "topic": a.topic_vector, "limit": depth * SEMANTIC_READ}
        small = a.memories <= EXACT_UP_TO
        rows = [] if small else ask.store.run("recall_semantic", scan=depth * INDEX_OVERREAD, **asked)
        if small or len(rows) < min(depth * SEMANTIC_READ, a.memories):
            rows = ask.store.run("recall_semantic_exact", **asked)
        persons = set(a.persons())
        named = {r["uid"] for r in rows if r["speaker"] in persons}
        cosines = cosines_of(rows)
        scores = {uid: similarity(c) + SPEAKER_PRIOR * (uid in named) for uid, c in cosines.items()}
        ranked = by_score(scores, depth)
        return Ranked(ranked, {uid: cosines[uid] for uid in ranked})


class Lexical:
    """BM25 over the user's term postings. A word in more than FANOUT memories is not walked: it
    only adds its share to the memories the other channels found."""

    name = "lexical"
    needs: tuple[str, ...] = ("words",)
    boosts = True

    def rank(self, ask: Ask) -> Ranked:
        return self.boost(ask, self.walk(ask))

    def walk(self, ask: Ask) -> list[dict]:
        return ask.store.run("recall_lexical", user_id=ask.user, terms=ask.analysis.words, max_df=FANOUT,
                             limit=ask.depth)

    def boost(self, ask: Ask, walked: list[dict]) -> Ranked:
        a = ask.analysis
        boosted = ask.store.run("recall_lexical_boost", user_id=ask.user, terms=a.words, max_df=FANOUT,
                                uids=list(ask.found)) if ask.found and a.memories > FANOUT else []
        return Ranked(_with_boosts(walked, boosted, ask.depth))


class EntityChannel:
    """Memories mentioning the matched entities (and one RELATES hop), rarer ones weighing more.
    An entity with more than FANOUT mentions only adds its weight to the memories the other
    channels found."""

    name = "entity"
    needs: tuple[str, ...] = ("entities",)
    boosts = True

    def rank(self, ask: Ask) -> Ranked:
        return self.boost(ask, self.walk(ask))

    def walk(self, ask: Ask) -> list[dict]:
        seeds = [{"vid": e.vid, "weight": e.score} for e in ask.analysis.entities if e.frequency <= FANOUT]
        return ask.store.run("recall_entity", user_id=ask.user, seeds=seeds, decay=ENTITY_DECAY, fanout=FANOUT,
                             limit=ask.depth) if seeds else []

    def boost(self, ask: Ask, walked: list[dict]) -> Ranked:
        boosts = [{"vid": e.vid, "weight": e.score / math.log(2 + e.frequency)} for e in ask.analysis.entities
                  if e.frequency > FANOUT]
        boosted = ask.store.run("recall_entity_boost", user_id=ask.user, uids=list(ask.found),
                                boosts=boosts) if boosts and ask.found else []
        return Ranked(_with_boosts(walked, boosted, ask.depth))


def _with_boosts(walked: list[dict], boosted: list[dict], depth: int) -> list[str]:
    """A walk's (uid, score) rows plus what its too-frequent items add to the other channels'
    candidates, ranked by the summed score."""
    scores = {r["uid"]: r["score"] for r in walked}
    for r in boosted:
        scores[r["uid"]] = scores.get(r["uid"], 0.0) + r["score"]
    return by_score(scores, depth)


class Simplicial:
    """Cofaces of the matched vertex set and of its subsets: a memory ranks by its best
    simplex, fuller overlap with the query first, then turn over session witnesses, then more
    observations, then lower dimension (a tighter co-occurrence)."""

    name = "simplicial"
    needs: tuple[str, ...] = ("entities",)
    boosts = False

    def rank(self, ask: Ask) -> Ranked:
        vids = sorted(ask.analysis.specific_vids())
        rows = ask.store.run("recall_simplicial", user_id=ask.user, vids=vids, min_overlap=min(2, len(vids)),
                             limit=ask.depth * 4)
        best: dict[str, tuple] = {}
        for row in rows:
            key = (row["overlap"] / len(vids), row["kind"] == "turn", round(math.log1p(row["count"]), SCORE_DECIMALS),
                   -len(row["path"]))
            for uid in row["witnesses"]:
                if uid not in best or key > best[uid]:
                    best[uid] = key
        ranked = sorted(best, key=lambda uid: (_negated(best[uid]), uid))[:ask.depth]
        return Ranked(ranked, simplices=rows)


def _negated(key: tuple) -> tuple:
    return tuple(-x for x in key)


class Temporal:
    """Memories whose session date or referred-to time falls in the question's time range,
    those mentioning its entities first."""

    name = "temporal"
    needs: tuple[str, ...] = ("time_range",)
    boosts = False

    def rank(self, ask: Ask) -> Ranked:
        a = ask.analysis
        assert a.time_range is not None
        start, end = a.time_range
        rows = ask.store.run("recall_temporal", user_id=ask.user, start=start, end=end,
                             vids=[e.vid for e in a.entities], limit=ask.depth)
        return Ranked([r["uid"] for r in rows])  # in the statement's order: score, then time, then uid


class Answer:
    """Memories mentioning an entity of the kind the question asks for (a place, a title), by
    the people it names, closest to the question's topic first (they are all the named people's:
    their names would weigh alike)."""

    name = "answer"
    needs: tuple[str, ...] = ("answer_kinds",)
    boosts = False

    def rank(self, ask: Ask) -> Ranked:
        a = ask.analysis
        rows = ask.store.run("recall_answer", user_id=ask.user, kinds=a.answer_kinds, speakers=a.persons(),
                             vector=a.topic_vector, fanout=FANOUT, limit=ask.depth)
        return Ranked(by_score({r["uid"]: r["score"] for r in rows}, ask.depth))


# In the order they run: the boosting channels read what the ones before them found.
REGISTRY: dict[str, Channel] = {c.name: c for c in (Semantic(), Lexical(), EntityChannel(), Simplicial(),
                                                    Temporal(), Answer())}
CHANNELS: tuple[str, ...] = tuple(REGISTRY)
