"""Planning a batch: what it writes, computed without the database. Turns are extracted,
their mentions resolved to canonical entities, their texts embedded; vertices are entity norms
until the writer learns their vids."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np

from ..simplex import to_epoch
from ..vectors import as_param
from .extract import MASKED, WORD, Extraction, extract, terms
from .formats import Turn
from .identity import digest, session_key
from .markup import mask
from .resolve import Entity, Resolver
from .summary import IngestSummary, Stopwatch

if TYPE_CHECKING:
    from ..models import Models

Embed = Callable[[Sequence[str]], np.ndarray]

# Shorter sentences ("Hey Caroline!", "Thanks!") are not embedded on their own: they carry no
# fact of their own, and each is a vector to compute and store.
SENTENCE_WORDS = 3
# At most this many sentences of a memory are embedded on their own, spread over the memory: a
# long technical message otherwise made dozens of vectors (one per line of its code).
SENTENCE_VIEWS = 8
# Characters parsed at once: a batch of long technical messages parsed whole held gigabytes.
PARSE_CHARS = 100_000
# Prose characters of one message that spaCy parses (entities, relations, restatement); the rest
# of a longer message is kept as written, cut into sentences by punctuation and searchable by
# its words (markup.mask). The parse is most of an ingest's time, and grows with the text.
PARSE_PROSE_CHARS = 1_000


@dataclass
class BatchPlan:
    """Everything one batch writes."""

    uids: list[str]
    rows: list[dict]  # memory rows; "mentions": entity norm -> the names the turn used
    postings: list[dict]
    vectors: list[list[float]]
    sentences: list[list[dict]]  # per memory: {n, text, embedding} of each sentence, when it has several
    relations: list[tuple[str, str, str, str]]  # (subject norm, label, object norm, memory uid)
    words: list[tuple[list[str], str, datetime | None]]  # (vertex norms, witnessing uid, session date)
    entities: list[dict]  # {name, norm, kind, aliases, vector (None when unchanged)}
    claims: list[dict] = field(default_factory=list)  # {uid, subject (norm), slot, ...} (claims.py)
    fresh: bool = False  # none of its memories was stored when the ingest began (nothing to take back)
    pending: Future | None = None  # the vectors, when they are computed beside the first writes

    def embedded(self) -> "BatchPlan":
        """The plan with its memories' and sentences' vectors, waiting for them if they are
        being computed."""
        if self.pending is not None:
            _fill(self, self.pending.result())
            self.pending = None
        return self

    def count_into(self, summary: IngestSummary) -> None:
        """What a dry run reports: the counts the writes would have made."""
        summary.memories_added += len(self.uids)
        summary.mentions += sum(len(row["mentions"]) for row in self.rows)
        summary.relations += len(self.relations)
        summary.claims += len(self.claims)
        summary.turn_simplices += len(self.words)


def extract_batch(models: "Models", batch: list[Turn], speakers: list[str]) -> list[Extraction]:
    """Each turn parsed and extracted. Nothing of spaCy outlives the call: its docs die in one
    memory zone, and with them the strings they added to the vocabulary."""
    out = []
    for group in _by_length(batch):
        masks = [mask(t.text, PARSE_PROSE_CHARS) for t in group]
        with models.parsing() as nlp:
            for turn, masked, doc in zip(group, masks, nlp.pipe([m.text for m in masks], batch_size=len(group))):
                doc.user_data[MASKED] = masked
                x = extract(doc, turn.speaker, _addressee(turn.speaker, speakers), turn.session_date)
                x.terms = terms(doc, turn.speaker, turn.caption)
                out.append(x)
    return out


def _by_length(batch: list[Turn]) -> list[list[Turn]]:
    """The batch in consecutive groups of at most PARSE_CHARS characters (or one turn): spaCy
    holds a group's docs at once, and a parse needs memory in proportion to its text."""
    groups: list[list[Turn]] = [[]]
    size = 0
    for turn in batch:
        if groups[-1] and size + len(turn.text) > PARSE_CHARS:
            groups.append([])
            size = 0
        groups[-1].append(turn)
        size += len(turn.text)
    return [g for g in groups if g]


