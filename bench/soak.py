"""Long-life soak: BEAM conversations (long technical user-assistant chats) ingested one after
another into one embedded store, a question recalled between chunks, long tokens mixed in, the
server killed at random moments, AOF rewrites happening; then the final graph compared with a
clean run's, every user verified, and client and server memory sampled as it went.

    python -m bench.soak [--conversations N] [--rounds R] [--kills K] [--gap S] [--chunk M] [--out FILE.json]

`--rounds 2` ingests the conversations a second time as other users (the 20 conversations hold
5,732 messages; two rounds pass 10^4). Users are isolated, so each later round's graph is
compared with the clean run of the same conversation in round one.

Data: ../shared/data/beam/100K (evaluation data, never shipped). Prints the figures; writes them
(and a PNG of memory over time beside the JSON)."""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from graphmem import Memory, Settings, Turn
from graphmem.drivers.embedded import EmbeddedServer

BEAM = Path(__file__).resolve().parents[2] / "shared" / "data" / "beam" / "100K"
MARKER = re.compile(r"\s*->->.*\Z", re.DOTALL)
LONG_TOKEN_EVERY = 40  # one message in this many carries a 5,000-character token


def beam_turns(folder: Path) -> list[Turn]:
    """A BEAM chat as turns: one session per batch, dated by its first message's time anchor."""
    turns = []
    for batch in json.loads((folder / "chat.json").read_text()):
        messages = [m for turn in batch["turns"] for m in turn]
        anchor = next((m.get("time_anchor") for m in messages if m.get("time_anchor")), None)
        date = datetime.strptime(anchor, "%B-%d-%Y").replace(tzinfo=timezone.utc) if anchor else None
        for m in messages:
            text = MARKER.sub("", m["content"] or "").strip()
            if m["id"] % LONG_TOKEN_EVERY == 7:
                text += " " + "x" * 5000  # a pasted blob: one token far over any key limit
            if text:
                turns.append(Turn(source_id=str(m["id"]), speaker=m["role"], text=text,
                                  session=str(batch["batch_number"]), session_date=date, line=m["id"] + 1,
                                  index=len(turns)))
    return turns


def rss_mb(pid: int | str | None) -> float | None:
    """Resident memory of a process ("self": this one); None when there is none (a killed server)."""
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def snapshot(mem: Memory, user: str) -> dict:
    q, u = mem.driver.run, {"u": user}
    return {
        "stats": {k: v for k, v in mem.complex(user).stats().items() if k != "user"},
        "entities": sorted((r["n"], r["k"], r["e"]) for r in q(
            "MATCH (e:Entity {user_id: $u}) RETURN e.name AS n, e.kind AS k, e.embedding IS NOT NULL AS e", u)),
        "simplices": sorted((list(s.names), s.kind, s.count, len(s.witnesses)) for s in mem.complex(user).simplices()),
    }


