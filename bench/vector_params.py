"""The text FalkorDB parses for an ingest batch's vectors: graphmem's parameter header (a `Vector`
in float32's nine significant digits, one join) against the falkordb client's own (a call per
float, a double's seventeen digits), in one process on one embedded store.

    python bench/vector_params.py [--memories 128] [--sentences 6] [--rounds 5]

Each round writes fresh memories' vectors and their sentences' through `complete_memories`, as
ingest does, once with each header, alternating; the store does the same work for both (the
vectors are equal as float32), so the difference is the text: building it and parsing it."""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import numpy as np

from graphmem import Memory
from graphmem.drivers import falkor
from graphmem.vectors import as_param

USER = "bench-vector-params"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=128, help="memories per batch (ingest's batch on a CPU)")
    parser.add_argument("--sentences", type=int, default=6, help="sentence vectors per memory")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    headers = {"client": _client_header, "graphmem": falkor.params_header}
    rng = np.random.default_rng(0)
    seconds: dict[str, list[float]] = {name: [] for name in headers}
    building: dict[str, list[float]] = {name: [] for name in headers}
    size: dict[str, int] = {}
    with Memory(home=tempfile.mkdtemp(prefix="graphmem-vector-params-")) as mem:
        dimensions = mem.settings.embedding_dimensions
        mem.driver.run("MERGE (:User {id: $u})", {"u": USER})
        for r in range(args.rounds):
            for name, header in headers.items():
                uids = [f"{name}-{r}-{i}" for i in range(args.memories)]
                mem.driver.run("UNWIND $uids AS uid CREATE (:Memory {user_id: $u, uid: uid})", {"u": USER, "uids": uids})
                rows = [{"uid": uid, "embedding": as_param(_unit(rng, dimensions)),
                         "sentences": [{"n": n, "text": f"sentence {n}", "embedding": as_param(_unit(rng, dimensions))}
                                       for n in range(args.sentences)]} for uid in uids]
                t0 = time.perf_counter()
                text = header({"user_id": USER, "rows": rows, "entities": []})
                building[name].append(time.perf_counter() - t0)
                size[name] = len(text)
                falkor.params_header = header  # the driver's, for this statement
                try:
                    t0 = time.perf_counter()
                    mem.store.run("complete_memories", user_id=USER, rows=rows, entities=[])
                    seconds[name].append(time.perf_counter() - t0)
                finally:
                    falkor.params_header = headers["graphmem"]
        mem.driver.run("MATCH (n {user_id: $u}) DETACH DELETE n", {"u": USER})
        mem.driver.run("MATCH (n:User {id: $u}) DELETE n", {"u": USER})
    vectors = args.memories * (1 + args.sentences)
    print(f"{args.memories} memories, {vectors} vectors of {dimensions} a batch; median of {args.rounds} rounds")
    print(f"{'header':10s} {'text MB':>8s} {'build s':>8s} {'statement s':>12s}")
    for name in headers:
        print(f"{name:10s} {size[name] / 1e6:8.2f} {statistics.median(building[name]):8.3f} "
              f"{statistics.median(seconds[name]):12.3f}")
    ratio = statistics.median(seconds["client"]) / statistics.median(seconds["graphmem"])
    print(f"client / graphmem, statement: {ratio:.2f}x; text {size['client'] / size['graphmem']:.2f}x")


def _client_header(params: dict) -> str:
    """What the falkordb client sends: its own `Graph._build_params_header`."""
    from falkordb import Graph

    return Graph._build_params_header(None, params)  # type: ignore[arg-type]


def _unit(rng: np.random.Generator, dimensions: int) -> np.ndarray:
    v = rng.standard_normal(dimensions).astype(np.float32)
    return v / np.linalg.norm(v)


if __name__ == "__main__":
    main()
