"""Recall: for a question, the memories worth putting in an agent's context, ranked, with the
structure behind them (`mem.recall(query, user=..., k=10)`).

query -> analysis (entities, times, type, topic) -> channels, each one Cypher statement returning a
ranked list of memories (semantic, lexical, entity, simplicial, temporal, answer) -> weighted
reciprocal rank fusion (weights per query type, in Settings), the session neighbours of the
best inheriting part of their score -> a linear ranker over the fused candidates (ranker.py)
-> top k, the query-induced subcomplex and its gaps, a token budget."""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Sequence

from ..simplex import Simplex, from_epoch
from .analysis import Analysis, analyse
from .ranker import Candidates, Ranker, Said, candidate_features, load_ranker

if TYPE_CHECKING:
    from ..memory import Memory

CHANNELS = ("semantic", "lexical", "entity", "simplicial", "temporal", "answer")
BOOSTING = ("lexical", "entity")  # they boost the candidates of the channels before them (FANOUT)
DEPTH = 50  # how many memories each channel ranks
# ... and for a question the analysis calls multi-hop, whose evidence is several turns that each
# match it weakly (LoCoMo dev, held out: every question at 100 took multi-hop All@10 from 0.296
# to 0.324 but single-hop R@10 from 0.856 to 0.848; these alone at 100: 0.310, single-hop
# unchanged; at 150 and 200: 0.317 and 0.303)
DEPTH_BY_TYPE = {"multi-hop": 100}
# a memory's cosines: its whole turn and its best sentence with the question, then with its topic
Cosines = tuple[float, float, float, float]


@dataclass
class Recalled:
    uid: str
    text: str
    speaker: str | None
    source_id: str | None
    session: str | None
    session_date: str | None
    score: float
    channels: dict[str, int]  # channel -> rank (1 = best) in that channel
    restated: str | None = None
    refers_to: str | None = None
    caption: str | None = None
    why: dict[str, float] = field(default_factory=dict)  # what lifted it most above the other candidates (ranker.py)

    def context_line(self) -> str:
        date = f"[{self.session_date[:10]}] " if self.session_date else ""
        return f"{date}{self.restated or self.text}"


@dataclass
class Recollection:
    query: str
    user: str
    analysis: Analysis
    memories: list[Recalled]
    subcomplex: list[Simplex]
    gaps: list[dict]  # faces implied but never observed, and pairs never seen together
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    candidates: Candidates | None = None  # the ranker's input, when asked for (to fit a ranker)

    @property
    def source_ids(self) -> list[str]:
        return [m.source_id for m in self.memories]

    def context(self) -> str:
        """The memories as lines an agent's prompt can take."""
        return "\n".join(m.context_line() for m in self.memories)

    def to_dict(self) -> dict:
        return {"query": self.query, "user": self.user, "analysis": self.analysis.to_dict(),
                "memories": [asdict(m) for m in self.memories],
                "subcomplex": [s.to_dict() for s in self.subcomplex], "gaps": self.gaps,
                "notes": self.notes, "timings_ms": self.timings}


