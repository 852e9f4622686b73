"""Serving speed: recall and remember through `graphmem mcp` against the same calls in process.

    python -m bench.serving [--questions 60] [--messages 40] [--transport stdio|http|both] [--out FILE.json]
    python -m bench.serving --growth 200     # one message at a time into one growing session

One embedded store holds a LoCoMo conversation (../shared/data/locomo/locomo10_v2, evaluation
data, never shipped) twice, under two users. The baseline is a `Memory` in this process on one
user; the server is `graphmem mcp` in a subprocess on the same store, driven by the official MCP
client, on the other (two processes writing one user would each read the entity catalogue the
other changed before every write, which no single server does). Both are warm (models
loaded, a few calls made first). Each question is asked of both, in alternating order, so the
machine's load falls on both alike; each remember adds one new message (a sentence never said
before, so it is really written) to a conversation of its own; then each side remembers as many
again alone, one call after another, as a server does with nothing else at work between its
calls. Reported: p50 and p95 of each and the difference, per transport."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

from graphmem import Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer
from graphmem.ingest import read_transcript

from .locomo import load_questions
from .measure import write_figures

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo10_v2"
USER = "bench-serving"  # the server's
LOCAL = "bench-serving-local"  # the baseline's
GRAPHMEM = [sys.executable, "-c", "from graphmem.cli import main; main()"]
SUBJECTS = ["my sister", "our neighbour", "the new manager", "my old friend from school", "the dog walker"]
PLACES = ["Lisbon", "Porto", "Valencia", "Munich", "Utrecht", "Gdansk", "Turku", "Bergen"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def summary(ms: list[float]) -> dict:
    return {"n": len(ms), "p50": round(statistics.median(ms), 1), "p95": round(percentile(ms, 0.95), 1)}


def message(i: int, side: str) -> str:
    return (f"Yesterday {SUBJECTS[i % len(SUBJECTS)]} told me about a trip to {PLACES[i % len(PLACES)]} "
            f"number {i} for the {side}, with a long walk by the river.")


async def timed(fn: Callable[[], Awaitable[Any]]) -> float:
    t = time.perf_counter()
    await fn()
    return (time.perf_counter() - t) * 1000


async def measure(client: Any, mem: Memory, questions: list[str], messages: int, transport: str) -> dict:
    async def tool(name: str, arguments: dict) -> None:
        result = await client.call_tool(name, arguments)
        if result.is_error:
            raise SystemExit(f"{name}: {result.content[0].text}")

    def in_process(fn: Callable[[], Any]) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            fn()
        return run

    for q in questions[:5]:  # warm both: models, caches, connections
        await tool("recall", {"question": q, "user": USER})
        mem.recall(q, user=LOCAL)
    await tool("remember", {"messages": message(-1, f"{transport} server"), "user": USER, "conversation": "warm-served"})
    mem.add([("user", message(-1, f"{transport} baseline"))], user=LOCAL, conversation="warm-local")

    times: dict[str, list[float]] = {"recall_mcp": [], "recall_in_process": [], "remember_mcp": [],
                                     "remember_in_process": []}
    for i, q in enumerate(questions):
        pair = [("recall_mcp", lambda q=q: tool("recall", {"question": q, "user": USER})),
                ("recall_in_process", in_process(lambda q=q: mem.recall(q, user=LOCAL)))]
        for name, fn in (pair if i % 2 == 0 else pair[::-1]):
            times[name].append(await timed(fn))
    for i in range(messages):
        pair = [("remember_mcp", lambda i=i: tool("remember", {"messages": message(i, f"{transport} server"), "user": USER,
                                                               "conversation": "served"})),
                ("remember_in_process", in_process(lambda i=i: mem.add([("user", message(i, f"{transport} baseline"))], user=LOCAL,
                                                                       conversation="local")))]
        for name, fn in (pair if i % 2 == 0 else pair[::-1]):
            times[name].append(await timed(fn))
    # as a server runs: one process at work, no other's models and data between its calls
    # (alternating makes each side's next call find its caches cold)
    times["remember_mcp_alone"] = [await timed(lambda i=i: tool("remember", {
        "messages": message(i, f"{transport} server alone"), "user": USER, "conversation": "served"}))
        for i in range(messages)]
    times["remember_in_process_alone"] = [await timed(in_process(lambda i=i: mem.add(
        [("user", message(i, f"{transport} baseline alone"))], user=LOCAL, conversation="local")))
        for i in range(messages)]
    figures = {name: summary(ms) for name, ms in times.items()}
    for what in ("recall", "remember"):
        figures[f"{what}_difference_ms"] = {
            p: round(figures[f"{what}_mcp"][p] - figures[f"{what}_in_process"][p], 1) for p in ("p50", "p95")}
    return figures


async def over(transport: str, home: Path, mem: Memory, questions: list[str], messages: int) -> dict:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    env = {**{k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}, "GRAPHMEM_HOME": str(home),
           "GRAPHMEM_SERVER_IDLE_STOP": "0"}
    if transport == "stdio":
        params = StdioServerParameters(command=GRAPHMEM[0], args=[*GRAPHMEM[1:], "mcp"], env=env)
        async with Client(params, read_timeout_seconds=300) as client:
            return await measure(client, mem, questions, messages, transport)
    process = subprocess.Popen([*GRAPHMEM, "mcp", "--transport", "http", "--port", "8765"], env=env,
                               stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        line = ""
        while "serving MCP at" not in line:
            line = process.stderr.readline()
            if not line and process.poll() is not None:
                raise SystemExit("graphmem mcp --transport http did not start")
        async with Client(line.rsplit(" ", 1)[-1].strip(), read_timeout_seconds=300) as client:
            return await measure(client, mem, questions, messages, transport)
    finally:
        process.terminate()
        process.wait(timeout=30)


def run(questions: int, messages: int, transports: list[str], out: Path | None) -> dict:
    files = sorted(LOCOMO.glob("*.json"))[:1]
    if not files:
        raise SystemExit(f"no LoCoMo conversations in {LOCOMO}")
    asked = [q.question for q in load_questions(files[0])][:questions]
    figures: dict = {"conversation": files[0].stem, "questions": len(asked), "messages": messages}
    with tempfile.TemporaryDirectory(prefix="graphmem-bench-serving-") as tmp:
        home = Path(tmp)
        with Memory(settings=Settings(home=home, server_idle_stop=0)) as mem:
            for user in (USER, LOCAL):
                mem.ingest(list(read_transcript(files[0], format="locomo")), user=user, conversation=files[0].stem)
            figures["memories"] = len(mem.memories(USER, limit=None))
            print(f"  {figures['memories']} memories of {files[0].stem}", flush=True)
            for transport in transports:
                figures[transport] = asyncio.run(over(transport, home, mem, asked, messages))
                print(f"  {transport}: {json.dumps(figures[transport])}", flush=True)
        EmbeddedServer(home).stop()  # server_idle_stop=0: it would outlive its directory
    return write_figures(figures, out)


def growth(messages: int, out: Path | None) -> dict:
    """`Memory.add` of one message at a time into one session of an empty store: p50 per 50
    messages, and the passes that derive what the adds left waiting (every DEFERRED_MAX
    messages: the session's simplex, which reads the whole session, and the abstracts)."""
    from datetime import datetime, timezone

    at = datetime(2024, 3, 1, 10, tzinfo=timezone.utc)  # one session: every message on one day
    figures: dict = {"messages": messages, "per_50": []}
    with tempfile.TemporaryDirectory(prefix="graphmem-bench-growth-") as tmp:
        with Memory(settings=Settings(home=Path(tmp), server_idle_stop=0)) as mem:
            mem.add([("user", "warm up")], user=LOCAL, conversation="growth", at=at)
            rows: list[tuple[float, float]] = []
            for i in range(messages):
                t = time.perf_counter()
                added = mem.add([("user", message(i, "growth"))], user=LOCAL, conversation="growth", at=at)
                rows.append(((time.perf_counter() - t) * 1000, added.stages.get("consolidation", 0.0) * 1000))
                if len(rows) == 50 or i == messages - 1:
                    passes = [round(r[1]) for r in rows if r[1] > 1]
                    figures["per_50"].append({"from": i + 1 - len(rows), "add_p50": round(statistics.median(r[0] for r in rows), 1),
                                              "deferred_passes_ms": passes})
                    print(f"  {figures['per_50'][-1]}", flush=True)
                    rows = []
        EmbeddedServer(Path(tmp)).stop()
    return write_figures(figures, out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.serving", description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=60, help="LoCoMo questions asked of each side")
    parser.add_argument("--messages", type=int, default=40, help="single messages remembered by each side")
    parser.add_argument("--transport", choices=["stdio", "http", "both"], default="both")
    parser.add_argument("--out", type=Path, default=None, help="also write the figures here (JSON)")
    parser.add_argument("--growth", type=int, default=0, metavar="N",
                        help="instead: add N messages one at a time into one session of an empty store, "
                             "p50 per 50 (no server, no LoCoMo data)")
    args = parser.parse_args(argv)
    if args.growth:
        growth(args.growth, args.out)
        return 0
    transports = ["stdio", "http"] if args.transport == "both" else [args.transport]
    run(args.questions, args.messages, transports, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
