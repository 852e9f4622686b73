"""PNG plots: latency p50 (solid) and p95 (dashed) against N, log-log, one line per system,
one plot per operation; batch insert as throughput against N."""

from __future__ import annotations

from pathlib import Path


def plot_all(results: dict, out: Path, suffix: str = "") -> list[str]:
    section = results["sections"].get("simplices")
    if not section:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .simplices import LABELS, SYSTEMS

    paths = []
    ns = [stage["n"] for stage in section["by_n"]]
    for op in ("insert_single", "find", "cofaces", "faces", "insert_batch"):
        fig, ax = plt.subplots(figsize=(6.4, 4.4))
        for i, system in enumerate(SYSTEMS):
            rows = [(stage["n"], stage["ops"][system].get(op, {})) for stage in section["by_n"]]
            rows = [(n, r) for n, r in rows if r.get("n")]
            if not rows:
                continue
            color = f"C{i}"
            xs = [n for n, _ in rows]
            if op == "insert_batch":
                ax.plot(xs, [r["per_s"] for _, r in rows], "o-", color=color, label=LABELS[system])
            else:
                ax.plot(xs, [r["p50_ms"] for _, r in rows], "o-", color=color, label=f"{LABELS[system]} p50")
                ax.plot(xs, [r["p95_ms"] for _, r in rows], "s--", color=color, alpha=0.7, label=f"{LABELS[system]} p95")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks(ns)
        ax.set_xlabel("stored simplices N")
        ax.set_ylabel("simplices / s" if op == "insert_batch" else "latency (ms)")
        title = {"insert_batch": "batch insert throughput", "insert_single": "single insert latency",
                 "find": "find latency", "cofaces": "cofaces latency (1-3 query vertices)",
                 "faces": f"faces + membership latency (<= {section['faces_max_vertices']} vertices)"}[op]
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        fig.tight_layout()
        path = Path(out) / f"{op}{suffix}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(str(path))
    return paths
