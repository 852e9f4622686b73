"""graphmem's benchmarks: `python -m bench perf [--quick] [--out DIR]` or `graphmem bench perf`
for speed; `python -m bench locomo FILE...` or `graphmem bench locomo FILE...` for retrieval
quality (`bench.locomo`: the harness and baselines; `bench.locomo_run`: graphmem in it).

A section is one module with `run(quick: bool, out: Path) -> dict`, listed in SECTIONS; `perf`
runs them all (or those named with --only: their figures replace theirs in an OUT/perf.json
already there, the other sections' are kept), writes every figure to OUT/perf.json, one PNG per
operation and a table on the terminal."""

from __future__ import annotations

import importlib
import json
import time
from pathlib import Path

# name -> module, in the order `perf` runs them
SECTIONS: list[tuple[str, str]] = [
    ("simplices", "bench.simplices"),
    ("ingest", "bench.ingest"),
    ("recall", "bench.recall"),
]
DEFAULT_OUT = Path(__file__).resolve().parent / "results"


def perf(quick: bool = False, out: Path | None = None, only: list[str] | None = None) -> dict:
    from . import plot, report

    out = Path(out or DEFAULT_OUT)
    out.mkdir(parents=True, exist_ok=True)
    wanted = [(name, module) for name, module in SECTIONS if not only or name in only]
    if only and len(wanted) != len(set(only)):
        known = ", ".join(name for name, _ in SECTIONS)
        raise ValueError(f"unknown section in {only}; known: {known}")
    results = {"mode": "quick" if quick else "full", "started": time.strftime("%Y-%m-%dT%H:%M:%S"), "sections": {}}
    path = out / ("perf-quick.json" if quick else "perf.json")
    if only and path.exists():  # a section run again: the others' figures stay as they were measured
        try:
            kept = json.loads(path.read_text()).get("sections", {})
        except ValueError:
            kept = {}
        results["sections"] = {name: kept[name] for name, _ in SECTIONS if name in kept and name not in only}
    for name, module in wanted:
        print(f"section {name} ({'quick' if quick else 'full'})", flush=True)
        results["sections"][name] = importlib.import_module(module).run(quick, out)
        path.write_text(json.dumps(results, indent=1, default=str))
    order = [name for name, _ in SECTIONS]
    results["sections"] = dict(sorted(results["sections"].items(), key=lambda item: order.index(item[0])))
    results["plots"] = plot.plot_all(results, out, suffix="-quick" if quick else "")
    report.print_report(results)  # adds each section's target verdicts
    path.write_text(json.dumps(results, indent=1, default=str))
    print(f"figures: {path}; plots: {', '.join(results['plots'])}")
    return results
