"""Chat transcripts in, memory out: `ingest(mem, paths, user=...)`.

Every file is read and validated before anything is written. Then, batch by batch, turns
are parsed (spaCy, in a background thread so parsing overlaps embedding), restated,
their mentions resolved to canonical entities, embedded, and written with idempotent
statements: memories, sessions and mentions, relations, then one `turn` simplex per turn
witnessed by its memory; each session's entity set is a `session` simplex at the end.
Running it twice, or again after an interruption, leaves the same graph."""

from __future__ import annotations

import hashlib
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from ..complex import Observation
from ..errors import InputError
from ..simplex import to_epoch
from .extract import WORD, Extraction, extract, terms
from .formats import FORMATS, Turn, read_transcript
from .resolve import Resolver

if TYPE_CHECKING:
    from ..memory import Memory

__all__ = ["ingest", "IngestSummary", "Turn", "read_transcript", "FORMATS"]

Progress = Callable[[str, int], None]  # (what, how many more turns are done)


def embed_threads(precision: str) -> int | None:
    """torch threads for embedding during ingest, where the parse and the database writes run
    beside it (None: torch's default, every core). On a quiet 2-core machine, in float32 the
    embedding is the heavy stage and the default is faster (61 against 49 turns/s); in bfloat16
    it is light, and one thread leaves a core to the others (112-122 against 99-104 turns/s)."""
    return 1 if precision == "bfloat16" else None


@dataclass
class IngestSummary:
    user: str
    files: int = 0
    turns: int = 0
    sessions: int = 0
    memories_added: int = 0
    sentences: int = 0  # of the added memories, each embedded on its own (turns of several sentences)
    entities_added: int = 0
    mentions: int = 0
    relations: int = 0
    turn_simplices: int = 0
    session_simplices: int = 0
    capped_simplices: int = 0  # turns with more entities than max_simplex_size (most mentioned kept)
    dated_references: int = 0
    seconds: float = 0.0
    dry_run: bool = False
    stages: dict[str, float] = field(default_factory=dict)

    @property
    def turns_per_second(self) -> float:
        return self.turns / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict:
        return {**asdict(self), "turns_per_second": round(self.turns_per_second, 1)}


def ingest(mem: "Memory", source: str | Path | Sequence[str | Path] | Sequence[Turn], user: str,
           format: str | None = None, dry_run: bool = False, progress: Progress | None = None) -> IngestSummary:
    """Ingest transcripts (paths) or already parsed turns into `user`'s memory."""
    started = time.perf_counter()
    transcripts = _read_all(source, format)  # validate everything before writing anything
    summary = IngestSummary(user, files=len(transcripts), dry_run=dry_run,
                            turns=sum(len(turns) for _, turns in transcripts))
    cx = mem.complex(user)
    every = [memory_uid(name, t) for name, turns in transcripts for t in turns]
    known = _known_memories(mem, user, every) if not dry_run else set()
    catalog = mem.run("entity_catalog", user_id=user)
    embedder = mem.embedder()
    threads = embed_threads(embedder.precision)

    def embed(texts):
        return embedder.embed(texts, threads=threads)

    resolver = Resolver(catalog, embed, mem.settings.entity_merge_threshold)
    summary.entities_added = -len(resolver.entities)
    nlp = mem.nlp()
    clock = Stopwatch(summary.stages)
    pending = []
    with ThreadPoolExecutor(max_workers=1) as parser, ThreadPoolExecutor(max_workers=1) as writer:
        for name, turns in transcripts:
            speakers = list(dict.fromkeys(t.speaker for t in turns))
            summary.sessions += len({t.session for t in turns})
            todo = [t for t in turns if memory_uid(name, t) not in known]  # finished by an earlier run
            if progress and len(todo) < len(turns):
                progress(name, len(turns) - len(todo))
            turns = todo
            if not turns:
                continue
            batches = [turns[i:i + mem.settings.ingest_batch] for i in range(0, len(turns), mem.settings.ingest_batch)]
            parsed = parser.submit(_parse, nlp, batches[0])
            for index, batch in enumerate(batches):
                with clock("parse (waiting)"):
                    docs = parsed.result()
                if index + 1 < len(batches):
                    parsed = parser.submit(_parse, nlp, batches[index + 1])
                plan = _plan_batch(mem, resolver, embed, name, batch, docs, speakers, summary, clock)
                if dry_run:
                    _count_dry(plan, summary)
                    if progress:
                        progress(name, len(batch))
                    continue
                # the database works in its own process: this batch's writes overlap the next one's parse and embed
                pending.append(writer.submit(_write_batch, mem, cx, plan, summary, clock))
                pending[-1].add_done_callback(lambda _, n=len(batch), name=name: progress and progress(name, n))
                while len(pending) > 2:  # bounded: at most two batches waiting for the database
                    pending.pop(0).result()
        for future in pending:
            future.result()  # re-raises a failed write
    summary.entities_added += len(resolver.entities)
    if not dry_run and summary.turns:
        with clock("session simplices"):
            # the sessions of what was read (known turns too: a run killed before this step
            # left them unwitnessed), not all of the user's: this step stays O(input)
            read = {session_key(name, t) for name, turns in transcripts for t in turns}
            summary.session_simplices = cx.witness("session", sessions=read)
            mem.run("count_memories", user_id=user)
            if mem.settings.witness_window > 0:
                cx.witness("window", mem.settings.witness_window)
    summary.seconds = time.perf_counter() - started
    return summary


