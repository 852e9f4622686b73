"""What counting an entity's mentions costs when the entity holds a vector: the statement ingest
and `add` run for every batch (`count_mentions.cypher`) on a user's entities as graphmem stores
them (name vector on the node) and on a copy of them without the vector.

    python -m bench.entity_counts [--conversations 2] [--rounds 200] [--out FILE.json]

FalkorDB re-inserts a node's vector and full-text entries whenever any property of it is set
(FalkorDB#2657), under the graph's write lock; an entity's counters (frequency, first and last
seen) sit on the node that holds its name vector. One embedded store: LoCoMo conversations
ingested into one user, then that user exported and imported under a second, whose entities lose
their vector. Each round counts one mention of 8 entities drawn at random (a batch's worth), on
each user in alternating order, with the real statement. Reported: the statement's p50 and p95
each way and their ratio, and how many already-stored entities the ingest of one more
conversation counted per memory (what the difference costs ingest and `add`). Data:
../shared/data/locomo/locomo10_v2 (evaluation data, never shipped)."""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Mapping

from graphmem import Memory, Settings, queries
from graphmem.drivers.embedded import EmbeddedServer
from graphmem.ingest import read_transcript

from .lifecycle import LOCOMO, command, noted
from .measure import write_figures

WITH, WITHOUT = "bench-entity-counts", "bench-entity-counts-novector"
DRAWN = 8  # entities a round counts


def _counted_per_memory(mem: Memory, file: Path) -> dict:
    """Ingest `file` into WITH, noting the rows of each `count_mentions` that name an entity the
    store held before the batch, with its vector (the rows whose set re-inserts one)."""
    before = {r["vid"] for r in mem.driver.run("MATCH (e:Entity {user_id: $u}) WHERE e.embedding IS NOT NULL "
                                               "RETURN e.vid AS vid", {"u": WITH})}
    seen = {"rows": 0, "stored": 0}
    counting = queries.load("count_mentions", mem.driver.dialect).text

    def trace(query: str, params: Mapping[str, Any]) -> None:
        if query == counting:
            seen["rows"] += len(params["entities"])
            seen["stored"] += sum(row["vid"] in before for row in params["entities"])
            before.update(row["vid"] for row in params["entities"])  # their vectors come with their batch

    mem.driver.tracer = trace
    try:
        turns = list(read_transcript(file, format="locomo"))
        mem.ingest(turns, user=WITH, conversation=file.stem)
    finally:
        mem.driver.tracer = None
    return {"memories": len(turns), "entity rows": seen["rows"], "stored entity rows": seen["stored"],
            "stored entity rows per memory": round(seen["stored"] / max(len(turns), 1), 2)}


def run(conversations: int, rounds: int, out: Path | None) -> dict:
    files = sorted(LOCOMO.glob("*.json"))[:conversations]
    if len(files) < 2:
        raise SystemExit(f"need at least 2 LoCoMo conversations in {LOCOMO}")
    figures: dict = {"conversations": len(files), "rounds": rounds, "drawn": DRAWN}
    rng = random.Random(20261126)
    with tempfile.TemporaryDirectory(prefix="graphmem-bench-entity-counts-") as home:
        with Memory(settings=Settings(home=Path(home), server_idle_stop=0, count_accesses=False)) as mem:
            for f in files[:-1]:
                mem.ingest(list(read_transcript(f, format="locomo")), user=WITH, conversation=f.stem)
            figures["ingest of the last conversation"] = _counted_per_memory(mem, files[-1])
            print(f"  ingest of {files[-1].name}: {figures['ingest of the last conversation']}", flush=True)
            copy = Path(home) / "copy.jsonl"
            mem.export(WITH, copy)
            mem.import_(copy, user=WITHOUT)
            mem.driver.run("MATCH (e:Entity {user_id: $u}) SET e.embedding = null", {"u": WITHOUT})
            entities = {user: {r["vid"]: r["aliases"] for r in mem.driver.run(
                "MATCH (e:Entity {user_id: $u}) RETURN e.vid AS vid, e.aliases AS aliases", {"u": user})}
                for user in (WITH, WITHOUT)}
            figures["entities"] = len(entities[WITH])
            vids = sorted(set(entities[WITH]) & set(entities[WITHOUT]))
            times: dict[str, list[float]] = {WITH: [], WITHOUT: []}
            for r in range(rounds):
                drawn = rng.sample(vids, DRAWN)
                now = time.time()
                for user in ((WITH, WITHOUT) if r % 2 == 0 else (WITHOUT, WITH)):
                    rows = [{"vid": v, "aliases": entities[user][v] or [], "mentions": 1, "first": now, "last": now}
                            for v in drawn]
                    t = time.perf_counter()
                    mem.store.run("count_mentions", user_id=user, entities=rows)
                    times[user].append((time.perf_counter() - t) * 1000)
            for user, way in ((WITH, "with vectors"), (WITHOUT, "without vectors")):
                noted(figures, f"count_mentions ms {way}", times[user], f"count_mentions of {DRAWN} entities {way}")
            figures["p50 ratio"] = round(statistics.median(times[WITH]) / statistics.median(times[WITHOUT]), 1)
            print(f"  p50 ratio: {figures['p50 ratio']}", flush=True)
        EmbeddedServer(Path(home)).stop()  # server_idle_stop=0: it would outlive its directory
    return write_figures(figures, out)


def main(argv: list[str] | None = None) -> int:
    return command(run, "bench.entity_counts", __doc__, 2, (200, "counts of 8 entities each way"), argv)


if __name__ == "__main__":
    sys.exit(main())
