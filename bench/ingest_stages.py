"""`Memory.ingest` of one BEAM conversation timed by its stages, at several batch sizes and
numbers of parse processes in turn, in one process on one store: what issue 18's ingest target
(30 messages a second) measures.

    python bench/ingest_stages.py ../shared/data/beam/100K/1 [--batch 128,64] [--parse -1]
                                  [--rounds 2] [--home DIR]

The models are loaded and one whole ingest of the conversation (a user of its own) per number
of parse processes warms the process first: a process's first ingest pays for loading, on a
GPU for its kernels, and with parse processes for starting them. Then each round ingests the
conversation once per batch size and number of parse processes, each time as a fresh user, so
every run writes the same memories into a store that grows alike for each. Prints each run's
wall time, messages a second and stages (`IngestSummary.stages`), then the median of each.
Settings come from the environment as usual (`GRAPHMEM_EMBEDDING_DEVICE`, ...)."""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/ingest_stages.py` from a checkout

from bench.beam import read_chat  # noqa: E402
from graphmem import Memory, Settings  # noqa: E402
from graphmem.drivers.embedded import EmbeddedServer  # noqa: E402
from graphmem.ingest.parsers import processes_for, usable_cores  # noqa: E402
from graphmem.ingest.pipeline import batch_size, frees_cores  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("conversation", type=Path, help="a BEAM conversation folder (its chat.json)")
    parser.add_argument("--batch", default="128,64",
                        help="ingest_batch sizes, in the order each round runs them (0: the default, by the device)")
    parser.add_argument("--parse", default="-1",
                        help="parse_processes values, in the order each round runs them (-1: the default, by the device)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--home", type=Path, help="embedded store (default: a fresh temporary one, removed after)")
    args = parser.parse_args()
    runs = [(int(b), int(p)) for b in args.batch.split(",") for p in args.parse.split(",")]
    turns = read_chat(args.conversation)
    home = args.home or Path(tempfile.mkdtemp(prefix="graphmem-ingest-stages-"))
    mem = Memory(settings=Settings.from_env(home=home))
    try:
        embedder = mem.models.embedder()
        mem.models.nlp()
        print(f"{len(turns)} messages; embedding on {embedder.device} in {embedder.precision}; "
              f"ingest_batch 0 is {batch_size(replace(mem, 0, -1), embedder)} here, parse_processes -1 is "
              f"{processes_for(-1, frees_cores(embedder), usable_cores())} ({usable_cores()} cores)", flush=True)
        for processes in dict.fromkeys(p for _, p in runs):
            replace(mem, runs[0][0], processes)
            t0 = time.perf_counter()
            mem.ingest(turns, user=f"warm-up-parse-{processes}")
            print(f"warm-up ingest, parse_processes {processes}: {time.perf_counter() - t0:.1f} s", flush=True)
        walls: dict[tuple[int, int], list[float]] = {run: [] for run in runs}
        stages: list[str] = []
        print(f"{'round':>5} {'batch':>5} {'parse':>5} {'wall s':>7} {'msg/s':>6}  stages, s", flush=True)
        for r in range(args.rounds):
            for size, processes in runs:
                replace(mem, size, processes)
                t0 = time.perf_counter()
                summary = mem.ingest(turns, user=f"round-{r}-batch-{size}-parse-{processes}")
                wall = time.perf_counter() - t0
                walls[size, processes].append(wall)
                stages = stages or [s for s in summary.stages if summary.stages[s] > 0]
                shown = "  ".join(f"{s} {summary.stages.get(s, 0):.2f}" for s in stages)
                print(f"{r:5d} {size:5d} {processes:5d} {wall:7.2f} {len(turns) / wall:6.1f}  {shown}", flush=True)
        for size, processes in runs:
            median = statistics.median(walls[size, processes])
            print(f"batch {size}, parse {processes}: median {median:.2f} s, {len(turns) / median:.1f} messages/s "
                  f"(runs {', '.join(f'{len(turns) / w:.1f}' for w in walls[size, processes])})")
    finally:
        mem.close()
        if args.home is None:
            EmbeddedServer(home).stop()


def replace(mem: Memory, size: int, processes: int):
    """The store's `ingest_batch` and `parse_processes`, read at each ingest (Settings is frozen:
    set in place)."""
    object.__setattr__(mem.settings, "ingest_batch", size)
    object.__setattr__(mem.settings, "parse_processes", processes)
    return mem.store


if __name__ == "__main__":
    main()