def recall(mem: "Memory", query: str, user: str, k: int = 10, token_budget: int | None = None,
           channels: Sequence[str] = CHANNELS, neighbours: bool = True, rank: bool = True,
           keep_candidates: bool = False, asker: str | None = None) -> Recollection:
    """`asker`: the speaker who asks, whose "I" and "my" the question means ("Where did I adopt
    my dog?" asked by Alice); `neighbours`, `rank`: False leaves out the neighbours'
    inheritance, the ranker (fused order, as with recall_ranker "off"); `keep_candidates` keeps
    the ranker's input."""
    if not isinstance(query, str) or not query.strip():
        from ..errors import InputError

        raise InputError("a recall query must be non-empty text")
    clock: dict[str, float] = {}
    started = time.perf_counter()
    cx = mem.complex(user)
    cx._require_user()
    ranker = load_ranker(mem.settings.recall_ranker) if rank else None
    analysis = analyse(mem, cx, query, asker)
    _lap(clock, "analysis", started)
    rankings: dict[str, list[str]] = {}
    cosines: dict[str, Cosines] = {}
    simplices: list[dict] = []
    for channel in channels:
        t0 = time.perf_counter()
        if channel == "simplicial":
            rankings[channel], simplices = _simplicial(mem, user, analysis)
        elif channel == "semantic":
            cosines = _semantic(mem, user, analysis)
            rankings[channel] = list(cosines)
        elif channel in BOOSTING:
            rankings[channel] = CHANNEL_FUNCTIONS[channel](mem, user, analysis, _seen(rankings))
        else:
            rankings[channel] = CHANNEL_FUNCTIONS[channel](mem, user, analysis)
        _lap(clock, channel, t0)
    t0 = time.perf_counter()
    weights = mem.settings.recall_weights.get(analysis.type, {})
    fused = fuse(rankings, {c: weights.get(c, 1.0) for c in rankings}, mem.settings.recall_rrf_k)
    share = mem.settings.recall_neighbour_share if neighbours else 0.0
    candidates = _candidates(mem, user, analysis, rankings, fused, cosines, k, share)
    ranked = _rank(candidates, ranker)
    top = ranked[:k * (RERANK_POOL if mem.settings.rerank_model else 1)]
    where = {uid: i for i, uid in enumerate(candidates.uids)}
    why = dict(zip((uid for uid, _ in top), ranker.explain(candidates, [where[uid] for uid, _ in top]))) \
        if ranker and top else {}
    _lap(clock, "rank", t0)
    t0 = time.perf_counter()
    memories = _details(mem, user, top, rankings, why)
    if mem.settings.rerank_model:
        memories = _rerank(mem, query, memories, analysis.notes)[:k]
        _lap(clock, "rerank", t0)
    if token_budget is not None:
        memories = trim_to_budget(memories, token_budget)
    subcomplex, gaps = _structure(cx, analysis, simplices)
    _lap(clock, "structure", t0)
    clock["total"] = round((time.perf_counter() - started) * 1000, 2)
    return Recollection(query, user, analysis, memories, subcomplex, gaps, analysis.notes, clock,
                        candidates if keep_candidates else None)


def _seen(rankings: dict[str, list[str]]) -> list[str]:
    return list(dict.fromkeys(uid for ranked in rankings.values() for uid in ranked))


def _lap(clock: dict[str, float], name: str, since: float) -> None:
    clock[name] = round((time.perf_counter() - since) * 1000, 2)


# -- fusion and ranking ---------------------------------------------------------------


def fuse(rankings: dict[str, list[str]], weights: dict[str, float], rrf_k: int = 20) -> dict[str, float]:
    """Weighted reciprocal rank fusion: score(m) = sum over channels of w / (rrf_k + rank)."""
    scores: dict[str, float] = {}
    for channel, ranked in rankings.items():
        w = weights.get(channel, 1.0)
        for rank, uid in enumerate(ranked, start=1):
            scores[uid] = scores.get(uid, 0.0) + w / (rrf_k + rank)
    return scores


# The ranker orders the fused top POOL_FUSED and each channel's top POOL_PER_CHANNEL, plus the
# session neighbours of the fused top NEIGHBOURS_OF (an answer is often the reply to the turn
# that matched: those neighbours inherit a share of its fused score). Fixed, not k, so that a
# memory's score does not depend on how many are asked for.
POOL_FUSED, POOL_PER_CHANNEL, NEIGHBOURS_OF = 40, 20, 10


