"""The terminal table: per operation and N, each system's figures and graphmem's ratios."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

TARGETS = {
    "cofaces_p95_ms": 20.0,
    "cofaces_vs_relational": 10.0,
    "insert_batch_per_s": 2000.0,
    "cofaces_vs_gudhi": 50.0,
}


def _fmt(value, unit="") -> str:
    if value is None:
        return "-"
    if value >= 100:
        return f"{value:,.0f}{unit}"
    if value >= 10:
        return f"{value:.1f}{unit}"
    return f"{value:.2f}{unit}" if value >= 0.1 else f"{value:.3f}{unit}"


def cell(stats: dict, op: str) -> str:
    if not stats or not stats.get("n"):
        return "-"
    if op == "insert_batch":
        return f"{_fmt(stats['per_s'])}/s"
    return f"{_fmt(stats['p50_ms'])} / {_fmt(stats['p95_ms'])} ({stats['n']})"


def print_report(results: dict, console: Console | None = None) -> None:
    console = console or Console(width=200)
    section = results["sections"].get("simplices")
    if not section:
        return
    from .simplices import LABELS, OPERATIONS, SYSTEMS

    table = Table(title=f"simplex tree, {results['mode']} mode: p50 / p95 ms (n timed); batch insert: simplices/s",
                  caption="ratio = graphmem time / other time at p50 (p95): < 1 means graphmem is faster")
    table.add_column("op")
    table.add_column("N", justify="right")
    for system in SYSTEMS:
        table.add_column(LABELS[system], justify="right")
    for other in SYSTEMS[1:]:
        table.add_column(f"÷ {LABELS[other].split(' (')[0] if other == 'gudhi' else LABELS[other]}", justify="right")
    ratios = {(r["n"], r["op"]): r for r in section["ratios"]}
    for op in OPERATIONS:
        for stage in section["by_n"]:
            r = ratios.get((stage["n"], op), {})
            row = [op, f"{stage['n']:,}"] + [cell(stage["ops"][s].get(op), op) for s in SYSTEMS]
            for other in SYSTEMS[1:]:
                if other not in r:
                    row.append("-")
                elif op == "insert_batch":
                    row.append(_fmt(r[other]))
                else:
                    row.append(f"{_fmt(r[other])} ({_fmt(r[other + '_p95'])})")
            table.add_row(*row)
        table.add_section()
    console.print(table)

    sizes = Table(title="cofaces by query size: p50 / p95 ms")
    sizes.add_column("N", justify="right")
    sizes.add_column("vertices", justify="right")
    for system in SYSTEMS:
        sizes.add_column(LABELS[system], justify="right")
    for stage in section["by_n"]:
        for k in ("1", "2", "3"):
            sizes.add_row(f"{stage['n']:,}", k, *[cell(stage["ops"][s].get("cofaces_by_size", {}).get(k), "") for s in SYSTEMS])
    console.print(sizes)

    mem = Table(title="memory and disk (per 10^5 stored simplices where noted)")
    for column in ("N", "trie nodes", "client peak RSS", "FalkorDB RSS", "AOF", "AOF rewritten", "AOF rewr./1e5",
                   "PG table+idx", "PG table/1e5", "PG data dir", "gudhi RSS", "gudhi simplices"):
        mem.add_column(column, justify="right")
    for stage in section["by_n"]:
        m, d = stage["memory"], stage["disk"]
        mem.add_row(f"{stage['n']:,}", f"{stage['trie_nodes']['graphmem']:,}", _mb(m["client_peak_rss_bytes"]),
                    _mb(m["falkordb_server"].get("VmRSS")), _mb(d["falkordb_aof_bytes"]),
                    _mb(d["falkordb_aof_rewritten_bytes"]), _mb(d["per_1e5"]["falkordb_aof_rewritten_bytes"]),
                    _mb(d["postgres_table_bytes"]), _mb(d["per_1e5"]["postgres_table_bytes"]),
                    _mb(d["postgres_data_dir_bytes"]), _mb(m["gudhi_rss_bytes"]), f"{m['gudhi_simplices']:,}")
    console.print(mem)

    targets = verdicts(section)
    t = Table(title="targets")
    for column in ("target", "figure", "verdict"):
        t.add_column(column)
    for row in targets:
        t.add_row(row["target"], row["figure"], Text("met", style="green") if row["met"] else Text("missed", style="red"))
    console.print(t)
    section["targets"] = targets
    for note in section.get("skipped", []):
        console.print(f"skipped: {note}")


def _mb(value) -> str:
    return "-" if value is None else f"{value / 2**20:,.1f} MB"


def verdicts(section: dict) -> list[dict]:
    stage = section["by_n"][-1]
    n = stage["n"]
    ops = stage["ops"]
    gm_c, rel_c, cte_c, gd_c = (ops[s]["cofaces"] for s in ("graphmem", "relational", "relational_cte", "gudhi"))
    rows = [
        {"target": f"cofaces p95 < {TARGETS['cofaces_p95_ms']:.0f} ms at N={n:,}", "figure": f"{gm_c['p95_ms']:.1f} ms",
         "met": gm_c["p95_ms"] < TARGETS["cofaces_p95_ms"]},
        {"target": "cofaces ≥ 10× faster than relational as written (p50 and p95)",
         "figure": f"{rel_c['p50_ms'] / gm_c['p50_ms']:.1f}× p50, {rel_c['p95_ms'] / gm_c['p95_ms']:.1f}× p95",
         "met": min(rel_c['p50_ms'] / gm_c['p50_ms'], rel_c['p95_ms'] / gm_c['p95_ms']) >= 10},
        {"target": "cofaces faster than relational CTE (p50 and p95)",
         "figure": f"{cte_c['p50_ms'] / gm_c['p50_ms']:.2f}× p50, {cte_c['p95_ms'] / gm_c['p95_ms']:.2f}× p95",
         "met": gm_c["p50_ms"] < cte_c["p50_ms"] and gm_c["p95_ms"] < cte_c["p95_ms"]},
        {"target": "batch insert ≥ 2,000 simplices/s", "figure": f"{ops['graphmem']['insert_batch']['per_s']:,.0f}/s",
         "met": ops["graphmem"]["insert_batch"]["per_s"] >= TARGETS["insert_batch_per_s"]},
        {"target": "cofaces within 50× of gudhi (p50 and p95)",
         "figure": f"{gm_c['p50_ms'] / gd_c['p50_ms']:.2f}× p50, {gm_c['p95_ms'] / gd_c['p95_ms']:.2f}× p95",
         "met": max(gm_c['p50_ms'] / gd_c['p50_ms'], gm_c['p95_ms'] / gd_c['p95_ms']) <= 50},
    ]
    return rows
