"""Standing instructions: what a user told their agent to do from now on ("Always include
version numbers when I ask about libraries", "Never use emojis"; graphmem/ingest/extract.py
finds them). Such a memory shares few words with the questions it governs ("Which libraries
does my project use?"), so the channels rank it low, yet it applies to every question on its
topic. Recall puts the instruction nearest the question first, when it is at least
STANDING_COSINE near: the agent that reads the memories then follows it."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..store import Store
from .tuning import STANDING_COSINE, STANDING_READ


def instructions(store: Store, user: str, include_archived: bool = False) -> list[tuple[str, np.ndarray]]:
    """The user's standing instructions, newest first, with their unit vectors."""
    out = []
    for row in store.run("recall_standing", user_id=user, include_archived=include_archived, limit=STANDING_READ):
        vector = np.asarray(row["embedding"], dtype=np.float32)
        norm = float(np.linalg.norm(vector))
        if norm > 0:
            out.append((row["uid"], vector / norm))
    return out


def applying(standing: Sequence[tuple[str, np.ndarray]], question: Sequence[float]) -> str | None:
    """The instruction nearest the question, if it is at least STANDING_COSINE near (the newest
    of equally near ones)."""
    if not standing:
        return None
    q = np.asarray(question, dtype=np.float32)
    q = q / (float(np.linalg.norm(q)) or 1.0)
    cosines = np.stack([v for _, v in standing]) @ q
    best = int(np.argmax(cosines))
    return standing[best][0] if float(cosines[best]) >= STANDING_COSINE else None


def first(ranked: list[tuple[str, float]], uid: str | None) -> list[tuple[str, float]]:
    """`ranked` with `uid` first (moved there, or brought in), its score the best's."""
    if uid is None:
        return ranked
    rest = [(u, s) for u, s in ranked if u != uid]
    return [(uid, max([s for _, s in ranked] or [0.0]))] + rest