def _candidates(mem, user: str, a: Analysis, rankings: dict[str, list[str]], fused: dict[str, float],
                cosines: dict[str, Cosines], k: int, share: float) -> Candidates:
    by_fused = sorted(fused, key=lambda uid: -fused[uid])
    pool = list(dict.fromkeys(by_fused[:max(POOL_FUSED, k)]
                              + [uid for ranked in rankings.values() for uid in ranked[:POOL_PER_CHANNEL]]))
    rows = mem.run("recall_candidates", user_id=user, uids=pool) if pool else []
    # a neighbour is [uid, speaker, text, words, whether it comes before] (recall_candidates.cypher)
    said = {r["uid"]: Said.of(r["speaker"], r["text"], r["words"], opens=not any(n[4] for n in r["neighbours"]))
            for r in rows}
    around = {r["uid"]: [n[0] for n in r["neighbours"]] for r in rows} if share > 0 else {}
    for r in rows:
        for n, speaker, text, words, _before in r["neighbours"]:
            # one after this memory does not open its session; of one before, it is not known
            said.setdefault(n, Said.of(speaker, text, words, opens=False))
    with_neighbours = dict(fused)
    for uid in by_fused[:NEIGHBOURS_OF]:
        for n in around.get(uid, ()):
            with_neighbours[n] = max(with_neighbours.get(n, 0.0), fused[uid] * share)
            pool.append(n)
    pool = list(dict.fromkeys(pool))
    unscored = [uid for uid in pool if uid not in cosines]  # the ranker weighs every candidate's cosines
    if unscored:
        cosines = {**cosines, **_cosines(mem.run("recall_similarity", user_id=user, uids=unscored,
                                                 vector=a.vector, topic=a.topic_vector))}
    return candidate_features(pool, CHANNELS, rankings, fused, with_neighbours, around, cosines, said,
                              set(a.persons()))


def _rank(candidates: Candidates, ranker: Ranker | None) -> list[tuple[str, float]]:
    """The candidates, best first, with their scores. Without a ranker: by fused score with
    the neighbours' inheritance."""
    if ranker is None:
        column = candidates.matrix[:, candidates.names.index("fused_with_neighbours")] if candidates.uids else []
        scores = list(map(float, column))
    else:
        scores = [float(s) for s in ranker.scores(candidates)]
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    return [(candidates.uids[i], scores[i]) for i in order]


# -- channels -------------------------------------------------------------------------


def _depth(a: Analysis) -> int:
    """How many memories each channel ranks for this question."""
    return DEPTH_BY_TYPE.get(a.type, DEPTH)


def _semantic(mem, user: str, a: Analysis) -> dict[str, Cosines]:
    """uid -> its cosines (`Cosines`), best first by `similarity` (the named people's a little
    first, SPEAKER_PRIOR): the memories nearest the question's topic by the memory vector
    index, read twice the depth deep so that a turn whose best sentence matches (one fact in a
    long turn is diluted in the turn's embedding) can rise into the depth. The index is shared
    by every user, so it is read 8 times the depth deep; when that holds fewer than twice the
    depth of the user's memories, an exact scan of the user's own."""
    depth = _depth(a)
    asked = {"user_id": user, "vector": a.vector, "topic": a.topic_vector, "limit": depth * 2}
    rows = mem.run("recall_semantic", scan=depth * 8, **asked)
    if len(rows) < min(depth * 2, a.memories):
        rows = mem.run("recall_semantic_exact", **asked)
    persons = set(a.persons())
    named = {r["uid"] for r in rows if r["speaker"] in persons}
    return dict(sorted(_cosines(rows).items(),
                       key=lambda item: -similarity(item[1]) - SPEAKER_PRIOR * (item[0] in named))[:depth])


# How much nearer a memory said by a person the question names counts in the semantic channel:
# little, a tie-break among memories about as near ("What has Melanie painted?" asks for what
# Melanie said). LoCoMo dev, held out, R@10 / multi-hop All@10 with 0, 0.02, 0.05, 0.1, 0.2:
# 0.809 / 0.352, 0.814 / 0.366, 0.814 / 0.366, 0.808 / 0.366, 0.798 / 0.366.
SPEAKER_PRIOR = 0.05


def _cosines(rows: list[dict]) -> dict[str, Cosines]:
    """uid -> `Cosines` of rows of uid, turn, sentence, topic_turn, topic_sentence: a memory of
    one sentence (sentences null) is its own best sentence."""
    return {r["uid"]: (r["turn"], _or(r["sentence"], r["turn"]), r["topic_turn"],
                       _or(r["topic_sentence"], r["topic_turn"])) for r in rows}


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


