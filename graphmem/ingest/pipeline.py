"""The ingest pipeline: read and validate every source, then batch by batch parse (spaCy, in a
background thread so that parsing overlaps embedding), plan (extract, resolve, embed) and write
(in another thread: the database works in its own process), then witness the sessions."""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence, Union

import numpy as np

from ..complex import Complex
from ..errors import InputError
from ..models import Embedder, Models
from ..store import Store
from .formats import Turn, read_transcript
from .lease import UserLease
from .plan import memory_uid, plan_batch, session_key
from .resolve import Resolver
from .summary import IngestSummary, Stopwatch
from .write import finish, write_batch

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

Progress = Callable[[str, int], None]  # (what, how many more turns are done)
Source = Union[str, Path, Sequence[Union[str, Path]], Sequence[Turn]]
TRANSCRIPT_SUFFIXES = (".json", ".jsonl", ".txt", ".md")
WRITES_IN_FLIGHT = 2  # batches planned ahead of the database: bounded, so memory stays flat


def embed_threads(precision: str) -> int | None:
    """torch threads for embedding during ingest, where the parse and the database writes run
    beside it (None: torch's default, every core). In float32 the embedding is the heavy stage
    and wants every core; in bfloat16 it is light, and one thread leaves the others to the
    parse and the writes."""
    return 1 if precision == "bfloat16" else None


def ingest(store: Store, models: Models, source: Source, *, user: str, format: str | None = None,
           dry_run: bool = False, progress: Progress | None = None) -> IngestSummary:
    """Ingest transcripts (paths) or already parsed turns into `user`'s memory. Another ingest
    into the same user, in any process, waits for this one (`UserLease`)."""
    started = time.perf_counter()
    transcripts = read_sources(source, format)  # validate everything before writing anything
    summary = IngestSummary(user, files=len(transcripts), dry_run=dry_run,
                            turns=sum(len(turns) for _, turns in transcripts))
    cx = Complex(store, user)
    embedder, nlp = models.embedder(), models.nlp()  # loaded before the user is held
    with nullcontext() if dry_run else UserLease(store, user) as lease:
        _ingest(store, cx, transcripts, embedder, nlp, lease, summary, progress)
    summary.seconds = time.perf_counter() - started
    return summary


def _ingest(store: Store, cx: Complex, transcripts: list[tuple[str, list[Turn]]], embedder: Embedder,
            nlp: "Language", lease: UserLease | None, summary: IngestSummary, progress: Progress | None) -> None:
    user, dry_run, began = cx.user, lease is None, time.time()
    every = [memory_uid(name, t) for name, turns in transcripts for t in turns]
    known = {row["uid"] for row in store.run("memory_uids", user_id=user, uids=every)} if not dry_run else set()
    threads = embed_threads(embedder.precision)

    def embed(texts: Sequence[str]) -> np.ndarray:
        return embedder.embed(texts, threads=threads)

    resolver = Resolver(store.run("entity_catalog", user_id=user), embed, store.settings.entity_merge_threshold)
    summary.entities_added = -len(resolver.entities)
    clock = Stopwatch(summary.stages)
    size = store.settings.ingest_batch
    pending: list[Future] = []
    with ThreadPoolExecutor(max_workers=1) as parser, ThreadPoolExecutor(max_workers=1) as writer:
        for name, turns in transcripts:
            speakers = list(dict.fromkeys(t.speaker for t in turns))
            summary.sessions += len({t.session for t in turns})
            todo = [t for t in turns if memory_uid(name, t) not in known]  # finished by an earlier run
            if progress and len(todo) < len(turns):
                progress(name, len(turns) - len(todo))
            if not todo:
                continue
            batches = [todo[i:i + size] for i in range(0, len(todo), size)]
            parsed = parser.submit(_parse, nlp, batches[0])
            for index, batch in enumerate(batches):
                with clock("parse (waiting)"):
                    docs = parsed.result()
                if index + 1 < len(batches):
                    parsed = parser.submit(_parse, nlp, batches[index + 1])
                plan = plan_batch(resolver, embed, name, batch, docs, speakers,
                                  sentence_views=store.settings.sentence_views,
                                  max_simplex_size=store.settings.max_simplex_size, summary=summary, clock=clock)
                if lease is None:
                    plan.count_into(summary)
                    if progress:
                        progress(name, len(batch))
                    continue
                lease.renew()
                # after the batch before it only: a batch written after a failed one would be complete
                # while an earlier one is not, and the re-run would resolve that one differently
                pending.append(writer.submit(_after, pending[-1] if pending else None, write_batch,
                                             store, cx, plan, summary, clock))
                if progress:
                    pending[-1].add_done_callback(_reporter(progress, name, len(batch)))
                while len(pending) > WRITES_IN_FLIGHT:
                    pending.pop(0).result()
        for future in pending:
            future.result()  # re-raises a failed write
    summary.entities_added += len(resolver.entities)
    if lease is not None and summary.turns:
        lease.renew()
        finish(store, cx, {session_key(name, t) for name, turns in transcripts for t in turns}, began, summary, clock)


def _after(previous: Future | None, write: Callable[..., None], *args: object) -> None:
    if previous is not None:
        previous.result()  # re-raises what stopped it: nothing is written after a failure
    write(*args)


def _reporter(progress: Progress, name: str, turns: int) -> Callable[[Future], None]:
    return lambda _: progress(name, turns)


def read_sources(source: Source, format: str | None = None) -> list[tuple[str, list[Turn]]]:
    """(transcript name, its turns) of every source, all read and validated: paths, directories
    of transcripts, or already parsed turns (one transcript named "turns")."""
    items: list = [source] if isinstance(source, (str, Path)) else list(source)
    if items and all(isinstance(s, Turn) for s in items):
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
            out += [(f.stem, read_transcript(f, format)) for f in files]
        else:
            out.append((path.stem, read_transcript(path, format)))
    if not out:
        raise InputError("nothing to ingest: no paths given")
    return out


def _parse(nlp: "Language", batch: list[Turn]) -> list["Doc"]:
    return list(nlp.pipe([t.text for t in batch], batch_size=64))
