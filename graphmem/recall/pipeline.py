"""The recall pipeline: analyse the question -> run the channels -> fuse their rankings ->
gather the candidates and their features -> rank them -> the answer (details, optional
rerank, token budget) with its structure (the query-induced subcomplex and its gaps)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime
from typing import Any, Callable, Sequence, TypeVar, Union, cast

import numpy as np

from ..complex import Complex
from ..errors import InputError
from ..ingest.markup import plain_typing
from ..keys import check_text, check_time
from ..lifecycle import note_recalled
from ..models import Models
from ..simplex import Simplex, from_epoch
from ..store import Store
from ..threads import Here, beside
from .analysis import Analysis, analyse
from .channels import CHANNELS, REGISTRY, Ask, Booster, Cosines, Ranked, cosines_of
from .gaps import find_gaps
from .ranker import PEOPLE, Candidates, Ranker, Said, candidate_features, conversation_kind, load_ranker
from ..supersession import Validity
from .versions import reading, reorder, stood_at
from .results import Gaps, Recalled, Recollection, trim_to_budget
from .replies import agent_replies, asks_about_exchange, asks_about_own_words, own_words_first, with_replies
from .standing import KINDS, applying, first, standing_memories
from .tuning import (ABSTRACT_LEAST, ABSTRACTS_OF, ABSTRACTS_SHOWN, DEPTH, NEAR_TURNS, NEIGHBOURS_OF, POOL_FUSED,
                     POOL_PER_CHANNEL, RERANK_POOL, SCORE_DECIMALS)


T = TypeVar("T")


def recall(store: Store, models: Models, query: str, *, user: str, k: int = 10, token_budget: int | None = None,
           asker: str | None = None, channels: Sequence[str] = CHANNELS, neighbours: bool = True, rank: bool = True,
           keep_candidates: bool = False, include_archived: bool = False, abstracts: bool = True,
           asked_at: datetime | None = None) -> Recollection:
    """`asker`: the speaker who asks, whose "I" and "my" the question means ("Where did I adopt
    my dog?" asked by Alice); `neighbours`, `rank`: False leaves out the neighbours'
    inheritance, the ranker (fused order, as with recall_ranker "off"); `keep_candidates` keeps
    the ranker's input; `include_archived`: archived memories (graphmem/lifecycle.py) too;
    `abstracts`: False leaves out what abstracts lend their members (graphmem/consolidation.py);
    `asked_at`: when the question is asked (default: now), which the dates it names without a
    year ("in January") and relative ones ("last week") are read from."""
    _check_query(query, asker)
    said, query = query, plain_typing(query)  # read as typed on any keyboard; answered as asked
    asked_at = check_time(asked_at, "asked_at")
    if not isinstance(k, int) or isinstance(k, bool) or k <= 0:
        raise InputError(f"k must be a positive integer, not {k!r}")
    if token_budget is not None and (not isinstance(token_budget, int) or isinstance(token_budget, bool)
                                     or token_budget <= 0):
        raise InputError(f"token_budget must be a positive integer, not {token_budget!r}")
    unknown = [c for c in channels if c not in REGISTRY]
    if unknown:
        raise InputError(f"unknown recall channel {unknown[0]!r}; known: {', '.join(CHANNELS)}")
    settings = store.settings
    clock: dict[str, float] = {}
    started = time.perf_counter()
    cx = Complex(store, user)
    cx.require_user()
    analysis = analyse(store, models, user, query, asker, asked_at)
    _lap(clock, "analysis", started)

    pool = beside(store)
    # the gaps need the question alone; a Complex of their own, as its name cache is no thread's to share
    gaps_found = pool.submit(_timed, clock, "gaps", find_gaps, Complex(store, user), analysis)
    standing = pool.submit(standing_memories, store, user, include_archived, models)
    t0 = time.perf_counter()
    rankings, cosines, simplices = run_channels(store, user, analysis, channels, clock, pool)
    _lap(clock, "channels", t0)  # the wall time of them all; each one's own time is under its name

    t0 = time.perf_counter()
    weights = settings.recall_weights.get(analysis.type, {})
    fused = fuse(rankings, {c: weights.get(c, 1.0) for c in rankings}, settings.recall_rrf_k)
    share = settings.recall_neighbour_share if neighbours else 0.0
    candidates = gather(store, user, analysis, rankings, fused, cosines, k, share, include_archived, abstracts)
    exchange = asks_about_exchange(query)
    # A question on what the agent said is ranked with the weights for conversations among people,
    # and each of the user's turns then brings the agent's reply to it (recall/replies.py): the
    # weights for conversations with an agent, fit mostly on questions about what the user said,
    # rank the turn a reply answers below the first 10 more often (bench/README.md, "A ranker for
    # conversations with an agent").
    ranker = load_ranker(settings.recall_ranker, PEOPLE if exchange else candidates.kind) if rank else None
    asked = analysis.question  # a phrase searched for ("standup time") asks as "What is standup time?" does
    asked_then = stood_at(asked, analysis.time_range)
    if asked_then is not None:
        analysis.notes.append(f"asks how things stood {analysis.time_text}: the versions said by its end read as now")
    best, versions = reorder(store, user, order(candidates, ranker), reading(asked), question=asked,
                              words=analysis.words, kind=candidates.kind, thing=analysis.thing, as_of=asked_then,
                              asked_vector=np.asarray(analysis.vector, dtype=np.float32),
                              speakers=candidates.speakers, texts=candidates.texts)
    if exchange:
        best, placed = with_replies(best, candidates.replies)
        rankings = {**rankings, "reply": placed}
    elif asks_about_own_words(query) and analysis.asker is not None:
        best = own_words_first(best, candidates.speakers, analysis.asker)
        analysis.notes.append(f"asks what {analysis.asker} said: {analysis.asker}'s own turns first")
    # a question on what was said asks for no advice, though it may say "recommend"
    applies = applying(standing.result(), query, analysis.vector, advice=not exchange)
    best = first(best, applies)
    rankings = {**rankings, **{kind: [uid] for kind, uid in applies.items()}}
    top = best[:k * (RERANK_POOL if settings.rerank_model else 1)]
    where = {uid: i for i, uid in enumerate(candidates.uids)}
    scored = [uid for uid, _ in top if uid in where]  # a current version reorder brought in is no candidate
    why = dict(zip(scored, ranker.explain(candidates, [where[uid] for uid in scored]))) if ranker and scored else {}
    _lap(clock, "rank", t0)

    t0 = time.perf_counter()
    memories = details(store, user, top, rankings, why, versions, include_archived)
    if settings.rerank_model:
        reranker = models.cross_encoder()
        if reranker is None:
            analysis.notes.append(f"rerank off: model {settings.rerank_model!r} is not installed")
        else:
            memories = rerank(reranker, query, memories)
            memories.sort(key=lambda m: [kind not in m.channels for kind in KINDS])  # what applies stays first
            _lap(clock, "rerank", t0)
        memories = memories[:k]
    if token_budget is not None:
        memories = trim_to_budget(memories, token_budget)
    subcomplex = structure(cx, simplices)
    _lap(clock, "structure", t0)
    t0 = time.perf_counter()
    gaps = gaps_found.result()
    _lap(clock, "waited", t0)
    note_recalled(store, user, [m.uid for m in memories])  # an append; written in batches
    clock["total"] = round((time.perf_counter() - started) * 1000, 2)
    return Recollection(said, user, analysis, memories, subcomplex, gaps, analysis.notes, clock,
                        candidates if keep_candidates else None, abstracts=candidates.abstracts)


def gaps(store: Store, models: Models, query: str, *, user: str, asker: str | None = None) -> Gaps:
    """The gaps around `query`, best first (gaps.py), from the question's analysis alone: the
    same gaps recall gives, without ranking memories or counting any as recalled."""
    _check_query(query, asker)
    cx = Complex(store, user)
    cx.require_user()
    analysis = analyse(store, models, user, plain_typing(query), asker)
    return Gaps(query, user, [e.name for e in analysis.entities], find_gaps(cx, analysis))


def _check_query(query: object, asker: object = None) -> None:
    if not isinstance(query, str) or not query.strip():
        raise InputError("a recall query must be non-empty text")
    check_text(query, "the query")
    if isinstance(asker, str):
        check_text(asker, "the asker")


def _lap(clock: dict[str, float], name: str, since: float) -> None:
    clock[name] = round((time.perf_counter() - since) * 1000, 2)


def _timed(clock: dict[str, float], name: str, fn: Callable[..., T], *args: Any) -> T:
    t0 = time.perf_counter()
    try:
        return fn(*args)
    finally:
        _lap(clock, name, t0)


# -- the channels ----------------------------------------------------------------------


def run_channels(store: Store, user: str, a: Analysis, chosen: Sequence[str], clock: dict[str, float],
                 pool: Union[Here, ThreadPoolExecutor]) -> tuple[dict[str, list[str]], dict[str, Cosines], list[dict]]:
    """Each chosen channel's ranking (in the registry's order), the semantic channel's cosines
    and the simplicial channel's simplices. A boosting channel's boost reads what the channels
    before it found, so the boosts run one after another, in order; everything else (the boosting
    channels' walks, the channels after the last booster) needs nothing from the others and runs
    beside them from the start."""
    order = [c for c in CHANNELS if c in chosen]
    chain = max((i for i, c in enumerate(order) if REGISTRY[c].boosts), default=-1) + 1
    asked = Ask(store, user, a)
    later = {c: pool.submit(_timed, clock, c, _rank, asked, c) for c in order[chain:]}
    walks = {c: pool.submit(_timed, clock, c, cast(Booster, REGISTRY[c]).walk, asked)
             for c in order[:chain] if REGISTRY[c].boosts and _usable(a, c)}
    ranked: dict[str, Ranked] = {}
    for c in order[:chain]:
        if c not in walks:
            ranked[c] = _timed(clock, c, _rank, asked, c)
            continue
        walked = walks[c].result()  # its time is on the clock already
        found = tuple(dict.fromkeys(uid for r in ranked.values() for uid in r.uids))
        t0 = time.perf_counter()
        ranked[c] = cast(Booster, REGISTRY[c]).boost(replace(asked, found=found), walked)
        clock[c] = round(clock[c] + (time.perf_counter() - t0) * 1000, 2)
    ranked.update((c, future.result()) for c, future in later.items())
    ranked = {c: ranked[c] for c in order}
    cosines = next((r.cosines for r in ranked.values() if r.cosines), {})
    simplices = next((r.simplices for r in ranked.values() if r.simplices), [])
    return {c: r.uids for c, r in ranked.items()}, cosines, simplices


def _usable(a: Analysis, name: str) -> bool:
    return all(getattr(a, need) for need in REGISTRY[name].needs)


def _rank(ask: Ask, name: str) -> Ranked:
    return REGISTRY[name].rank(ask) if _usable(ask.analysis, name) else Ranked([])


def _best_first(scores: dict[str, float]) -> list[str]:
    return sorted(scores, key=lambda uid: (-round(scores[uid], SCORE_DECIMALS), uid))


# -- fusion and candidates -------------------------------------------------------------


def fuse(rankings: dict[str, list[str]], weights: dict[str, float], rrf_k: int = 20) -> dict[str, float]:
    """Weighted reciprocal rank fusion: score(m) = sum over channels of w / (rrf_k + rank)."""
    scores: dict[str, float] = {}
    for channel, ranked in rankings.items():
        w = weights.get(channel, 1.0)
        for rank, uid in enumerate(ranked, start=1):
            scores[uid] = scores.get(uid, 0.0) + w / (rrf_k + rank)
    return scores


def gather(store: Store, user: str, a: Analysis, rankings: dict[str, list[str]], fused: dict[str, float],
           cosines: dict[str, Cosines], k: int, share: float, include_archived: bool = False,
           abstracts: bool = True) -> Candidates:
    """The candidates the ranker orders (the fused top, each channel's top, the session
    neighbours of the fused top) with their features, and for a broad question the abstracts
    that hold several of the fused top; archived memories only when `include_archived`
    (recall_candidates.cypher leaves them out, whichever channel found them)."""
    by_fused = _best_first(fused)
    pool = list(dict.fromkeys(by_fused[:max(POOL_FUSED, k)]
                              + [uid for ranked in rankings.values() for uid in ranked[:POOL_PER_CHANNEL]]))
    # a broad question's answer is spread over memories an abstract may hold together; for the
    # others the statement is a cost without a use
    holding = beside(store).submit(holders, store, user, by_fused, fused) if abstracts and a.type == "multi-hop" \
        else None
    rows = store.run("recall_candidates", user_id=user, uids=pool, include_archived=include_archived) if pool else []
    kept = {r["uid"] for r in rows}
    pool = [uid for uid in pool if uid in kept]
    # a neighbour is [uid, speaker, text, words, whether it comes before, position] (recall_candidates.cypher)
    said = {r["uid"]: Said.of(r["speaker"], r["text"], r["words"], opens=not any(n[4] for n in r["neighbours"]))
            for r in rows}
    around = {r["uid"]: sorted(n[0] for n in r["neighbours"]) for r in rows} if share > 0 else {}
    place = {r["uid"]: (r["session"], r["position"]) for r in rows}
    for r in rows:
        for n, speaker, text, words, _before, position in r["neighbours"]:
            # one after this memory does not open its session; of one before, it is not known
            said.setdefault(n, Said.of(speaker, text, words, opens=False))
            place.setdefault(n, (r["session"], position))
    with_neighbours = dict(fused)
    for uid in by_fused[:NEIGHBOURS_OF]:
        for n in around.get(uid, ()):
            with_neighbours[n] = max(with_neighbours.get(n, 0.0), fused[uid] * share)
            pool.append(n)
    pool = list(dict.fromkeys(pool))
    unscored = [uid for uid in pool if uid not in cosines]  # the ranker weighs every candidate's cosines
    if unscored:
        cosines = {**cosines, **cosines_of(store.run("recall_similarity", user_id=user, uids=unscored,
                                                     vector=a.vector, topic=a.topic_vector))}
    # what abstracts lend their members is not a feature: rankers fit with it without the
    # conversation they rank lost a LoCoMo multi-hop question and gained nothing on BEAM
    # (bench/README.md, "Consolidation"); the abstracts come back with the answer
    speakers = {uid: said[uid].speaker for uid in pool if uid in said}
    kind = conversation_kind([speakers.get(uid) for uid in pool])
    candidates = candidate_features(pool, CHANNELS, rankings, fused, with_neighbours,
                                    near(pool, place, NEAR_TURNS[kind]) if share > 0 else {}, cosines, said,
                                    set(a.persons()), kind=kind)
    candidates.abstracts = holding.result() if holding is not None else []
    candidates.replies = agent_replies(rows)
    candidates.speakers = speakers
    texts = {r["uid"]: r["text"] for r in rows} | {n[0]: n[2] for r in rows for n in r["neighbours"]}
    candidates.texts = {uid: texts[uid] or "" for uid in pool if uid in texts}
    return candidates


def near(pool: Sequence[str], place: dict[str, tuple[Any, Any]], turns: int) -> dict[str, list[str]]:
    """Each candidate's fellow candidates at most `turns` turns from it in its session (`place`:
    uid -> (session, position)); a memory of no session or position has none."""
    at = {place[uid]: uid for uid in pool if uid in place and None not in place[uid]}
    return {uid: [at[(session, position + d)] for d in range(-turns, turns + 1) if d and (session, position + d) in at]
            for (session, position), uid in at.items()}


def holders(store: Store, user: str, by_fused: list[str], fused: dict[str, float]) -> list[dict]:
    """The abstracts holding several of the fused top, the strongest (the held memories' summed
    fused score) first."""
    top = by_fused[:ABSTRACTS_OF]
    rows = store.run("recall_abstracts", user_id=user, uids=top, least=ABSTRACT_LEAST) if top else []
    strength = {row["key"]: sum(fused[uid] for uid in row["held"]) for row in rows}
    shown = sorted(rows, key=lambda r: (-round(strength[r["key"]], SCORE_DECIMALS), r["key"]))[:ABSTRACTS_SHOWN]
    return [{"key": r["key"], "text": r["text"], "entities": list(r["entities"] or []),
                   "first_seen": _iso(r["first_seen"]), "last_seen": _iso(r["last_seen"]), "size": r["size"],
                   "held": sorted(r["held"]), "members": sorted(r["members"])} for r in shown]


def _iso(epoch: float | None) -> str | None:
    moment = from_epoch(epoch)
    return moment.isoformat() if moment else None


def order(candidates: Candidates, ranker: Ranker | None) -> list[tuple[str, float]]:
    """The candidates, best first, with their scores (ties to the smaller uid). Without a
    ranker: by fused score with the neighbours' inheritance."""
    if ranker is None:
        column = candidates.matrix[:, candidates.names.index("fused_with_neighbours")]
        scores = dict(zip(candidates.uids, map(float, column)))
    else:
        scores = dict(zip(candidates.uids, map(float, ranker.scores(candidates))))
    return [(uid, scores[uid]) for uid in _best_first(scores)]