def plan_batch(resolver: Resolver, embed: Embed, conversation: str, batch: list[Turn], uids: list[str],
               extractions: list[Extraction], speakers: list[str], *, sentence_views: bool, max_simplex_size: int, summary: IngestSummary,
               clock: Stopwatch, beside: Callable[[Sequence[str]], Future] | None = None) -> BatchPlan:
    """`beside`: starts embedding texts elsewhere, so that the memories' vectors are computed
    while the writes that need none run (unless a new name needs a vector to be resolved)."""
    for speaker in speakers:
        resolver.speaker(speaker)
    mentions = ([(m.name, m.kind) for x in extractions for m in x.mentions]
                + [(c.subject, c.kind) for x in extractions for c in x.claims])
    texts = [_searchable(t, x) for t, x in zip(batch, extractions)]
    sentences = [_sentences(t, x) if sentence_views else [] for t, x in zip(batch, extractions)]
    views = [s for turn in sentences for s in turn]
    names = resolver.unknown(mentions)
    plan = BatchPlan(uids, [], [], [], [[{"n": n, "text": text} for n, text in enumerate(turn)] for turn in sentences],
                     [], [], [])
    if beside is not None and not names:
        plan.pending = beside(texts + views)
    else:
        with clock("embed"):  # one call: the model batches turns, sentences and new names together
            vectors = embed(texts + views + names)
        resolver.prime(names, vectors[len(texts) + len(views):])
        _fill(plan, vectors[:len(texts) + len(views)])
    with clock("resolve"):
        resolved = resolver.resolve_all(mentions)
    summary.sentences += sum(map(len, sentences))
    summary.dated_references += sum(x.refers_to is not None for x in extractions)
    entities = {e.norm: e for x in extractions for name, kind in _named(x) for e in [resolved[(name, kind)]]}
    for turn, x, uid in zip(batch, extractions, uids):
        said: dict[str, list[str]] = {}  # entity norm -> the names the turn calls it by
        read_as: dict[str, str] = {}  # entity norm -> the kind the turn read (settle_entities.cypher)
        for name, kind in _named(x):  # a claim's subject is mentioned by the turn that claims it
            norm = resolved[(name, kind)].norm
            names = said.setdefault(norm, [])
            read_as.setdefault(norm, kind)
            if name not in names:
                names.append(name)
        plan.claims += [{"uid": uid, "subject": resolved[(c.subject, c.kind)].norm, "slot": c.slot, "n": n,
                         "qualifiers": list(c.qualifiers), "value": c.value, "positive": c.positive, "cue": c.cue,
                         "needs_cue": c.needs_cue} for n, c in enumerate(x.claims)]
        counts = x.terms
        plan.postings.append({"uid": uid, "terms": [[w, n] for w, n in counts.items()]})
        plan.rows.append({**_memory_row(conversation, turn, x, uid, said), "read_as": read_as,
                          "length": sum(counts.values())})
        for s, label, o in x.relations:
            a, b = resolved[(x.mentions[s].name, x.mentions[s].kind)], resolved[(x.mentions[o].name, x.mentions[o].kind)]
            if a.norm != b.norm:
                plan.relations.append((a.norm, label, b.norm, uid))
        if said:
            plan.words.append((_cap(x, resolved, max_simplex_size, summary), uid, turn.session_date))
    with clock("embed entities"):  # new entities and changed aliases
        fresh = [e for e in entities.values() if e.dirty]
        unembedded = [e for e in fresh if e.vector is None]
        for entity, vector in zip(unembedded, resolver.vectors([e.name for e in unembedded]) if unembedded else []):
            entity.vector = vector
    plan.entities = [{"name": e.name, "norm": e.norm, "kind": e.kind, "aliases": list(e.aliases),
                      "vector": _vector(e) if e.dirty else None} for e in entities.values()]
    for entity in fresh:
        entity.dirty = False
    return plan


