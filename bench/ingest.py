"""Ingest throughput end to end (turns per second) against embedding-only throughput over the
same turns, measured in the same process, models loaded before either clock starts.

Embedding is the floor on CPU: ingest embeds every turn once, and everything else it does
(parsing, resolution, writes) should hide behind or add little to that. (Ingest also embeds
each sentence of a turn of several, for recall's sentence views: the figures count them as
`sentences`, and the floor stays the turns alone, what a plain dense index embeds.) The floor is the
faster of torch's default threads and one thread, measured on the same texts. Where the CPU
multiplies bfloat16 natively (the default precision "auto" picks it), float32 runs too, in
the same process, as the baseline."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from graphmem import Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer
from .locomo import turn_text
from graphmem.ingest import read_transcript
from graphmem.models import resolve_precision

LOCOMO = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "locomo" / "locomo10_v2"
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "chat.txt"


def transcripts(quick: bool) -> list[Path]:
    files = sorted(LOCOMO.glob("*.json")) if LOCOMO.is_dir() else []
    return (files[:1] if quick else files) or [EXAMPLE]


def _timed(embed, texts, threads) -> float:
    t0 = time.perf_counter()
    embed(texts, threads=threads)
    return time.perf_counter() - t0


def run(quick: bool, out: Path) -> dict:
    files = transcripts(quick)
    default = resolve_precision("auto")
    rows, totals = [], {}
    for precision in dict.fromkeys([default, "float32"]):
        print(f"  embedding in {precision}{' (the default here)' if precision == default else ''}", flush=True)
        rows += _ingest_files(files, precision)
        totals[precision] = _total([r for r in rows if r["precision"] == precision])
    result = {"section": "ingest", "quick": quick, "files": rows, "total": totals[default], "by_precision": totals}
    if len(totals) > 1:
        result["default_over_float32"] = round(totals[default]["ingest_turns_per_s"]
                                               / totals["float32"]["ingest_turns_per_s"], 2)
        print(f"  ingest in {default} / in float32: {result['default_over_float32']}x", flush=True)
    return result


def _ingest_files(files: list[Path], precision: str) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="graphmem-bench-ingest-") as home:
        mem = Memory(settings=Settings(home=Path(home), embedding_precision=precision))
        embedder, _ = mem.models.embedder(), mem.models.nlp()  # loaded before the clocks start
        embedder.embed(["warm up the model"] * 8)
        try:
            for path in files:
                turns = read_transcript(path)
                texts = [turn_text(t) for t in turns]  # what the dense baseline embeds
                embed_s = min(_timed(embedder.embed, texts, threads) for threads in (None, 1))  # the faster floor
                t0 = time.perf_counter()
                summary = mem.ingest(path, user=f"bench-{path.stem}")
                ingest_s = time.perf_counter() - t0
                rows.append({"file": path.name, "precision": precision, "turns": len(turns),
                             "sentences": summary.sentences,  # embedded besides the turns (recall's sentence views)
                             "embed_s": round(embed_s, 2), "ingest_s": round(ingest_s, 2), "stages_s": summary.stages,
                             "embed_turns_per_s": round(len(turns) / embed_s, 1),
                             "ingest_turns_per_s": round(len(turns) / ingest_s, 1)})
                print(f"  {path.name}: {rows[-1]['ingest_turns_per_s']} turns/s ingest, "
                      f"{rows[-1]['embed_turns_per_s']} turns/s embedding only", flush=True)
        finally:
            mem.close()
            EmbeddedServer(Path(home)).stop()
    return rows


def _total(rows: list[dict]) -> dict:
    turns = sum(r["turns"] for r in rows)
    embed_s, ingest_s = sum(r["embed_s"] for r in rows), sum(r["ingest_s"] for r in rows)
    total = {"turns": turns, "sentences": sum(r["sentences"] for r in rows), "embed_turns_per_s": round(turns / embed_s, 1),
             "ingest_turns_per_s": round(turns / ingest_s, 1), "ingest_share_of_embedding": round(embed_s / ingest_s, 3)}
    print(f"  all: {total['ingest_turns_per_s']} turns/s ingest = {total['ingest_share_of_embedding']:.0%} "
          f"of embedding-only {total['embed_turns_per_s']} turns/s", flush=True)
    return total
