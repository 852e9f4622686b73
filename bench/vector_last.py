"""Why an ingest batch writes its vectors last: FalkorDB re-inserts a node's vector into its
vector index whenever anything else on the node changes (FalkorDB#2657), so a property set
after the vector costs about as much as the vector itself.

    python bench/vector_last.py [--nodes 1000] [--rounds 5]

Each round creates fresh nodes of a label with a vector index like graphmem's, in a fresh
embedded store, and writes each a vector and one other property, in the two orders,
alternating; prints the median time of each order's two statements and their ratio."""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/vector_last.py` from a checkout

from graphmem import Memory  # noqa: E402
from graphmem.drivers.embedded import EmbeddedServer  # noqa: E402
from graphmem.vectors import as_param  # noqa: E402

LABEL = "BenchVectorLast"
VECTOR = f"UNWIND $rows AS r MATCH (e:{LABEL} {{vid: r.vid}}) SET e.embedding = vecf32(r.v)"
OTHER = f"UNWIND $rows AS r MATCH (e:{LABEL} {{vid: r.vid}}) SET e.frequency = 1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    orders = {"vector, then the property": (VECTOR, OTHER), "the property, then vector": (OTHER, VECTOR)}
    seconds: dict[str, list[float]] = {name: [] for name in orders}
    home = Path(tempfile.mkdtemp(prefix="graphmem-vector-last-"))
    rng = np.random.default_rng(0)
    try:
        with Memory(home=home) as mem:
            if mem.driver.dialect != "falkordb":
                raise SystemExit("measures FalkorDB's vector index: run it on the embedded default")
            dimensions = mem.settings.embedding_dimensions
            mem.driver.run(f"CREATE INDEX FOR (e:{LABEL}) ON (e.vid)", {})
            mem.driver.run(f"CREATE VECTOR INDEX FOR (e:{LABEL}) ON (e.embedding) "  # as graphmem's (schema.falkordb.cypher)
                           f"OPTIONS {{dimension: {dimensions}, similarityFunction: 'cosine'}}", {})
            vid = 0
            for _ in range(args.rounds):
                for name, statements in orders.items():
                    vectors = rng.standard_normal((args.nodes, dimensions)).astype(np.float32)
                    rows = [{"vid": vid + i, "v": as_param(v)} for i, v in enumerate(vectors)]
                    vid += args.nodes
                    mem.driver.run("UNWIND $rows AS r CREATE (:BenchVectorLast {vid: r.vid})", {"rows": rows})
                    t0 = time.perf_counter()
                    for statement in statements:
                        mem.driver.run(statement, {"rows": rows})
                    seconds[name].append(time.perf_counter() - t0)
    finally:
        EmbeddedServer(home).stop()
    print(f"{args.nodes} nodes a round, {args.rounds} rounds; the index grows as they run")
    for name in orders:
        print(f"{name:28s} median {statistics.median(seconds[name]):.3f} s")
    first, last = (statistics.median(seconds[name]) for name in orders)
    print(f"vector first / vector last: {first / last:.2f}x")


if __name__ == "__main__":
    main()