def _count_dry(plan: BatchPlan, summary: IngestSummary) -> None:
    summary.mentions += sum(len(row["mentions"]) for row in plan.rows)
    summary.relations += len(plan.relations)
    summary.turn_simplices += len(plan.words)


class Stopwatch:
    """Seconds per stage, summed, so a summary says where the time went."""

    def __init__(self, into: dict[str, float]):
        self.into = into

    def __call__(self, stage: str):
        from contextlib import contextmanager

        @contextmanager
        def timed():
            t0 = time.perf_counter()
            yield
            self.into[stage] = round(self.into.get(stage, 0.0) + time.perf_counter() - t0, 3)

        return timed()


def _read_all(source, format: str | None) -> list[tuple[str, list[Turn]]]:
    if isinstance(source, (str, Path)):
        source = [source]
    source = list(source)
    if source and all(isinstance(s, Turn) for s in source):
        return [("turns", source)]
    if any(isinstance(s, Turn) for s in source):
        raise InputError("pass either paths or turns, not both")
    out = []
    for path in source:
        path = Path(path)
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.suffix in (".json", ".jsonl", ".txt", ".md"))
            if not files:
                raise InputError("no transcript files (.json, .jsonl, .txt, .md) in this directory", source=str(path))
            out += [(f.stem, read_transcript(f, format)) for f in files]
        else:
            out.append((path.stem, read_transcript(path, format)))
    if not out:
        raise InputError("nothing to ingest: no paths given")
    return out


def _parse(nlp, batch: list[Turn]):
    return list(nlp.pipe([t.text for t in batch], batch_size=64))


def _known_memories(mem: "Memory", user: str, uids: list[str]) -> set[str]:
    return {row["uid"] for row in mem.run("memory_uids", user_id=user, uids=uids)}


def session_key(transcript: str, turn: Turn) -> str:
    return f"{transcript}#{turn.session}"


def memory_uid(transcript: str, turn: Turn) -> str:
    """Stable id of a turn: the same transcript ingested twice gives the same uids."""
    key = "\x1f".join([transcript, turn.session, turn.source_id, turn.speaker, turn.text])
    return hashlib.sha1(key.encode()).hexdigest()[:20]


def _addressee(speaker: str, speakers: list[str]) -> str | None:
    others = [s for s in speakers if s != speaker]
    return others[0] if len(speakers) == 2 and others else None