def similarity(cosines: Cosines) -> float:
    """How near a memory is to a question: the mean of its cosines, of the whole turn and of its
    best sentence, with the question and with its topic (`analysis.topic_of`). LoCoMo dev, the
    semantic channel alone, exact, R@10 on multi-hop questions / on the rest: the mean of the
    two with the question 0.437 / 0.695, of all four 0.469 / 0.736 (`graphmem bench locomo`
    measures the whole recall)."""
    return sum(cosines) / len(cosines)


def _lexical(mem, user: str, a: Analysis, candidates: Sequence[str] = ()) -> list[str]:
    """BM25 over the user's term postings. A word in more than FANOUT memories is not walked: it
    only adds its share to the memories the other channels found, so the walk stays bounded as
    the memory grows."""
    if not a.words:
        return []
    depth = _depth(a)
    walked = mem.run("recall_lexical", user_id=user, terms=a.words, max_df=FANOUT, limit=depth)
    boosted = mem.run("recall_lexical_boost", user_id=user, terms=a.words, max_df=FANOUT,
                      uids=list(candidates)) if candidates and a.memories > FANOUT else []  # else no word is too frequent
    return _ranked_with_boosts(walked, boosted, depth)


# A posting list longer than this (an entity's mentions, a word's memories) is not walked: the
# walk would grow with the memory, and such an entity or word weighs little; it only boosts the
# memories other channels found (recall_*_boost.cypher).
FANOUT = 1000


def _entity(mem, user: str, a: Analysis, candidates: Sequence[str] = ()) -> list[str]:
    """Memories mentioning the matched entities (and one RELATES hop), rarer ones weighing more.
    An entity with more than FANOUT mentions would make the walk grow with the memory: it
    only adds its weight to the memories the other channels found."""
    depth = _depth(a)
    seeds = [{"vid": e.vid, "weight": e.score} for e in a.entities if e.frequency <= FANOUT]
    boosts = [{"vid": e.vid, "weight": e.score / math.log(2 + e.frequency)} for e in a.entities
              if e.frequency > FANOUT]
    walked = mem.run("recall_entity", user_id=user, seeds=seeds, decay=0.3, fanout=FANOUT,
                     limit=depth) if seeds else []
    boosted = mem.run("recall_entity_boost", user_id=user, uids=list(candidates),
                      boosts=boosts) if boosts and candidates else []
    return _ranked_with_boosts(walked, boosted, depth)


def _ranked_with_boosts(walked: list[dict], boosted: list[dict], depth: int) -> list[str]:
    """A channel's walk (uid, score rows) plus what its too-frequent items add to the other
    channels' candidates, ranked by the summed score."""
    scores = {r["uid"]: r["score"] for r in walked}
    for r in boosted:
        scores[r["uid"]] = scores.get(r["uid"], 0.0) + r["score"]
    return sorted(scores, key=lambda uid: -scores[uid])[:depth]


def _temporal(mem, user: str, a: Analysis) -> list[str]:
    if a.time_range is None:
        return []
    start, end = a.time_range
    rows = mem.run("recall_temporal", user_id=user, start=start, end=end,
                   vids=[e.vid for e in a.entities], limit=_depth(a))
    return [r["uid"] for r in rows]


def _answer(mem, user: str, a: Analysis) -> list[str]:
    """Memories mentioning an entity of the kind the question asks for (a place, a title), by
    the people it names, closest to the question's topic first (they are all the named people's:
    their names would weigh alike; LoCoMo dev, held out, one store: R@10 / multi-hop All@10 0.814
    / 0.373 against 0.814 / 0.366 by the question)."""
    if not a.answer_kinds:
        return []
    rows = mem.run("recall_answer", user_id=user, kinds=a.answer_kinds, speakers=a.persons(),
                   vector=a.topic_vector, fanout=FANOUT, limit=_depth(a))
    return [r["uid"] for r in rows]


