"""What an ingest did: counts, and where the time went."""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Iterator

# the stage of loading the models: a process's first ingest only, and no part of its rate
LOADING = "loading models"


@dataclass
class IngestSummary:
    user: str
    files: int = 0
    turns: int = 0
    sessions: int = 0
    memories_added: int = 0
    memories_replaced: int = 0  # stored versions of edited messages, replaced by the new text
    memories_missing: int = 0  # stored messages a transcript read again no longer has (kept)
    sentences: int = 0  # of the added memories, each embedded on its own (turns of several sentences)
    entities_added: int = 0
    mentions: int = 0
    relations: int = 0
    claims: int = 0  # what the memories say of someone (a value for an attribute: ingest/claims.py)
    supersessions: int = 0  # older memories a claim superseded (or, again, of the same facts)
    turn_simplices: int = 0
    session_simplices: int = 0
    capped_simplices: int = 0  # turns with more entities than max_simplex_size (most mentioned kept)
    dated_references: int = 0
    seconds: float = 0.0
    dry_run: bool = False
    stages: dict[str, float] = field(default_factory=dict)
    conversations: list[str] = field(default_factory=list)  # the conversations written to
    memory_ids: list[str] = field(default_factory=list)  # each turn's memory, in the order given
    # of `Memory.add`: the older memories these superseded, {"id": older, "by": newer}, to review
    superseded: list[dict[str, str]] = field(default_factory=list)

    @property
    def turns_per_second(self) -> float:
        """The ingest's own rate: the seconds it took, less loading the models."""
        working = self.seconds - self.stages.get(LOADING, 0.0)
        return self.turns / working if working > 0 else 0.0

    def to_dict(self) -> dict:
        return {**asdict(self), "turns_per_second": round(self.turns_per_second, 1)}


class Stopwatch:
    """Seconds per stage, summed, so a summary says where the time went."""

    def __init__(self, into: dict[str, float]):
        self.into = into

    @contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.into[stage] = round(self.into.get(stage, 0.0) + time.perf_counter() - t0, 3)