@dataclass
class BatchPlan:
    """Everything one batch writes, computed without the database; vertices are entity norms
    until the writer learns their vids."""

    uids: list[str]
    rows: list[dict]  # memory rows; "mentions" hold norms
    postings: list[dict]
    vectors: list[list[float]]
    sentences: list[list[dict]]  # per memory: {n, text, embedding} of each sentence, when it has several
    relations: list[tuple[str, str, str, str]]  # (subject norm, label, object norm, memory uid)
    words: list[tuple[list[str], str, object]]  # (vertex norms, witnessing uid, session date)
    entities: list[dict]  # {name, norm, kind, aliases, vector (None when unchanged)}


def _plan_batch(mem, resolver: Resolver, embed: Callable, transcript: str, batch: list[Turn], docs, speakers,
                summary: IngestSummary, clock: Stopwatch) -> BatchPlan:
    with clock("extract"):
        for speaker in speakers:
            resolver.speaker(speaker)
        extractions: list[Extraction] = [
            extract(doc, t.speaker, _addressee(t.speaker, speakers), t.session_date) for t, doc in zip(batch, docs)]
    with clock("resolve"):
        resolved = resolver.resolve_all([(m.name, m.kind) for x in extractions for m in x.mentions])
    texts = [_searchable(t, x) for t, x in zip(batch, extractions)]
    sentences = [_sentences(t, x) if mem.settings.sentence_views else [] for t, x in zip(batch, extractions)]
    with clock("embed"):  # one call: the model batches turns and sentences together
        vectors = embed(texts + [s for turn in sentences for s in turn])
    sentence_vectors = iter(vectors[len(texts):])
    uids = [memory_uid(transcript, t) for t in batch]
    summary.memories_added += len(uids)
    summary.sentences += sum(map(len, sentences))
    summary.dated_references += sum(x.refers_to is not None for x in extractions)
    entities = {e.norm: e for x in extractions for m in x.mentions for e in [resolved[(m.name, m.kind)]]}
    plan = BatchPlan(uids, [], [], [v.tolist() for v in vectors[:len(texts)]],
                     [[{"n": n, "text": text, "embedding": next(sentence_vectors).tolist()} for n, text in enumerate(turn)]
                      for turn in sentences], [], [], [])
    for turn, x, uid, doc in zip(batch, extractions, uids, docs):
        norms = list(dict.fromkeys(resolved[(m.name, m.kind)].norm for m in x.mentions))
        counts = terms(doc, turn.speaker, turn.caption)
        plan.postings.append({"uid": uid, "terms": [[w, n] for w, n in counts.items()]})
        plan.rows.append({**_memory_row(transcript, turn, x, uid, norms), "length": sum(counts.values())})
        for s, label, o in x.relations:
            a, b = resolved[(x.mentions[s].name, x.mentions[s].kind)], resolved[(x.mentions[o].name, x.mentions[o].kind)]
            if a.norm != b.norm:
                plan.relations.append((a.norm, label, b.norm, uid))
        if norms:
            plan.words.append((_cap(x, resolved, mem.settings.max_simplex_size, summary), uid, turn.session_date))
    with clock("embed entities"):  # new entities and changed aliases
        fresh = [e for e in entities.values() if e.dirty]
        unembedded = [e for e in fresh if e.vector is None]
        for entity, vector in zip(unembedded, embed([e.name for e in unembedded])):
            entity.vector = vector
    plan.entities = [{"name": e.name, "norm": e.norm, "kind": e.kind, "aliases": list(e.aliases),
                      "vector": e.vector.tolist() if e.dirty else None} for e in entities.values()]
    for entity in fresh:
        entity.dirty = False
    return plan