def _simplicial(mem, user: str, a: Analysis) -> tuple[list[str], list[dict]]:
    """Cofaces of the matched vertex set and of its subsets: a memory ranks by its best
    simplex, fuller overlap with the query first, then turn over session witnesses, then
    more observations, then lower dimension (a tighter co-occurrence)."""
    vids = sorted(a.specific_vids())
    if not vids:
        return [], []
    depth = _depth(a)
    rows = mem.run("recall_simplicial", user_id=user, vids=vids,
                   min_overlap=min(2, len(vids)), limit=depth * 4)
    best: dict[str, tuple] = {}
    for row in rows:
        key = (row["overlap"] / len(vids), row["kind"] == "turn", math.log1p(row["count"]), -len(row["path"]))
        for uid in row["witnesses"]:
            if uid not in best or key > best[uid]:
                best[uid] = key
    return sorted(best, key=lambda uid: best[uid], reverse=True)[:depth], rows


CHANNEL_FUNCTIONS = {"lexical": _lexical, "entity": _entity, "temporal": _temporal, "answer": _answer}  # semantic and simplicial return more


# -- the answer -----------------------------------------------------------------------


def _details(mem, user: str, top: list[tuple[str, float]], rankings: dict[str, list[str]],
             why: dict[str, dict]) -> list[Recalled]:
    rows = {r["uid"]: r for r in mem.run("recall_memories", user_id=user, uids=[u for u, _ in top])}
    ranks = {c: {uid: i for i, uid in enumerate(ranked, start=1)} for c, ranked in rankings.items()}
    out = []
    for uid, score in top:
        row = rows.get(uid)
        if row is None:
            continue
        refers = from_epoch(row["refers_to"])
        out.append(Recalled(uid, row["text"], row["speaker"], row["source_id"], row["session"], row["session_date"],
                            round(score, 6), {c: r[uid] for c, r in ranks.items() if uid in r}, row["restated"],
                            refers.date().isoformat() if refers else None, row["caption"], why.get(uid, {})))
    return out


RERANK_POOL = 3  # the cross-encoder reorders the fused top k * RERANK_POOL


def _rerank(mem, query: str, memories: list[Recalled], notes: list[str]) -> list[Recalled]:
    """Reorder by a cross-encoder's score of (question, memory), when the configured model is
    installed; otherwise say so and keep the fused order."""
    from ..models import cross_encoder

    model = cross_encoder(mem.settings.rerank_model)
    if model is None:
        notes.append(f"rerank off: model {mem.settings.rerank_model!r} is not installed")
        return memories
    scores = model.predict([(query, m.restated or m.text) for m in memories])
    order = sorted(range(len(memories)), key=lambda i: -float(scores[i]))
    return [memories[i] for i in order]


def trim_to_budget(memories: list[Recalled], budget: int) -> list[Recalled]:
    """Keep the best memories whose context lines fit in `budget` tokens (about 4 characters
    a token, the usual rule for English with BPE tokenisers)."""
    kept, used = [], 0
    for m in memories:
        cost = max(1, len(m.context_line()) // 4 + 1)
        if used + cost > budget:
            break
        kept.append(m)
        used += cost
    return kept


def _structure(cx, a: Analysis, rows: list[dict]) -> tuple[list[Simplex], list[dict]]:
    """The retrieved simplices and the gaps over the matched vertices: faces implied by stored
    simplices but never observed, and pairs of matched entities never seen together."""
    names = {e.vid: e.name for e in a.entities}
    shown = rows[:DEPTH]
    every = cx_names(cx, sorted({v for r in shown for v in r["path"]}))  # one lookup for all rows
    subcomplex = [Simplex.from_row(r, names=every) for r in shown]
    vids = sorted(names)
    gaps: list[dict] = []
    if len(vids) >= 2:
        together = {pair for r in rows for pair in combinations(sorted(set(r["path"]) & set(vids)), 2)}
        for pair in combinations(vids, 2):
            if pair not in together:
                gaps.append({"vertices": [names[v] for v in pair], "vids": list(pair), "gap": "never seen together"})
        if len(vids) <= 12:
            gaps += [{**f.to_dict(), "gap": "implied, never observed"} for f in cx.gaps(vids)]
    return subcomplex, gaps


def cx_names(cx, vids) -> dict[int, str]:
    return dict(zip(vids, cx._names(vids)))
