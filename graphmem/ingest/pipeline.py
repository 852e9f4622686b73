"""The ingest pipeline: read and validate every source, then batch by batch extract (spaCy, in a
background thread so that parsing overlaps embedding; split among worker processes where the
embedding leaves the cores free, parsers.py), plan (resolve, embed) and write
(in another thread: the database works in its own process), then witness the sessions. One
batch (a message added to memory) has nothing to overlap: it runs in the calling thread."""

from __future__ import annotations

import time
import weakref
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import Callable, Sequence, Union

import numpy as np

from ..complex import Complex
from ..consolidation import DEFERRED_MAX, Held, consolidate, defer
from ..errors import InputError
from ..forgetting import forget_memories, leftovers
from ..keys import check_text
from ..models import Embedder, Models
from ..store import Store
from ..threads import Here
from .formats import Turn, read_transcript
from .lease import UserLease
from .identity import Alignment, Stored, align, name_conversation, session_key
from .parsers import batch_parser, processes_for, usable_cores
from .plan import BatchPlan, placement, plan_batch
from .resolve import Resolver
from .summary import LOADING, IngestSummary, Stopwatch
from .turns import check_storable
from .write import finish, write_batch

Progress = Callable[[str, int], None]  # (what, how many more turns are done)
Source = Union[str, Path, Sequence[Union[str, Path]], Sequence[Turn]]
TRANSCRIPT_SUFFIXES = (".json", ".jsonl", ".txt", ".md")
WRITES_IN_FLIGHT = 2  # batches planned ahead of the database: bounded, so memory stays flat
# The vectors an ingest keeps of what it wrote, for the consolidation after it (25 MB of float32 at
# 384 dimensions): a larger ingest's consolidation reads the rest back.
HELD_VECTORS = 16_384
# One batch's memory vectors are computed on this thread while the writes that need none run, with
# one torch thread: the database and the writes take the other core (on two cores, two torch
# threads beside them made it no faster than embedding first).
_EMBEDDING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphmem-embed")
# Per store, per user: (the catalogue's name, the resolver holding it, the entities the writes
# learned the vids of) after this process's last ingest, so that adding a message does not read and embed
# the whole catalogue again, nor look up the vids of entities it already wrote.
_CATALOGS: "weakref.WeakKeyDictionary[Store, dict[str, tuple[str, Resolver, list[dict]]]]" = \
    weakref.WeakKeyDictionary()


# Turns per parse / embed / write step where `ingest_batch` is 0 (its default), by where the
# embedding runs. On a CPU embedding is the cost, and large batches embed fastest; on a GPU it
# is not, and smaller batches overlap the parse and the writes more (bench/README.md, "Ingest
# with a GPU").
BATCH_CPU, BATCH_GPU = 128, 64


def batch_size(store: Store, embedder: Embedder) -> int:
    """Turns per step: `ingest_batch`, or where it is 0, the size for the embedding's device."""
    return store.settings.ingest_batch or (BATCH_GPU if embedder.device.startswith("cuda") else BATCH_CPU)


def embed_threads(embedder: Embedder, alone: bool) -> int | None:
    """torch threads for embedding during ingest, where the parse and the database writes run
    beside it (None: torch's default, every core). Embedding is the heavy stage and wants every
    core, unless it runs in bfloat16 on AMX tiles: there it is light, and one thread leaves the
    others to the parse and the writes (docs/tuning.md). `alone`: one batch, parsed before it
    is embedded and written after, so nothing runs beside the embedding and it takes every
    core (even for a text or two)."""
    if alone:
        return embedder.cores
    return 1 if embedder.precision == "bfloat16" and embedder.amx else None


def frees_cores(embedder: Embedder) -> bool:
    """Whether the embedding leaves the CPU's cores to the parse (parsers.py): it runs on a GPU,
    or on one thread (`embed_threads`)."""
    return embedder.device.startswith("cuda") or embed_threads(embedder, alone=False) == 1


def ingest(store: Store, models: Models, source: Source, *, user: str, format: str | None = None,
           dry_run: bool = False, progress: Progress | None = None, conversation: str | None = None,
           whole: bool = True) -> IngestSummary:
    """Ingest transcripts (paths) or already parsed turns into `user`'s memory. Another ingest
    into the same user, in any process, waits for this one (`UserLease`).

    `conversation`: the conversation every source belongs to (else each transcript finds its
    own, identity.name_conversation). `whole`: each source is its conversation from the start,
    so an edited message replaces its stored version; else the turns continue the
    conversation (what `Memory.add` does)."""
    started = time.perf_counter()
    # validate everything before writing anything
    if conversation is not None:
        check_text(conversation, "the conversation name")
    transcripts = read_sources(source, format, keep_tool_results=store.settings.keep_tool_results)
    summary = IngestSummary(user, files=len(transcripts), dry_run=dry_run,
                            turns=sum(len(turns) for _, turns in transcripts))
    cx = Complex(store, user)
    with Stopwatch(summary.stages)(LOADING):  # before the user is held; once per process
        embedder, _ = models.embedder(), models.nlp()
    with nullcontext() if dry_run else UserLease(store, user) as lease:
        _ingest(store, models, cx, transcripts, embedder, lease, summary, progress, conversation, whole)
    summary.seconds = time.perf_counter() - started
    return summary