def _write_batch(mem, cx, plan: BatchPlan, summary: IngestSummary, clock: Stopwatch) -> None:
    """The batch's idempotent statements, in dependency order; the memories are marked
    complete last, so an interrupted batch is redone whole by the next run."""
    with clock("write"):
        names = {e["norm"]: e["name"] for e in plan.entities}
        by_name = cx.ensure_entities(list(names.values()), {e["name"]: e["kind"] for e in plan.entities})
        vid = {norm: by_name[name] for norm, name in names.items()}
        rows = [{**row, "mentions": sorted(vid[n] for n in row["mentions"])} for row in plan.rows]
        summary.mentions += mem.run("ingest_memories", user_id=cx.user, memories=rows)[0]["mentions"]
        mem.run("ingest_terms", user_id=cx.user, postings=plan.postings)
        mem.run("set_memory_embeddings", user_id=cx.user,
                rows=[{"uid": uid, "embedding": v, "sentences": sentences}
                      for uid, v, sentences in zip(plan.uids, plan.vectors, plan.sentences)])
        if plan.relations:
            relations = [{"subject": vid[a], "object": vid[b], "label": label, "memory": uid}
                         for a, label, b, uid in plan.relations]
            summary.relations += mem.run("ingest_relations", user_id=cx.user, relations=relations)[0]["relations"]
        if plan.words:
            observations = [Observation([vid[n] for n in norms], kind="turn", witnesses=[uid], at=at)
                            for norms, uid, at in plan.words]
            summary.turn_simplices += len(cx.insert_many(observations))
        embedded = [{"vid": vid[e["norm"]], "embedding": e["vector"]} for e in plan.entities if e["vector"]]
        if embedded:
            mem.run("set_entity_embeddings", user_id=cx.user, rows=embedded)
        mem.run("update_entities", user_id=cx.user,
                entities=[{"vid": vid[e["norm"]], "aliases": e["aliases"]} for e in plan.entities])
        mem.run("complete_memories", user_id=cx.user, uids=plan.uids)


def _searchable(turn: Turn, x: Extraction) -> str:
    """What a memory is embedded and searched by: the restated turn, its image caption."""
    text = f"{turn.speaker}: {x.restated}"
    return f"{text} [image: {turn.caption}]" if turn.caption else text


SENTENCE_WORDS = 3  # shorter sentences ("Hey Caroline!", "Thanks!") are not embedded on their own


def _sentences(turn: Turn, x: Extraction) -> list[str]:
    """A memory's sentences, each embedded on its own beside the whole turn (one fact in a long
    turn is diluted in the turn's embedding); none for a turn of one sentence. Sentences of
    fewer than SENTENCE_WORDS words are left out: on LoCoMo, 17 % fewer vectors, and the
    semantic channel alone ranked exactly as well."""
    pieces = [f"{turn.speaker}: {s}" for s in x.sentences if len(WORD.findall(s)) >= SENTENCE_WORDS]
    if turn.caption:
        pieces.append(f"{turn.speaker}: [image: {turn.caption}]")
    return pieces if len(pieces) > 1 else []


def _memory_row(transcript: str, turn: Turn, x: Extraction, uid: str, mentions: list) -> dict:
    return {
        "uid": uid, "text": turn.text, "restated": _searchable(turn, x), "speaker": turn.speaker,
        "session": session_key(transcript, turn), "source_id": turn.source_id, "position": turn.index,
        "session_date": turn.session_date.isoformat() if turn.session_date else None,
        "observed_at": to_epoch(turn.session_date) + turn.index * 1e-3 if turn.session_date else None,
        "refers_to": to_epoch(x.refers_to) if x.refers_to else None, "time_text": x.time_text,
        "caption": turn.caption, "mentions": mentions}


def _cap(x: Extraction, resolved, limit: int, summary: IngestSummary) -> list[str]:
    """The turn's entity norms; a turn with more than max_simplex_size entities keeps the named
    ones first, then the earliest mentioned concepts, and the summary counts it."""
    ranked = sorted(x.mentions, key=lambda m: (m.kind == "CONCEPT", m.tokens.start if m.tokens else -1))
    norms = list(dict.fromkeys(resolved[(m.name, m.kind)].norm for m in ranked))
    if len(norms) > limit:
        summary.capped_simplices += 1
    return norms[:limit]
