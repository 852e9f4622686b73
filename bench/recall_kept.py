"""Recall timed on a store the recall benchmark kept, at the size it holds, without ingesting.

    python -m bench.recall_kept HOME [--questions 100] [--out FILE.json]

HOME is a store the recall benchmark kept (`BENCH_RECALL_HOME=HOME python -m bench perf --only
recall`). That benchmark measures a size in the run that grew the store to it, or after
fast-forwarding through the whole stream again (ingest skips what is stored, at about 100 turns a
second: a quarter of an hour at 10^5). This asks the benchmark's questions for the store's size
(bench.beside.questions) right away, after untimed warm-up recalls, and reports what the
benchmark reports for a size: end to end and per stage, p50 / p95 / p99 ms."""

from __future__ import annotations

import argparse
import resource
import sys
from pathlib import Path

from graphmem import Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer

from .beside import WARM, questions
from .measure import write_figures
from .recall import QUESTIONS, USER, _disk, _print_row, _server_rss, measure


def run(home: Path, count: int, out: Path | None) -> dict:
    mem = Memory(settings=Settings(home=home))
    try:
        stats = mem.complex(USER).stats()
        ready = getattr(mem.driver, "wait_for_indexes", None)
        if ready is not None:
            ready(600.0)  # a store just loaded builds its vector indexes first, on the cores recall needs
        asked = questions(stats["memories"], count)
        for q in (asked * WARM)[:WARM]:
            mem.recall(q, user=USER, k=10)  # untimed: the server's pages, the plan cache
        row = {"n": stats["memories"], **measure(mem, asked),
               "client_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
               **_server_rss(home), **_disk(home),
               "graph": {k: stats.get(k) for k in ("memories", "entities", "relations", "simplices", "trie_nodes")}}
        _print_row(row)
    finally:
        mem.close()
        EmbeddedServer(home).stop()
    return write_figures(row, out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.recall_kept", description=__doc__.split("\n\n")[0])
    parser.add_argument("home", type=Path, help="a store kept by the recall benchmark")
    parser.add_argument("--questions", type=int, default=QUESTIONS)
    parser.add_argument("--out", type=Path, help="write the figures here as JSON")
    args = parser.parse_args(argv)
    run(args.home, args.questions, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
