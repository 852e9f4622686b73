"""What writing recall's access counts costs, and what it costs a recall running beside it: the
counts kept on the memory (as graphmem wrote them until 2026-11-26) against the counts kept on the
memory's (:Memory)-[:RECALLED_FOR]->(:User) relationship (record_accesses.cypher).

    python -m bench.access_writes [--conversations 1] [--rounds 5] [--out FILE.json]

FalkorDB re-inserts a node's vector and full-text entries whenever any property of it is set
(FalkorDB#2657), under the graph's write lock. One embedded store, LoCoMo conversations ingested
into one user; each round counts 1,024 memories (or all, when fewer) in statements of
`lifecycle.ACCESS_CHUNK`, both ways, in alternating order. Then recall is timed three ways: alone,
and while a thread writes counts without pause, each way. Reported: the medians of a flush and of
one statement, their ratio, and recall's p50 and p95 in each case. Data:
../shared/data/locomo/locomo10_v2 (evaluation data, never shipped)."""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from graphmem import Memory, Settings, lifecycle
from graphmem.drivers.embedded import EmbeddedServer
from graphmem.ingest import read_transcript

from .lifecycle import LOCOMO, command, noted
from .locomo import load_questions
from .measure import write_figures

USER = "bench-access-writes"
FLUSH = 1024  # memories a flush counts (Settings.access_flush_size's default)
# The statement graphmem counted accesses with before they moved to RECALLED_FOR: on the memory.
ON_THE_MEMORY = """UNWIND $accesses AS row
MATCH (m:Memory {user_id: $user_id, uid: row.uid})
WHERE m.access_flush IS NULL OR m.access_flush <> $flush
SET m.accesses = coalesce(m.accesses, 0) + row.n,
    m.last_accessed = CASE WHEN m.last_accessed IS NULL OR m.last_accessed < row.at THEN row.at
                           ELSE m.last_accessed END,
    m.access_flush = $flush
RETURN count(m) AS counted"""


def _flush(mem: Memory, way: str, uids: list[str]) -> list[float]:
    """Count one access of each memory, in statements of ACCESS_CHUNK; each statement's seconds."""
    seconds = []
    for i in range(0, len(uids), lifecycle.ACCESS_CHUNK):
        rows = [{"uid": uid, "n": 1, "at": time.time()} for uid in uids[i:i + lifecycle.ACCESS_CHUNK]]
        params = {"user_id": USER, "flush": uuid.uuid4().hex, "accesses": rows}
        t = time.perf_counter()
        if way == "on the memory":
            mem.driver.run(ON_THE_MEMORY, params)
        else:
            mem.store.run("record_accesses", **params)
        seconds.append(time.perf_counter() - t)
    return seconds


def run(conversations: int, rounds: int, out: Path | None) -> dict:
    files = sorted(LOCOMO.glob("*.json"))[:conversations]
    if not files:
        raise SystemExit(f"no LoCoMo conversations in {LOCOMO}")
    questions = [q.question for f in files for q in load_questions(f)]
    ways = ("on the memory", "on RECALLED_FOR")
    figures: dict = {"conversations": len(files), "rounds": rounds, "chunk": lifecycle.ACCESS_CHUNK}
    rng = random.Random(20261126)
    with tempfile.TemporaryDirectory(prefix="graphmem-bench-access-writes-") as home:
        with Memory(settings=Settings(home=Path(home), server_idle_stop=0, count_accesses=False)) as mem:
            for f in files:
                mem.ingest(list(read_transcript(f, format="locomo")), user=USER, conversation=f.stem)
            uids = [m.id for m in mem.memories(USER, limit=None)]
            figures["memories"] = len(uids)
            print(f"  {len(uids)} memories", flush=True)
            flushes: dict[str, list[float]] = {way: [] for way in ways}
            statements: dict[str, list[float]] = {way: [] for way in ways}
            for r in range(rounds):
                for way in (ways if r % 2 == 0 else ways[::-1]):
                    chosen = rng.sample(uids, min(FLUSH, len(uids)))
                    seconds = _flush(mem, way, chosen)
                    flushes[way].append(sum(seconds))
                    statements[way] += seconds
                print(f"  round {r + 1}: " + ", ".join(f"{way} {flushes[way][-1] * 1000:.0f} ms" for way in ways),
                      flush=True)
            for way in ways:
                figures[f"flush_ms {way}"] = round(statistics.median(flushes[way]) * 1000, 1)
                figures[f"statement_ms {way}"] = round(statistics.median(statements[way]) * 1000, 2)
            figures["flush ratio"] = round(figures["flush_ms on the memory"] / figures["flush_ms on RECALLED_FOR"], 1)

            for q in questions[:5]:  # models loaded, caches warm
                mem.recall(q, user=USER)
            for beside in ("nothing", *ways):
                stop = threading.Event()

                def write(way: str = beside) -> None:
                    while not stop.is_set():
                        _flush(mem, way, rng.sample(uids, min(FLUSH, len(uids))))

                writer = threading.Thread(target=write, daemon=True) if beside != "nothing" else None
                if writer:
                    writer.start()
                ms = []
                for q in questions:
                    t = time.perf_counter()
                    mem.recall(q, user=USER)
                    ms.append((time.perf_counter() - t) * 1000)
                stop.set()
                if writer:
                    writer.join()
                noted(figures, f"recall_ms beside {beside}", ms, f"recall beside {beside}")
        EmbeddedServer(Path(home)).stop()  # server_idle_stop=0: it would outlive its directory
    return write_figures(figures, out)


def main(argv: list[str] | None = None) -> int:
    return command(run, "bench.access_writes", __doc__, 1, (5, "flushes each way"), argv)


if __name__ == "__main__":
    sys.exit(main())
