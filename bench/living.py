"""Living memory's speed: `add` as an agent calls it, one message at a time and a hundred at
once, and `forget` of a conversation and of a whole user, in a warm embedded store of about
`--memories` memories (LoCoMo conversations ingested as many conversations as it takes).

    python -m bench.living [--memories 10000] [--adds 50] [--out FILE.json]

The baseline, in the same process: embedding the same one message alone, the least any
memory that embeds what it stores must do per message. Data: ../shared/data/locomo/locomo10_v2
(evaluation data, never shipped)."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from graphmem import Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer
from graphmem.ingest import read_transcript

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo10_v2"
USER = "bench-living"
SAYINGS = ["I moved to Berlin in June and started at a new job.", "My sister Ana visits me every other weekend.",
           "We booked a table at the Greek place on Friday.", "The dentist appointment moved to Tuesday at nine.",
           "I finished the first draft of the grant proposal today.", "Our cat Miso hates the new vacuum cleaner."]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def run(memories: int, adds: int, out: Path | None) -> dict:
    files = sorted(LOCOMO.glob("*.json"))
    if not files:
        raise SystemExit(f"no LoCoMo conversations in {LOCOMO}")
    turns = [(f.stem, read_transcript(f)) for f in files]
    figures: dict = {"memories_wanted": memories}
    with tempfile.TemporaryDirectory(prefix="graphmem-bench-living-") as home:
        with Memory(settings=Settings(home=Path(home), server_idle_stop=0)) as mem:
            embedder = mem.models.embedder()
            mem.models.nlp()
            started, copy, stored = time.perf_counter(), 0, 0
            while stored < memories:
                for name, conversation in turns:
                    if stored >= memories:
                        break
                    take = conversation[:memories - stored]
                    stored += mem.ingest(take, user=USER, conversation=f"{name}-copy{copy}").memories_added
                    print(f"  store: {stored} memories ({time.perf_counter() - started:.0f} s)", flush=True)
                copy += 1
            figures["memories"] = stored
            figures["build_s"] = round(time.perf_counter() - started, 1)

            # one message per call, as an agent adds what was just said
            for warm in range(3):
                mem.add(f"warming up {warm}", user=USER, conversation="warm-up")
            one, floor = [], []
            for i in range(adds):
                text = f"{SAYINGS[i % len(SAYINGS)]} (note {i})"
                t0 = time.perf_counter()
                mem.add([{"role": "user", "content": text}], user=USER, conversation="agent")
                one.append((time.perf_counter() - t0) * 1000)
                t0 = time.perf_counter()
                embedder.embed([f"user: {text}"])
                floor.append((time.perf_counter() - t0) * 1000)
            figures["add_one_ms"] = {"p50": round(statistics.median(one), 1), "p95": round(_percentile(one, 0.95), 1)}
            figures["embed_one_ms"] = {"p50": round(statistics.median(floor), 1),
                                       "p95": round(_percentile(floor, 0.95), 1)}
            figures["add_one_over_embed_one_p50"] = round(statistics.median(one) / statistics.median(floor), 1)

            # a hundred messages in one call
            batch = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"{SAYINGS[i % len(SAYINGS)]} (batch {i})"}
                     for i in range(100)]
            t0 = time.perf_counter()
            mem.add(batch, user=USER, conversation="agent-batch")
            seconds = time.perf_counter() - t0
            figures["add_100_messages_per_s"] = round(100 / seconds, 1)

            # forget one conversation of 500 messages
            name, conversation = turns[0]
            mem.ingest(conversation[:500], user=USER, conversation="to-forget")
            t0 = time.perf_counter()
            done = mem.forget(USER, conversation="to-forget")
            figures["forget_conversation"] = {"memories": done.memories, "s": round(time.perf_counter() - t0, 2)}
            problems = mem.complex(USER).verify()
            figures["verify_problems_after_forget"] = len(problems)

            # forget the whole user
            total = mem.users()
            t0 = time.perf_counter()
            done = mem.forget(USER, everything=True)
            figures["forget_user"] = {"memories": done.memories, "nodes": done.nodes,
                                      "s": round(time.perf_counter() - t0, 2)}
            figures["users_before"] = total
        EmbeddedServer(Path(home)).stop()
    print(json.dumps(figures, indent=1))
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(figures, indent=1))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.living", description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--adds", type=int, default=50, help="single-message adds timed")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    run(args.memories, args.adds, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