def run(conversations: int, kills: int, chunk: int, out: Path | None, seed: int = 7, gap: float = 15.0,
        rounds: int = 1) -> dict:
    folders = sorted((p for p in BEAM.iterdir() if p.is_dir()), key=lambda p: int(p.name))[:conversations]
    suffixes = [""] + [f"-round{r}" for r in range(2, rounds + 1)]
    chats = {f"beam-{f.name}{x}": beam_turns(f) for x in suffixes for f in folders}
    questions = {f"beam-{f.name}{x}": [q["question"] for qs in json.loads((f / "probing_questions.json").read_text())
                                       .values() for q in qs][:5] for x in suffixes for f in folders}
    total = sum(map(len, chats.values()))
    print(f"{len(chats)} conversations, {total} messages; {kills} kills", flush=True)
    rng = random.Random(seed)
    figures: dict = {"messages": total, "conversations": len(chats), "kills_planned": kills, "samples": []}
    with tempfile.TemporaryDirectory(prefix="graphmem-soak-") as tmp:
        home, clean_home = Path(tmp) / "soak", Path(tmp) / "clean"
        # small rewrites threshold, so AOF rewrites happen during the run
        settings = Settings(home=home, server_idle_stop=0)
        server = EmbeddedServer(home)
        killed, errors, stop = [], [], threading.Event()
        started = time.monotonic()

        def killer() -> None:
            while len(killed) < kills and not stop.wait(rng.uniform(gap / 3, gap * 5 / 3)):
                pid = server.pid()
                if pid:
                    os.kill(pid, signal.SIGKILL)
                    killed.append(round(time.monotonic() - started, 1))
                    print(f"  killed the server at {killed[-1]} s", flush=True)

        def sampler() -> None:
            while not stop.wait(10):
                figures["samples"].append({"s": round(time.monotonic() - started, 1), "client_mb": rss_mb("self"),
                                           "server_mb": rss_mb(server.pid())})
                if len(figures["samples"]) % 6 == 0:
                    print(f"  memory at {figures['samples'][-1]['s']:.0f} s: client {figures['samples'][-1]['client_mb']:.0f} MB, "
                          f"server {figures['samples'][-1]['server_mb'] or 0:.0f} MB", flush=True)

        with Memory(settings=settings) as mem:
            mem.models.embedder(), mem.models.nlp()
            threads = [threading.Thread(target=killer, daemon=True), threading.Thread(target=sampler, daemon=True)]
            for t in threads:
                t.start()
            done = 0
            for user, turns in chats.items():
                for i in range(0, len(turns), chunk):
                    for _ in range(2):  # a call that failed is made again, as its caller would
                        try:
                            mem.ingest(turns[:i + chunk], user=user)  # the conversation so far, as an agent's log grows
                            mem.recall(rng.choice(questions[user]), user=user, k=10)
                            break
                        except Exception as exc:  # noqa: BLE001 (counted: the soak's point is that none reach here)
                            errors.append(f"{type(exc).__name__}: {exc}")
                            print(f"  ERROR {errors[-1]}", flush=True)
                    done = min(len(turns), i + chunk)
                    print(f"  {user}: {done}/{len(turns)} ({time.monotonic() - started:.0f} s)", flush=True)
            stop.set()
            figures["seconds"] = round(time.monotonic() - started, 1)
            got = {user: snapshot(mem, user) for user in chats}
            problems = {user: mem.complex(user).verify() for user in chats}
        server.stop()
        print("clean run ...", flush=True)
        with Memory(settings=Settings(home=clean_home, server_idle_stop=0)) as clean:
            for user, turns in list(chats.items())[:len(folders)]:  # the same calls, without kills
                for i in range(0, len(turns), chunk):
                    clean.ingest(turns[:i + chunk], user=user)
            want = {user: snapshot(clean, user.split("-round")[0]) for user in chats}
        EmbeddedServer(clean_home).stop()
    figures.update(kills=len(killed), killed_at=killed, errors=errors,
                   equal_to_clean={u: got[u] == want[u] for u in chats},
                   differences={u: [k for k in want[u] if got[u][k] != want[u][k]] for u in chats},
                   verify_problems={u: len(p) for u, p in problems.items()})
    samples = figures["samples"]
    if samples:
        for who in ("client_mb", "server_mb"):
            seen = [s[who] for s in samples if s[who] is not None]
            figures[f"{who}_first_last_max"] = [seen[0], seen[-1], max(seen)] if seen else None
    print(json.dumps({k: v for k, v in figures.items() if k != "samples"}, indent=1))
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(figures, indent=1))
        _plot(samples, out.with_suffix(".png"))
    return figures


def _plot(samples: list[dict], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot([s["s"] for s in samples], [s["client_mb"] for s in samples], label="client (graphmem, models)")
    ax.plot([s["s"] for s in samples], [s["server_mb"] or 0 for s in samples], label="embedded server")
    ax.set_xlabel("seconds"), ax.set_ylabel("RSS, MB"), ax.legend(), ax.set_title("soak: memory over time")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=1, help="times the conversations are ingested, as other users")
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--chunk", type=int, default=100, help="messages added between recalls")
    parser.add_argument("--gap", type=float, default=15.0, help="mean seconds between kills")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    figures = run(args.conversations, args.kills, args.chunk, args.out, gap=args.gap, rounds=args.rounds)
    ok = not figures["errors"] and all(figures["equal_to_clean"].values()) and not any(figures["verify_problems"].values())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
