"""Embedding rate per device and precision: what ingest's embedding stage costs on a CPU and on
a GPU (`GRAPHMEM_EMBEDDING_DEVICE`), and how far each run's vectors are from the CPU's float32
ones made in the same process.

    python bench/embed_devices.py TEXTS.json --model DIR [--runs auto:auto cpu:float32 ...]
    python bench/embed_devices.py --save TEXTS.json BEAM_CONVERSATION_FOLDER

The first form loads only `graphmem/models.py` (and `errors.py`), not the package, so that it
runs where torch and sentence-transformers are the only libraries installed, as on a rented GPU
machine. The second form, run where graphmem is installed, writes the texts ingest embeds for
one conversation, as ingest makes them (graphmem/ingest/plan.py): each message as it is
searched, and its sentence views."""

from __future__ import annotations

import argparse
import json
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def save_texts(folder: str, out: str) -> None:
    sys.path.insert(0, str(ROOT))
    from bench.beam import read_chat
    from graphmem import Settings
    from graphmem.ingest.plan import _searchable, _sentences, extract_batch
    from graphmem.models import Models

    turns, models = read_chat(Path(folder)), Models(Settings())
    speakers = list(dict.fromkeys(t.speaker for t in turns))
    messages, sentences = [], []
    for start in range(0, len(turns), 128):
        batch = turns[start:start + 128]
        for turn, x in zip(batch, extract_batch(models, batch, speakers)):
            messages.append(_searchable(turn, x))
            sentences += _sentences(turn, x)
    Path(out).write_text(json.dumps({"messages": messages, "sentences": sentences}))
    print(f"{len(messages)} messages, {len(sentences)} sentences -> {out}")


def measure(texts_file: str, model: str, runs: list[str], out: str | None) -> None:
    package = types.ModuleType("graphmem")  # models.py without the package's own imports
    package.__path__ = [str(ROOT / "graphmem")]
    sys.modules.setdefault("graphmem", package)
    import numpy as np
    import torch

    from graphmem.models import Embedder

    texts = json.loads(Path(texts_file).read_text())
    messages, sentences = texts["messages"], texts["sentences"]
    print(f"torch {torch.__version__}; GPU: {torch.cuda.get_device_name(0) if torch.cuda.is_available() else 'none'}; "
          f"{torch.get_num_threads()} CPU threads; {len(messages)} messages, {len(sentences)} sentences", flush=True)
    reference = Embedder(model, "float32", max_tokens=128, device="cpu").embed(messages)
    rows = []
    for run in runs:
        device, precision = run.rsplit(":", 1)
        embedder = Embedder(model, precision, max_tokens=128, device=device)
        embedder.embed(messages[:40])
        seconds = {}
        for name, batch in (("messages", messages), ("sentences", sentences)):
            best = float("inf")
            for _ in range(3):
                if embedder.device.startswith("cuda"):
                    torch.cuda.synchronize()
                started = time.perf_counter()
                vectors = embedder.embed(batch)
                best = min(best, time.perf_counter() - started)
            seconds[name] = best
            if name == "messages":
                cosine = (vectors * reference).sum(axis=1)
        query = []
        for i in range(50):  # one short text: a recall's question
            started = time.perf_counter()
            embedder.embed([messages[i % len(messages)][:80]])
            query.append(time.perf_counter() - started)
        row = {"run": run, "device": embedder.device, "precision": embedder.precision,
               "messages_s": round(seconds["messages"], 3), "sentences_s": round(seconds["sentences"], 3),
               "messages_per_s": round(len(messages) / (seconds["messages"] + seconds["sentences"]), 1),
               "query_ms_p50": round(1000 * float(np.median(query)), 2),
               "cosine_min": round(float(cosine.min()), 5), "cosine_median": round(float(np.median(cosine)), 5)}
        print(json.dumps(row), flush=True)
        rows.append(row)
    if out:
        Path(out).write_text(json.dumps(rows, indent=1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/embed_devices.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("texts", help="a texts JSON (--save writes one)")
    parser.add_argument("folder", nargs="?", help="with --save: the BEAM conversation folder to read")
    parser.add_argument("--save", action="store_true", help="write the texts of FOLDER to TEXTS and stop")
    parser.add_argument("--model", default="all-MiniLM-L6-v2", help="a sentence-transformers directory")
    parser.add_argument("--runs", nargs="+", default=["auto:auto", "cpu:float32", "cpu:auto"],
                        metavar="DEVICE:PRECISION")
    parser.add_argument("--json", dest="json_out", metavar="OUT", help="write the rows here")
    args = parser.parse_args(argv)
    if args.save:
        if not args.folder:
            parser.error("--save needs the BEAM conversation folder")
        save_texts(args.folder, args.texts)
    else:
        measure(args.texts, args.model, args.runs, args.json_out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