def _fill(plan: BatchPlan, vectors: np.ndarray) -> None:
    """The memories' vectors, then their sentences', in the order plan_batch embedded them."""
    plan.vectors = [as_param(v) for v in vectors[:len(plan.uids)]]
    rest = iter(vectors[len(plan.uids):])
    for turn in plan.sentences:
        for sentence in turn:
            sentence["embedding"] = as_param(next(rest))


def _named(x: Extraction) -> list[tuple[str, str]]:
    """(name, kind) of what a turn mentions, the subjects of its claims included."""
    return list(dict.fromkeys([(m.name, m.kind) for m in x.mentions] + [(c.subject, c.kind) for c in x.claims]))


def _vector(entity: Entity) -> list[float] | None:
    return None if entity.vector is None else as_param(entity.vector)


def _addressee(speaker: str, speakers: list[str]) -> str | None:
    others = [s for s in speakers if s != speaker]
    return others[0] if len(speakers) == 2 and others else None


def _searchable(turn: Turn, x: Extraction) -> str:
    """What a memory is embedded and searched by: the restated turn, its image caption."""
    text = f"{turn.speaker}: {x.restated}"
    return f"{text} [image: {turn.caption}]" if turn.caption else text


def _sentences(turn: Turn, x: Extraction) -> list[str]:
    """A memory's sentences, each embedded on its own beside the whole turn (one fact in a long
    turn is diluted in the turn's embedding); none for a turn of one sentence, and none of
    fewer than SENTENCE_WORDS words. At most SENTENCE_VIEWS, evenly spread over the turn (the
    first and the last among them): the lexical channel still reads every word."""
    pieces = [f"{turn.speaker}: {s}" for s in x.sentences if len(WORD.findall(s)) >= SENTENCE_WORDS]
    limit = SENTENCE_VIEWS - bool(turn.caption)
    if len(pieces) > limit:
        step = (len(pieces) - 1) / (limit - 1)
        pieces = [pieces[round(i * step)] for i in range(limit)]
    if turn.caption:
        pieces.append(f"{turn.speaker}: [image: {turn.caption}]")
    return pieces if len(pieces) > 1 else []


def placement(turn: Turn) -> dict:
    """Where a memory stands in its conversation: its place, and its time (the session's date,
    ordered within it by place)."""
    return {"position": turn.index,
            "observed_at": to_epoch(turn.session_date) + turn.index * 1e-3 if turn.session_date else None}


def _memory_row(conversation: str, turn: Turn, x: Extraction, uid: str, mentions: dict[str, list[str]]) -> dict:
    return {
        "uid": uid, "text": turn.text, "restated": _searchable(turn, x), "speaker": turn.speaker,
        "conversation": conversation, "digest": digest(turn), "message_id": turn.message_id,
        "session": session_key(conversation, turn), "source_id": turn.source_id, **placement(turn),
        "session_date": turn.session_date.isoformat() if turn.session_date else None,
        "refers_to": to_epoch(x.refers_to) if x.refers_to else None, "time_text": x.time_text,
        "caption": turn.caption, "addressee": x.addressee, "standing": x.standing or None,
        "preference": x.preference or None, "mentions": mentions}


def _cap(x: Extraction, resolved: dict, limit: int, summary: IngestSummary) -> list[str]:
    """The turn's entity norms; a turn with more than max_simplex_size entities keeps the named
    ones first, then the earliest mentioned concepts, and the summary counts it. A turn that
    mentions nothing but claims something of its speaker ("So Wednesday to Sunday from now on")
    has its claims' subjects: the turn mentions them (`_named`), and every memory that mentions
    an entity witnesses a simplex."""
    ranked = sorted(x.mentions, key=lambda m: (m.kind == "CONCEPT", m.tokens.start if m.tokens else -1))
    norms = list(dict.fromkeys(resolved[(m.name, m.kind)].norm for m in ranked)) \
        or list(dict.fromkeys(resolved[(c.subject, c.kind)].norm for c in x.claims))
    if len(norms) > limit:
        summary.capped_simplices += 1
    return norms[:limit]