def _ingest(store: Store, models: Models, cx: Complex, transcripts: list[tuple[str, list[Turn]]],
            embedder: Embedder, lease: UserLease | None, summary: IngestSummary, progress: Progress | None,
            conversation: str | None, whole: bool) -> None:
    user, dry_run, began = cx.user, lease is None, time.time()
    size = batch_size(store, embedder)
    alone = len(transcripts) == 1 and summary.turns <= size  # one batch: nothing to overlap
    threads = embed_threads(embedder, alone)
    parse = batch_parser(models, 0 if alone else processes_for(store.settings.parse_processes, frees_cores(embedder),
                                                           usable_cores()))

    def embed(texts: Sequence[str]) -> np.ndarray:
        return embedder.embed(texts, threads=threads)

    def beside(texts: Sequence[str]) -> Future:
        return _EMBEDDING.submit(embedder.embed, texts, threads=1)

    if lease is not None and lease.unfinished:  # what an interrupted writer left half-done, finished first
        cx.finish_unwitnessing()
        left = leftovers(store, user)
        if left:
            forget_memories(store, cx, left, embed)
    placed, known, sessions = _place(store, cx, transcripts, conversation, whole, embed, summary, dry_run)
    # a replaced message's old version, just forgotten, may have taken entities with it
    resolver = _resolver(store, cx, None if summary.memories_replaced else lease, embed)
    summary.entities_added = -len(resolver.entities)
    clock = Stopwatch(summary.stages)
    pending: list[Future] = []
    held = Held()
    with _worker(alone) as parser, _worker(alone) as writer:
        for conv, alignment in placed:
            turns = alignment.turns
            speakers = list(dict.fromkeys(t.speaker for t in turns))
            summary.sessions += len({t.session for t in turns})
            todo = [(t, uid) for t, uid in zip(turns, alignment.uids) if uid not in known]  # done by an earlier run
            if progress and len(todo) < len(turns):
                progress(conv, len(turns) - len(todo))
            if not todo:
                continue
            existing = set(alignment.stored.uids)  # an interrupted run wrote part of these: taken back first
            batches = [todo[i:i + size] for i in range(0, len(todo), size)]
            parsed = parser.submit(parse, [t for t, _ in batches[0]], speakers)
            for index, batch in enumerate(batches):
                with clock("extract (waiting)"):
                    extractions = parsed.result()
                if index + 1 < len(batches):
                    parsed = parser.submit(parse, [t for t, _ in batches[index + 1]], speakers)
                plan = plan_batch(resolver, embed, conv, [t for t, _ in batch], [uid for _, uid in batch],
                                  extractions, speakers, sentence_views=store.settings.sentence_views,
                                  max_simplex_size=store.settings.max_simplex_size, summary=summary, clock=clock,
                                  beside=beside if alone and lease is not None else None)
                plan.fresh = not any(uid in existing for _, uid in batch)
                if lease is None:
                    plan.count_into(summary)
                    if progress:
                        progress(conv, len(batch))
                    continue
                lease.renew()
                # after the batch before it only: a batch written after a failed one would be complete
                # while an earlier one is not, and the re-run would resolve that one differently
                pending.append(writer.submit(_after, pending[-1] if pending else None, write_batch,
                                             store, cx, plan, summary, clock))
                if plan.fresh:  # a retry's vectors may not be those the earlier attempt stored
                    pending[-1].add_done_callback(_holder(held, plan))
                if progress:
                    pending[-1].add_done_callback(_reporter(progress, conv, len(batch)))
                while len(pending) > WRITES_IN_FLIGHT:
                    pending.pop(0).result()
        for future in pending:
            future.result()  # re-raises a failed write
    summary.entities_added += len(resolver.entities)
    if lease is not None and summary.turns:
        lease.renew()
        added = [uid for uid in summary.memory_ids if uid not in known]
        # a few messages continuing a conversation (an agent's live path): their sessions' simplices
        # and their groups are derived with a later pass (consolidation.defer)
        waiting = defer(store, user, added) if added and not whole else None
        later = set() if waiting is None else {session_key(conv, t) for conv, a in placed
                                               for t, uid in zip(a.turns, a.uids) if uid not in known}
        finish(store, cx, sessions - later, began, summary, clock, prune=lease.unfinished)
        with clock("consolidation"):  # the groups the new memories joined, and those a forget left stale
            if waiting is None or waiting >= DEFERRED_MAX:
                consolidate(store, user, added, held)
        lease.settle(lease.token)  # the catalogue is now what `resolver` holds
        _CATALOGS.setdefault(store, {})[user] = (lease.token, resolver, cx.known_entities())


