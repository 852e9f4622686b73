"""Recall latency end to end (`mem.recall(q, user=user, k=10)`, query embedding included) at 10^3,
10^4 and 10^5 memories, with the time of each stage from `Recollection.timings`.

Data: synthetic conversations re-mixed from the development LoCoMo turns (examples/chat.txt
when the LoCoMo folder is missing). Synthetic conversation i takes the turns of one source
conversation (the sources in a fresh seeded order each cycle), gives both speakers fresh
"First Last" names (in the text, captions and questions too, nicknames like "Mel" included)
and shifts every session date by 53 * i days, so entities and dates differ per conversation.
Everything is really ingested (`mem.ingest(turns, user=...)`, one call per conversation, so
each call has its two speakers), into one user that grows: the 10^3 user is measured, then
ingest goes on to 10^4, and so on, so a smaller N is a prefix of a larger one (as in the
simplices section) and no turn is ingested twice.

Questions: ~100 per size, the LoCoMo questions of the conversations ingested so far, with the
speaker names substituted the same way. Ingest runs at ~40-100 turns/s on 2 cores, so 10^5
turns would take 20-40 minutes: full mode ingests until the section budget
(BENCH_RECALL_BUDGET_S, default 780 s of ingest) is spent, measures at the N reached when it
is at least twice the last size measured, and says why the size it could not reach is
skipped. BENCH_RECALL_HOME=DIR keeps the store in DIR: a later run re-ingests the same stream,
which skips every memory already complete there (ingest is idempotent), so 10^5 can be reached
over several runs (sizes below what the store already holds are not measured again); its
ingest rate then counts the skipped turns too."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import resource
import tempfile
import time
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path

import numpy as np

from graphmem import Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer
from graphmem.errors import UnknownUser
from graphmem.ingest import Turn, read_transcript

from .ingest import EXAMPLE, LOCOMO

SIZES = {True: [1_000], False: [1_000, 10_000, 100_000]}
QUESTIONS = 100
WARM = 5  # untimed recalls before each size's timed ones
STAGES = ("analysis", "channels", "semantic", "lexical", "entity", "simplicial", "temporal", "answer", "rank",
          "structure", "gaps", "waited", "total")
# The stages one after another; the channels (each timed on its own) and the gaps overlap them.
SERIAL = ("analysis", "channels", "rank", "structure", "waited")
SEED = 20251122
USER = "bench-recall"
FIRST = ("Alice", "Bruno", "Chiara", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kavya",
         "Lukas", "Marisol", "Nikolai", "Olga", "Pedro", "Quentin", "Rania", "Soren", "Tamsin", "Ulrich",
         "Valeria", "Wendell", "Ximena", "Yusuf", "Zofia", "Anselm", "Beatriz", "Cosimo", "Daria", "Emeka",
         "Fiona", "Gideon", "Hanna", "Idris", "Jolene", "Kwame", "Leonie", "Matteo", "Nadia")
LAST = ("Abernathy", "Bergstrom", "Castellano", "Delacroix", "Eriksen", "Fontaine", "Galloway", "Hakimi",
        "Ivanova", "Jablonski", "Kowalczyk", "Lindqvist", "Moreau", "Nakamura", "Okonkwo", "Petrakis",
        "Quispe", "Rasmussen", "Szabo", "Takahashi", "Underwood", "Vasquez", "Whitfield", "Yamamoto",
        "Zielinski", "Ashworth", "Brannigan", "Cavendish", "Dunmore", "Ellsworth")


@dataclass
class Source:
    name: str
    turns: list[Turn]
    speakers: list[str]
    questions: list[str]


def sources() -> list[Source]:
    files = sorted(LOCOMO.glob("*.json")) if LOCOMO.is_dir() else []
    out = []
    for path in files:
        turns = read_transcript(path)
        questions = [qa["question"] for qa in json.loads(path.read_text()).get("qa", []) if qa.get("question")]
        out.append(Source(path.stem, turns, list(dict.fromkeys(t.speaker for t in turns)), questions))
    if out:
        return out
    turns = read_transcript(EXAMPLE)  # no LoCoMo here: the example transcript, template questions
    speakers = list(dict.fromkeys(t.speaker for t in turns))
    a, b = speakers[0], speakers[-1]
    questions = [f"What did {a} tell {b}?", f"When did {a} start a new hobby?", f"Where did {b} travel?",
                 f"What does {a} think of {b}'s family?", f"What did {b} do last week?"]
    return [Source(EXAMPLE.stem, turns, speakers, questions)]


def names(rng: random.Random):
    """Fresh, distinct "First Last" names, in a seeded order."""
    pairs = [f"{f} {l}" for f in FIRST for l in LAST]
    rng.shuffle(pairs)
    yield from pairs
    raise RuntimeError("ran out of fresh names")


def renamer(mapping: dict[str, str]):
    """Whole-word substitution of the old speaker names (and 3-letter nicknames of long names,
    "Mel" for Melanie, mapped to the fresh first name)."""
    table = dict(mapping)
    for old, new in mapping.items():
        if len(old) >= 6 and old[:3] not in table:
            table[old[:3]] = new.split()[0]
    pattern = re.compile(r"\b(" + "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True)) + r")\b")
    return lambda text: pattern.sub(lambda m: table[m.group(1)], text) if text else text


def synthetic(stream_rng: random.Random, pool: list[Source]):
    """Synthetic conversations (turns, questions), endlessly: each cycle visits every source once."""
    fresh = names(random.Random(SEED + 1))
    i = 0
    while True:
        order = list(pool)
        stream_rng.shuffle(order)
        for src in order:
            mapping = {old: next(fresh) for old in src.speakers}
            sub = renamer(mapping)
            shift = timedelta(days=53 * i)
            turns = [replace(t, speaker=mapping[t.speaker], text=sub(t.text), caption=sub(t.caption),
                             session=f"c{i}-{t.session}", source_id=f"c{i}:{t.source_id}",
                             session_date=t.session_date + shift if t.session_date else None) for t in src.turns]
            yield turns, [sub(q) for q in src.questions]
            i += 1


def _stored(mem: Memory) -> int:
    try:
        return mem.complex(USER).stats()["memories"]
    except UnknownUser:
        return 0


def _pcts(values: list[float]) -> dict:
    a = np.asarray(values, dtype=float)
    return {"p50_ms": round(float(np.percentile(a, 50)), 2), "p95_ms": round(float(np.percentile(a, 95)), 2),
            "p99_ms": round(float(np.percentile(a, 99)), 2), "mean_ms": round(float(a.mean()), 2),
            "max_ms": round(float(a.max()), 2)}


def _disk(home: Path) -> dict:
    root = EmbeddedServer(home).dir
    files = [p for p in root.rglob("*") if p.is_file()]
    aof = sum(p.stat().st_size for p in files if ".aof" in p.name or "appendonly" in str(p.relative_to(root)))
    return {"falkordb_dir_mb": round(sum(p.stat().st_size for p in files) / 1e6, 1), "aof_mb": round(aof / 1e6, 1)}


def _server_rss(home: Path) -> dict:
    pid = EmbeddedServer(home).pid()
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (OSError, TypeError):
        return {}
    kb = {k: int(v.split()[0]) for k, v in (line.split(":", 1) for line in status.splitlines())
          if k in ("VmRSS", "VmHWM")}
    return {"server_rss_mb": round(kb.get("VmRSS", 0) / 1024, 1), "server_peak_rss_mb": round(kb.get("VmHWM", 0) / 1024, 1)}


def measure(mem: Memory, questions: list[str]) -> dict:
    embedder = mem.models.embedder()
    for q in questions[:WARM]:
        mem.recall(q, user=USER, k=10)  # untimed: caches, the server's pages
    wall, stages, embed, hits = [], {s: [] for s in STAGES + ("other",)}, [], []
    for q in questions:
        t0 = time.perf_counter()
        got = mem.recall(q, user=USER, k=10)
        wall.append((time.perf_counter() - t0) * 1000)
        hits.append(len(got.memories))
        for s in STAGES:
            stages[s].append(got.timings.get(s, 0.0))
        stages["other"].append(got.timings.get("total", 0.0) - sum(got.timings.get(s, 0.0) for s in SERIAL))
    for q in questions:  # the query embedding alone (inside "analysis" above), for the split
        t0 = time.perf_counter()
        embedder.embed([q])
        embed.append((time.perf_counter() - t0) * 1000)
    return {"questions": len(questions), "end_to_end": _pcts(wall), "stages": {s: _pcts(v) for s, v in stages.items()},
            "query_embedding": _pcts(embed), "mean_memories_returned": round(float(np.mean(hits)), 2)}


def run(quick: bool, out: Path) -> dict:
    section_start = time.perf_counter()
    budget = float(os.environ.get("BENCH_RECALL_BUDGET_S", 780))
    pool = sources()
    stream = synthetic(random.Random(SEED), pool)
    rng = random.Random(SEED + 2)
    by_n, skipped = [], []
    ingested, ingest_s, calls, conversations = 0, 0.0, 0, 0
    asked: list[str] = []  # the questions of every conversation ingested so far
    pending: list[Turn] = []  # the rest of a conversation cut at a size boundary
    kept = os.environ.get("BENCH_RECALL_HOME")  # a store kept between runs: ingest resumes there
    with (contextlib.nullcontext(kept) if kept else tempfile.TemporaryDirectory(prefix="graphmem-bench-recall-")) as tmp:
        home = Path(tmp)
        mem = Memory(settings=Settings(home=home))
        embedder, _ = mem.models.embedder(), mem.models.nlp()  # loaded before any clock starts
        embedder.embed(["warm up the model"] * 8)
        already = _stored(mem)  # what a kept store holds from an earlier run
        try:
            for target in SIZES[quick]:
                out_of_time = False
                t_size = time.perf_counter()
                while ingested < target:
                    if not quick and time.perf_counter() - section_start > budget:
                        out_of_time = True
                        break
                    if not pending:
                        pending, questions = next(stream)
                        asked += questions
                        conversations += 1
                    take, pending = pending[:target - ingested], pending[target - ingested:]
                    t0 = time.perf_counter()
                    mem.ingest(take, user=USER)
                    ingest_s += time.perf_counter() - t0
                    ingested += len(take)
                    calls += 1
                    if time.perf_counter() - t_size > 60:
                        t_size = time.perf_counter()
                        print(f"  ... {ingested:,} memories ingested, {ingested / ingest_s:.0f} turns/s so far",
                              flush=True)
                rate = ingested / ingest_s
                if target < already and not out_of_time:  # fast-forwarded: the store holds more than target
                    skipped.append({"n": target, "reason": f"below the {already:,} memories the kept store held: "
                                                          "measured by an earlier run"})
                    continue
                if out_of_time:
                    need = (target - ingested) / rate
                    reason = (f"{target:,} memories not reached: ingest at {rate:.0f} turns/s (2 shared cores) "
                              f"would need ~{need / 60:.0f} more minutes for the remaining {target - ingested:,} "
                              f"turns, past the {budget:.0f} s section budget")
                    last = by_n[-1]["n"] if by_n else 0
                    if ingested >= 2 * last:
                        reason += f"; measured at the {ingested:,} reached instead"
                    skipped.append({"n": target, "reason": reason})
                    print(f"  skipped {target:,}: {reason}", flush=True)
                    if ingested < 2 * last:
                        break
                qs = rng.sample(asked, min(QUESTIONS, len(asked)))
                row = {"n": ingested, "target": target, "reached": ingested >= target, "conversations": conversations,
                       "ingest_calls": calls, "ingest_s": round(ingest_s, 1), "ingest_turns_per_s": round(rate, 1)}
                row.update(measure(mem, qs))
                row["client_peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
                row.update(_server_rss(home))
                row.update(_disk(home))
                try:
                    stats = mem.complex(USER).stats()
                    row["graph"] = {k: stats.get(k) for k in ("memories", "entities", "relations", "simplices", "trie_nodes")
                                    if k in stats}
                except Exception as exc:  # counts are context, not the measurement
                    row["graph"] = {"error": repr(exc)}
                by_n.append(row)
                _print_row(row)
                if out_of_time:
                    break
        finally:
            mem.close()
            EmbeddedServer(home).stop()
    result = {"section": "recall", "quick": quick, "k": 10, "sizes": SIZES[quick], "by_n": by_n, "skipped": skipped,
              "sources": [s.name for s in pool], "seconds": round(time.perf_counter() - section_start, 1),
              "growth": growth(by_n)}
    for line in result["growth"]["notes"]:
        print(f"  {line}", flush=True)
    plot = _plot(by_n, out, "-quick" if quick else "")
    if plot:
        result["plot"] = plot
    return result


def _print_row(row: dict) -> None:
    e, s = row["end_to_end"], row["stages"]
    ingest = f"; ingest {row['ingest_turns_per_s']:.0f} turns/s" if "ingest_turns_per_s" in row else ""
    print(f"  N={row['n']:,}: recall k=10 p50 {e['p50_ms']:.1f} / p95 {e['p95_ms']:.1f} / p99 {e['p99_ms']:.1f} ms "
          f"({row['questions']} questions{ingest})", flush=True)
    print("    p50/p95 ms: " + ", ".join(f"{k} {s[k]['p50_ms']:.1f}/{s[k]['p95_ms']:.1f}" for k in s if k != "total")
          + f"; query embedding alone {row['query_embedding']['p50_ms']:.1f}/{row['query_embedding']['p95_ms']:.1f}",
          flush=True)
    print(f"    client peak RSS {row['client_peak_rss_mb']:.0f} MB, server RSS {row.get('server_rss_mb', 0):.0f} MB "
          f"(peak {row.get('server_peak_rss_mb', 0):.0f}), falkordb dir {row['falkordb_dir_mb']:.1f} MB "
          f"(AOF {row['aof_mb']:.1f} MB); graph {row['graph']}", flush=True)


def growth(by_n: list[dict]) -> dict:
    """Which stage's p50 grows with N, first size to last."""
    if len(by_n) < 2:
        return {"notes": []}
    a, b = by_n[0], by_n[-1]
    scale = b["n"] / a["n"]
    grew = {}
    for stage in list(b["stages"]):
        before, after = a["stages"][stage]["p50_ms"], b["stages"][stage]["p50_ms"]
        grew[stage] = {"p50_before_ms": before, "p50_after_ms": after, "added_ms": round(after - before, 2),
                       "ratio": round(after / before, 2) if before > 0 else None}
    top = sorted((s for s in grew if s != "total"), key=lambda s: -grew[s]["added_ms"])[:3]
    notes = [f"N x{scale:.0f} ({a['n']:,} -> {b['n']:,}): total p50 {grew['total']['p50_before_ms']} -> "
             f"{grew['total']['p50_after_ms']} ms; grew most: "
             + ", ".join(f"{s} +{grew[s]['added_ms']} ms (x{grew[s]['ratio']})" for s in top)]
    return {"from_n": a["n"], "to_n": b["n"], "by_stage": grew, "notes": notes}


def _plot(by_n: list[dict], out: Path, suffix: str) -> str | None:
    if len(by_n) < 2:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ns = [r["n"] for r in by_n]
    fig, ax = plt.subplots(figsize=(6, 4.5))
    ax.plot(ns, [r["end_to_end"]["p50_ms"] for r in by_n], "o-", color="C0", label="end to end p50")
    ax.plot(ns, [r["end_to_end"]["p95_ms"] for r in by_n], "o--", color="C0", label="end to end p95")
    for i, stage in enumerate(("analysis", "semantic", "lexical", "entity", "simplicial", "rank")):
        ax.plot(ns, [max(r["stages"][stage]["p50_ms"], 1e-2) for r in by_n], ".-", color=f"C{i + 1}",
                alpha=0.7, label=f"{stage} p50")
    ax.axhline(100, color="grey", lw=0.8, ls=":")
    ax.set(xscale="log", yscale="log", xlabel="memories (N)", ylabel="ms", title="recall k=10 latency vs N")
    ax.legend(fontsize=7)
    path = Path(out) / f"recall-latency{suffix}.png"
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return str(path)