# -- the answer ------------------------------------------------------------------------


def details(store: Store, user: str, top: list[tuple[str, float]], rankings: dict[str, list[str]],
            why: dict[str, dict], versions: dict[str, Validity] | None = None,
            include_archived: bool = False) -> list[Recalled]:
    rows = {r["uid"]: r for r in store.run("recall_memories", user_id=user, uids=[u for u, _ in top])
            if include_archived or r["state"] != "archived"}  # the candidates were not; what reorder brought in may be
    ranks = {c: {uid: i for i, uid in enumerate(ranked, start=1)} for c, ranked in rankings.items()}
    out = []
    for uid, score in top:
        row = rows.get(uid)
        if row is None:
            continue
        refers = from_epoch(row["refers_to"])
        v = (versions or {}).get(uid)
        until = from_epoch(v.valid_until) if v is not None else None
        partly = from_epoch(v.partly_until) if v is not None else None
        out.append(Recalled(uid, row["text"], row["speaker"], row["source_id"], row["session"], row["session_date"],
                            round(score, 6), {c: r[uid] for c, r in ranks.items() if uid in r}, row["restated"],
                            refers.date().isoformat() if refers else None, row["caption"], why.get(uid, {}),
                            until.isoformat() if until else None,
                            v.superseded_by[-1]["uid"] if v is not None and v.superseded_by else None,
                            v.supersedes if v is not None else [], partly.isoformat() if partly else None,
                            row["addressee"]))
    return out


def rerank(model, query: str, memories: list[Recalled]) -> list[Recalled]:
    """Reorder by a cross-encoder's score of (question, memory)."""
    scores = model.predict([(query, m.restated or m.text) for m in memories])
    return [memories[i] for i in sorted(range(len(memories)), key=lambda i: (-float(scores[i]), memories[i].uid))]


def structure(cx: Complex, rows: list[dict]) -> list[Simplex]:
    """The retrieved simplices, with their entities' names."""
    shown = rows[:DEPTH]
    every = cx.names_of(sorted({v for r in shown for v in r["path"]}))  # one lookup for all rows
    return [Simplex.from_row(r, names=every) for r in shown]
