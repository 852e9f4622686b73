"""The lifecycle's cost: recall with and without access counting, in one process on one store,
and the maintenance pass over that store.

    python -m bench.lifecycle [--conversations 3] [--rounds 2] [--out FILE.json]

Two handles on one embedded store, one counting accesses (the default) and one not
(`count_accesses=False`), answer the LoCoMo questions of the conversations ingested, each
question by both, in alternating order, so the machine's load falls on both alike. The counting
handle's flushes run as they do in use (a background write every `access_flush_size` memories
or `access_flush_seconds`), so their cost is inside its figures. Reported: each handle's recall
p50 and p95, their difference, the append recall pays (`note_recalled`, alone), the flushes
written, a bootstrap interval of the p95 difference (how much of it is noise), and
`maintain` over the store (a dry run, a pass, and a second pass that moves
nothing). Data: ../shared/data/locomo/locomo10_v2 (evaluation data, never shipped)."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable

from graphmem import Memory, Settings, lifecycle
from graphmem.drivers.embedded import EmbeddedServer
from graphmem.ingest import read_transcript

from .locomo import load_questions
from .measure import write_figures

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo10_v2"
USER = "bench-lifecycle"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _summary(ms: list[float]) -> dict:
    return {"n": len(ms), "p50": round(statistics.median(ms), 2), "p95": round(_percentile(ms, 0.95), 2)}


def noted(figures: dict, key: str, ms: list[float], what: str) -> None:
    """`ms` summarised into `figures[key]`, and a line of progress that names it `what`."""
    figures[key] = _summary(ms)
    print(f"  {what}: {figures[key]}", flush=True)


def _p95_difference_interval(counting: list[float], plain: list[float], draws: int = 2000) -> list[float]:
    """How far the p95 difference moves with the sample: a bootstrap over the question pairs
    (each pair asked of both handles back to back), its 5th and 95th percentiles."""
    rng = random.Random(20261124)
    n = len(counting)
    diffs = []
    for _ in range(draws):
        picks = [rng.randrange(n) for _ in range(n)]
        diffs.append(_percentile([counting[i] for i in picks], 0.95) - _percentile([plain[i] for i in picks], 0.95))
    return [round(_percentile(diffs, 0.05), 2), round(_percentile(diffs, 0.95), 2)]


def run(conversations: int, rounds: int, out: Path | None) -> dict:
    files = sorted(LOCOMO.glob("*.json"))[:conversations]
    if not files:
        raise SystemExit(f"no LoCoMo conversations in {LOCOMO}")
    questions = [q.question for f in files for q in load_questions(f)]
    figures: dict = {"conversations": len(files), "questions": len(questions), "rounds": rounds}
    with tempfile.TemporaryDirectory(prefix="graphmem-bench-lifecycle-") as home:
        base = Settings(home=Path(home), server_idle_stop=0)
        with Memory(settings=base) as counted, \
                Memory(settings=Settings(home=Path(home), server_idle_stop=0, count_accesses=False)) as plain:
            t0 = time.perf_counter()
            for f in files:
                counted.ingest(list(read_transcript(f, format="locomo")), user=USER, conversation=f.stem)
            figures["memories"] = len(counted.memories(USER, limit=None))
            figures["ingest_s"] = round(time.perf_counter() - t0, 1)
            print(f"  {figures['memories']} memories in {figures['ingest_s']} s", flush=True)
            flushes = [0]
            counted.driver.tracer = lambda query, params: flushes.__setitem__(0, flushes[0] + ("$flush" in query))
            for mem in (counted, plain):  # models loaded, caches warm
                for q in questions[:5]:
                    mem.recall(q, user=USER)
            lifecycle.flush_accesses(counted.store)
            flushes[0] = 0
            times: dict[str, list[float]] = {"counting": [], "not_counting": []}
            for r in range(rounds):
                for i, q in enumerate(questions):
                    pair = [("counting", counted), ("not_counting", plain)]
                    for name, mem in (pair if (i + r) % 2 == 0 else pair[::-1]):
                        t = time.perf_counter()
                        mem.recall(q, user=USER)
                        times[name].append((time.perf_counter() - t) * 1000)
                print(f"  round {r + 1}: {len(times['counting'])} recalls each", flush=True)
            t = time.perf_counter()
            lifecycle.flush_accesses(counted.store)
            figures["last_flush_ms"] = round((time.perf_counter() - t) * 1000, 2)
            figures["flushes"] = flushes[0]
            counted.driver.tracer = None
            for name, ms in times.items():
                figures[f"recall_{name}_ms"] = _summary(ms)
            figures["difference_ms"] = {p: round(figures["recall_counting_ms"][p] - figures["recall_not_counting_ms"][p], 2)
                                        for p in ("p50", "p95")}
            figures["p95_difference_90pct_interval_ms"] = _p95_difference_interval(times["counting"], times["not_counting"])

            # the append alone, as recall makes it (ten memories)
            uids = [m.id for m in counted.memories(USER, limit=10)]
            appends = []
            for _ in range(2000):
                t = time.perf_counter()
                lifecycle.note_recalled(counted.store, USER, uids)
                appends.append((time.perf_counter() - t) * 1e6)
            lifecycle.flush_accesses(counted.store)
            figures["append_us"] = {"p50": round(statistics.median(appends), 1), "p95": round(_percentile(appends, 0.95), 1)}

            accessed = [m for m in counted.memories(USER, limit=None) if m.accesses]
            figures["memories_accessed"] = len(accessed)
            later = datetime.now(timezone.utc) + timedelta(days=30)
            for label, dry in (("maintain_dry_run", True), ("maintain", False), ("maintain_again", False)):
                t = time.perf_counter()
                done = counted.maintain(USER, now=later, dry_run=dry)
                figures[f"{label}_s"] = round(time.perf_counter() - t, 2)
                figures[f"{label}_moved"] = done.moved
            figures["states_after"] = done.states
        EmbeddedServer(Path(home)).stop()  # server_idle_stop=0: it would outlive its directory
    return write_figures(figures, out)


def command(run: Callable[[int, int, Path | None], dict], module: str, doc: str, conversations: int,
            rounds: tuple[int, str], argv: list[str] | None) -> int:
    """The command line of a benchmark over LoCoMo conversations ingested into one store:
    `run(conversations, rounds, out)`; `rounds` is (default, what a round is)."""
    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=doc.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=conversations,
                        help=f"LoCoMo conversations to ingest (default {conversations})")
    parser.add_argument("--rounds", type=int, default=rounds[0], help=f"{rounds[1]} (default {rounds[0]})")
    parser.add_argument("--out", type=Path, help="write the figures here as JSON")
    args = parser.parse_args(argv)
    run(args.conversations, args.rounds, args.out)
    return 0


def main(argv: list[str] | None = None) -> int:
    return command(run, "bench.lifecycle", __doc__, 3, (2, "times each question is asked"), argv)


if __name__ == "__main__":
    sys.exit(main())
