"""Recall with its independent statements beside each other (graphmem/threads.py) against the
same recall with every statement one after another, in one process, on one store.

    python -m bench.beside HOME [--questions 100]

HOME is a store the recall benchmark kept (`BENCH_RECALL_HOME=HOME python -m bench perf --only
recall`); the questions are the ones that benchmark asks at the store's size (when it measures
that size alone, as a run on a kept store does). Each question is asked both ways, alternating
which goes first, so that the machine's drift falls on both alike. Reported: p50, p95 and p99 of each, and whether every answer was the
same (memories, scores, gaps, subcomplex)."""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from pathlib import Path

from graphmem import Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer
from graphmem.threads import one_after_another

from .recall import QUESTIONS, SEED, USER, sources, synthetic

WARM = 40


def questions(memories: int, count: int) -> list[str]:
    """`count` of the questions of the conversations that made the store's first `memories`, drawn
    as bench.recall draws them for a size it measures first."""
    asked, seen = [], 0
    stream = synthetic(random.Random(SEED), sources())
    while seen < memories:
        turns, qs = next(stream)
        asked += qs
        seen += len(turns)
    return random.Random(SEED + 2).sample(asked, min(count, len(asked)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.beside", description=__doc__.split("\n\n")[0])
    parser.add_argument("home", type=Path, help="a store kept by the recall benchmark")
    parser.add_argument("--questions", type=int, default=QUESTIONS)
    args = parser.parse_args(argv)
    mem = Memory(settings=Settings(home=args.home))
    try:
        n = mem.complex(USER).stats()["memories"]
        ready = getattr(mem.driver, "wait_for_indexes", None)
        if ready is not None:
            ready(600.0)  # a store just loaded builds its vector indexes first, on the cores recall needs
        asked = questions(n, args.questions)
        for q in (asked * WARM)[:WARM]:
            mem.recall(q, user=USER, k=10)  # untimed: caches, the server's pages
        times: dict[str, list[float]] = {"one after another": [], "beside each other": []}
        same = 0
        for i, q in enumerate(asked):
            answers = {}
            for way in sorted(times, reverse=i % 2 == 1):
                with one_after_another() if way == "one after another" else contextlib.nullcontext():
                    t0 = time.perf_counter()
                    got = mem.recall(q, user=USER, k=10)
                    times[way].append((time.perf_counter() - t0) * 1000)
                answers[way] = ([(m.uid, m.score) for m in got.memories], [g.question for g in got.gaps],
                                [str(s) for s in got.subcomplex])
            same += len({repr(a) for a in answers.values()}) == 1
        print(f"recall k=10 at {n:,} memories, {len(asked)} questions, each asked both ways:")
        for way, ms in times.items():
            ms.sort()
            print(f"  {way:18s} p50 {statistics.median(ms):6.1f}  p95 {ms[int(len(ms) * .95)]:6.1f}  "
                  f"p99 {ms[int(len(ms) * .99)]:6.1f} ms")
        print(f"  the same answer both ways: {same} of {len(asked)}")
    finally:
        mem.close()
        EmbeddedServer(args.home).stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
