"""Markdown tables of a `graphmem bench locomo --json` result, for the README:
`python -m bench.locomo_table bench/results/locomo-dev.json`."""

from __future__ import annotations

import json
import sys

CATEGORIES = ("multi-hop", "temporal", "open-domain", "single-hop", "overall")


def tables(result: dict, k: str = "10") -> str:
    systems = result["systems"]
    lines = ["| system | " + " | ".join(f"{c} R@{k}" for c in CATEGORIES) + f" | multi-hop All@{k} | overall All@{k} |",
             "|---|" + "--:|" * (len(CATEGORIES) + 2)]
    for name, data in systems.items():
        scores = data["scores"]
        cells = [f"{scores[c]['recall'][k]:.3f}" for c in CATEGORIES]
        cells += [f"{scores['multi-hop']['all'][k]:.3f}", f"{scores['overall']['all'][k]:.3f}"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "| system | recall p50 ms | p95 ms | prepare s (all conversations) |", "|---|--:|--:|--:|"]
    for name, data in systems.items():
        lat = data["latency"]
        lines.append(f"| {name} | {lat['p50_ms']:.1f} | {lat['p95_ms']:.1f} | {lat['prepare_s']:.1f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(tables(json.load(open(sys.argv[1])), *(sys.argv[2:3] or [])))