def _place(store: Store, cx: Complex, transcripts: list[tuple[str, list[Turn]]], conversation: str | None,
           whole: bool, embed: Callable, summary: IngestSummary,
           dry_run: bool) -> tuple[list[tuple[str, Alignment]], set[str], set[str]]:
    """Each transcript's conversation and its turns' memory ids and places; the memories
    already complete; the sessions to witness. Unless a dry run: the old versions of edited
    messages are forgotten (leaving no trace) and stored memories moved to their new places."""
    user, placed = cx.user, []
    for name, turns in transcripts:
        conv = conversation or name_conversation(store, user, name, turns)
        stored = Stored.read(store, user, conv) if whole else Stored.known(store, user, conv, turns)
        placed.append((conv, align(conv, turns, stored, whole=whole)))
    every = [uid for _, a in placed for uid in a.uids]
    known = {uid for _, a in placed for uid in a.stored.complete}
    replaced = [uid for _, a in placed for uid in a.replaced]
    summary.conversations = list(dict.fromkeys(conv for conv, _ in placed))
    summary.memory_ids = every
    summary.memories_replaced = len(replaced)
    summary.memories_missing = sum(a.missing for _, a in placed)
    sessions = {session_key(conv, t) for conv, a in placed for t in a.turns}
    if not dry_run:
        if replaced:
            sessions |= forget_memories(store, cx, replaced, embed).sessions
            known -= set(replaced)
        moved = [{"uid": uid, **placement(turn)} for _, a in placed for uid, turn in zip(a.uids, a.turns)
                 if uid in a.moved and uid in known]
        if moved:
            store.run("place_memories", user_id=user, rows=moved)
    return placed, known, sessions


def _resolver(store: Store, cx: Complex, lease: UserLease | None, embed: Callable) -> Resolver:
    """The user's entity catalogue as a resolver: the copy this process kept after its last
    ingest into the user when the store still holds that catalogue (no writer since), with the
    entity vids it learned given to `cx`, else (or without a `lease`) read anew. A dry run plans
    on a copy of its own (it resolves what it never writes)."""
    kept = _CATALOGS.get(store, {}).pop(cx.user, None)  # taken: an ingest that fails leaves none behind
    if kept is not None and lease is not None and not lease.unfinished and lease.catalog == kept[0]:
        cx.learn(kept[2])
        return kept[1]
    return Resolver(store.run("entity_catalog", user_id=cx.user), embed, store.settings.entity_merge_threshold)


def _worker(here: bool) -> Union[Here, ThreadPoolExecutor]:
    # one batch has nothing to overlap, and handing its parse and its writes to threads of their
    # own made adding one message several milliseconds slower (bench/README.md, "Serving")
    return Here() if here else ThreadPoolExecutor(max_workers=1)


def _after(previous: Future | None, write: Callable[..., None], *args: object) -> None:
    if previous is not None:
        previous.result()  # re-raises what stopped it: nothing is written after a failure
    write(*args)


def _holder(held: Held, plan: BatchPlan) -> Callable[[Future], None]:
    """Once `plan` is written, keep the vectors it wrote in `held`, up to HELD_VECTORS."""
    def hold(written: Future) -> None:
        if written.cancelled() or written.exception() is not None:
            return
        count = len(held.memories) + sum(map(len, held.sentences.values()))
        if count + sum(1 + len(s) for s in plan.sentences) > HELD_VECTORS:
            return
        for uid, vector, sentences in zip(plan.uids, plan.vectors, plan.sentences):
            held.memories[uid] = np.asarray(vector, dtype=np.float32)
            held.sentences[uid] = {s["n"]: np.asarray(s["embedding"], dtype=np.float32) for s in sentences}

    return hold


def _reporter(progress: Progress, name: str, turns: int) -> Callable[[Future], None]:
    return lambda _: progress(name, turns)


def read_sources(source: Source, format: str | None = None, *,
                 keep_tool_results: bool = False) -> list[tuple[str, list[Turn]]]:
    """(transcript name, its turns) of every source, all read and validated: paths, directories
    of transcripts, or already parsed turns (one transcript named "turns")."""
    items: list = [source] if isinstance(source, (str, Path)) else list(source)
    if items and all(isinstance(s, Turn) for s in items):
        check_storable(items, None)  # they may be made by hand (Memory.add's were checked by to_turns: a second scan)
        return [("turns", items)]
    if any(isinstance(s, Turn) for s in items):
        raise InputError("pass either paths or turns, not both")
    out = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.suffix in TRANSCRIPT_SUFFIXES)
            if not files:
                raise InputError(f"no transcript files ({', '.join(TRANSCRIPT_SUFFIXES)}) in this directory",
                                 source=str(path))
            out += [(f.stem, read_transcript(f, format, keep_tool_results=keep_tool_results)) for f in files]
        else:
            out.append((path.stem, read_transcript(path, format, keep_tool_results=keep_tool_results)))
    if not out:
        raise InputError("nothing to ingest: no paths given")
    return out

