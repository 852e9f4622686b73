"""Section `simplices`: the simplex tree's operations at 10^3..10^5 stored simplices, graphmem
(embedded FalkorDB) side by side with the relational reference design (as written and in its
best set-based / recursive-CTE form, PostgreSQL) and gudhi's in-memory SimplexTree (the floor).

Every system gets the same words in the same order and the same queries. Each stage N grows
the complex from the previous stage: the new words go in by batch (throughput), the last few
one by one (single-insert latency), then find, cofaces and faces are timed on queries drawn
for that N. Results of a sample of cofaces queries are compared across all systems and with
a brute-force answer from the word list; any disagreement stops the run."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from . import measure
from .data import Stream
from .relational import AsWritten, Cluster, SetBased

GUDHI_MAX = 12  # gudhi stores every face: a 30-vertex simplex would be 2^30 nodes
FACES_MAX = 10  # faces are asked of stored simplices of at most this many vertices (1023 faces)
SYSTEMS = ["graphmem", "relational", "relational_cte", "gudhi"]
LABELS = {"graphmem": "graphmem (FalkorDB)", "relational": "relational (as written)",
          "relational_cte": "relational (CTE)", "gudhi": "gudhi SimplexTree"}
OPERATIONS = ["insert_batch", "insert_single", "find", "cofaces", "faces"]


class Config:
    def __init__(self, quick: bool):
        self.quick = quick
        self.stages = [1_000, 10_000] if quick else [1_000, 10_000, 100_000]
        self.skipped = ([] if quick else
                        ["10^6: graphmem inserts ~1,500-2,000 simplices/s here and the relational design as "
                         "written ~1,000/s, so 10^6 would take 10+ and 15+ minutes of inserts alone, past the "
                         "30-minute budget on 2 cores"])
        self.batch = 2_000  # words per insert_many / set-based call
        self.singles = 50 if quick else 100
        self.queries = 150 if quick else 400
        self.finds = 150 if quick else 400
        self.faces = 80 if quick else 200
        self.budget_s = 6.0 if quick else 25.0  # per system, operation and stage
        self.verify = 25 if quick else 40


class Graphmem:
    name = "graphmem"

    def __init__(self):
        from graphmem import Memory

        self.home = Path(tempfile.mkdtemp(prefix="graphmem-bench-"))
        self.mem = Memory(home=self.home)
        self.cx = self.mem.complex("bench")
        self.vocabulary = 0

    def entities(self, upto: int) -> None:
        """Entities e1..e{upto}, so that vid i is the stream's vertex i (not timed: ingest's job)."""
        for start in range(self.vocabulary + 1, upto + 1, 5000):
            stop = min(upto, start + 4999)
            vids = self.cx.ensure_entities([f"e{i}" for i in range(start, stop + 1)])
            if vids[f"e{start}"] != start or vids[f"e{stop}"] != stop:
                raise RuntimeError("entity vids are not the stream's vertex ids")
        self.vocabulary = max(self.vocabulary, upto)

    def insert_many(self, words):
        return self.cx.insert_many(words)

    def insert(self, word):
        return self.cx.insert(word)

    def find(self, word):
        return self.cx.find(word)

    def cofaces(self, vids):
        # no witnesses: neither relational form nor gudhi stores any (graphmem's default, with
        # witnesses, is timed too: op "cofaces_witnesses")
        return self.cx.cofaces(vids, witnesses=False)

    def cofaces_witnesses(self, vids):
        return self.cx.cofaces(vids)

    def faces(self, word):
        return self.cx.faces(word)

    def server_pid(self) -> int | None:
        from graphmem.drivers.embedded import EmbeddedServer

        return EmbeddedServer(self.home).pid()

    def disk(self) -> dict:
        falkor = self.home / "falkordb"
        raw = measure.dir_bytes(falkor)
        conn = self.mem.driver._db.connection
        conn.execute_command("BGREWRITEAOF")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            info = conn.info("persistence")
            if not info.get("aof_rewrite_in_progress") and not info.get("aof_rewrite_scheduled"):
                break
            time.sleep(0.1)
        return {"aof_bytes": raw, "aof_rewritten_bytes": measure.dir_bytes(falkor)}

    def close(self) -> None:
        from graphmem.drivers.embedded import EmbeddedServer

        self.mem.close()
        EmbeddedServer(self.home).stop()
        shutil.rmtree(self.home, ignore_errors=True)


class Gudhi:
    name = "gudhi"

    def __init__(self):
        import gudhi

        self.tree = gudhi.SimplexTree()

    def insert(self, word):
        if len(word) <= GUDHI_MAX:
            self.tree.insert(list(word))

    def insert_many(self, words):
        for word in words:
            self.insert(word)

    def find(self, word):
        return self.tree.find(list(word)) if len(word) <= GUDHI_MAX else None

    def cofaces(self, vids):
        # get_cofaces on a simplex absent from the tree segfaults (gudhi 3.13): guard with find
        if not self.tree.find(list(vids)):
            return []
        return [(list(vids), 0.0)] + self.tree.get_cofaces(list(vids), 0)  # without the probe itself

    def faces(self, faces):
        return [self.tree.find(list(f)) for f in faces]


def _brute_cofaces(index: dict[int, list[int]], words, vids) -> set[tuple[int, ...]]:
    rows = set(index[vids[0]])
    for v in vids[1:]:
        rows &= set(index[v])
    return {words[i] for i in rows}


def run(quick: bool, out: Path) -> dict:
    cfg = Config(quick)
    from graphmem.simplex import subsets

    t_start = time.perf_counter()
    stream = Stream(max(cfg.stages))
    result = {"section": "simplices", "quick": quick, "stages": cfg.stages, "skipped": cfg.skipped,
              "systems": LABELS, "gudhi_max_vertices": GUDHI_MAX, "faces_max_vertices": FACES_MAX,
              "config": {k: v for k, v in vars(cfg).items() if k not in ("stages", "skipped")},
              "env": measure.env(), "by_n": []}
    loop = asyncio.new_event_loop()
    cluster = Cluster().start()
    gm = Graphmem()
    written, cte = AsWritten(cluster, "written"), SetBased(cluster, "setbased")
    loop.run_until_complete(written.open())
    loop.run_until_complete(cte.open())
    floor = Gudhi()
    gudhi_rss = 0
    index: dict[int, list[int]] = defaultdict(list)
    stored_small: set[tuple[int, ...]] = set()
    try:
        previous = 0
        for n in cfg.stages:
            stage = {"n": n, "data": stream.describe(n), "ops": {s: {} for s in SYSTEMS}}
            segment = stream.words[previous:n]
            batch, singles = segment[:-cfg.singles], segment[-cfg.singles:]
            chunks = [batch[i:i + cfg.batch] for i in range(0, len(batch), cfg.batch)]
            gm.entities(stream.vocabulary_at(n))
            for i in range(previous, n):
                for v in stream.words[i]:
                    index[v].append(i)
                if len(stream.words[i]) <= GUDHI_MAX:
                    stored_small.add(stream.words[i])

            # -- insert: batches (throughput per simplex), then singles (latency)
            def batch_summary(latencies):
                return measure.summary(latencies, items=len(batch)) | {"per_chunk": len(chunks[0]) if chunks else 0}

            lat, _ = measure.timed(gm.insert_many, chunks, budget_s=1e9)
            stage["ops"]["graphmem"]["insert_batch"] = batch_summary(lat)
            lat, _ = measure.timed(gm.insert, singles, budget_s=1e9)
            stage["ops"]["graphmem"]["insert_single"] = measure.summary(lat)
            for system, key in ((written, "relational"), (cte, "relational_cte")):
                lat, _ = loop.run_until_complete(measure.atimed(system.insert_many, chunks, budget_s=1e9))
                stage["ops"][key]["insert_batch"] = batch_summary(lat)
                lat, _ = loop.run_until_complete(measure.atimed(system.insert, singles, budget_s=1e9))
                stage["ops"][key]["insert_single"] = measure.summary(lat)
                loop.run_until_complete(system.analyze())
            rss_before = measure.proc_status().get("VmRSS", 0)
            lat, _ = measure.timed(floor.insert_many, chunks, budget_s=1e9)
            stage["ops"]["gudhi"]["insert_batch"] = batch_summary(lat)
            lat, _ = measure.timed(floor.insert, singles, budget_s=1e9)
            stage["ops"]["gudhi"]["insert_single"] = measure.summary(lat)
            gudhi_rss += measure.proc_status().get("VmRSS", 0) - rss_before

            # -- queries, drawn for this N; the same lists for every system
            finds = stream.stored_sample(n, cfg.finds, seed=n + 1)
            queries = [list(q) for q in stream.queries(n, cfg.queries, seed=n + 2)]
            face_words = stream.stored_sample(n, cfg.faces, seed=n + 3, max_size=FACES_MAX)
            face_sets = [subsets(w, limit=1 << 20) for w in face_words]
            gudhi_finds = [w for w in finds if len(w) <= GUDHI_MAX]
            kept = {}
            for key, op, fn, items in (
                ("graphmem", "find", gm.find, finds),
                ("graphmem", "cofaces", gm.cofaces, queries),
                ("graphmem", "cofaces_witnesses", gm.cofaces_witnesses, queries),
                ("graphmem", "faces", gm.faces, face_words),
                ("gudhi", "find", floor.find, gudhi_finds),
                ("gudhi", "cofaces", floor.cofaces, queries),
                ("gudhi", "faces", floor.faces, face_sets),
            ):
                lat, kept[key, op] = measure.timed(fn, items, cfg.budget_s, keep=cfg.verify, at_least=cfg.verify)
                stage["ops"][key][op] = measure.summary(lat)
                if op.startswith("cofaces"):
                    stage["ops"][key][op + "_by_size"] = _by_size(queries, lat)
            for system, key in ((written, "relational"), (cte, "relational_cte")):
                for op, fn, items in (("find", system.find, finds), ("cofaces", system.cofaces, queries),
                                      ("faces", system.faces, face_sets)):
                    lat, kept[key, op] = loop.run_until_complete(
                        measure.atimed(fn, items, cfg.budget_s, keep=cfg.verify, at_least=cfg.verify))
                    stage["ops"][key][op] = measure.summary(lat)
                    if op == "cofaces":
                        stage["ops"][key]["cofaces_by_size"] = _by_size(queries, lat)
            sizes = [len(_brute_cofaces(index, stream.words, q)) for q in queries]
            stage["cofaces_result_size"] = {"p50": float(_pct(sizes, 50)), "p95": float(_pct(sizes, 95)),
                                            "max": max(sizes)}
            stage["verified"] = _verify(kept, queries, finds, face_words, index, stream.words, stored_small)

            # -- memory and disk
            stage["memory"] = {
                "client_peak_rss_bytes": measure.peak_rss(),
                "falkordb_server": measure.proc_status(gm.server_pid() or 0),
                "gudhi_rss_bytes": gudhi_rss,
                "gudhi_simplices": floor.tree.num_simplices(),
            }
            disk = gm.disk()
            sizes_written = loop.run_until_complete(written.sizes())
            sizes_cte = loop.run_until_complete(cte.sizes())
            stage["disk"] = {
                "falkordb_aof_bytes": disk["aof_bytes"],
                "falkordb_aof_rewritten_bytes": disk["aof_rewritten_bytes"],
                "postgres_data_dir_bytes": cluster.data_bytes(),
                "postgres_table_bytes": sizes_written["total"],
                "postgres_table_bytes_cte_form": sizes_cte["total"],
                "postgres_rows": sizes_written["nodes"],
                "per_1e5": {
                    "falkordb_aof_bytes": measure.per_1e5(disk["aof_bytes"], n),
                    "falkordb_aof_rewritten_bytes": measure.per_1e5(disk["aof_rewritten_bytes"], n),
                    "postgres_table_bytes": measure.per_1e5(sizes_written["total"], n),
                },
            }
            stage["trie_nodes"] = {"graphmem": gm.cx.stats()["trie_nodes"], "relational": sizes_written["nodes"],
                                   "relational_cte": sizes_cte["nodes"]}
            if len({*stage["trie_nodes"].values()}) != 1:
                raise AssertionError(f"the systems hold different trie sizes at N={n}: {stage['trie_nodes']}")
            stage["elapsed_s"] = time.perf_counter() - t_start
            result["by_n"].append(stage)
            print(f"  simplices: N={n} done at {stage['elapsed_s']:.0f}s", flush=True)
            previous = n
    finally:
        loop.run_until_complete(written.close())
        loop.run_until_complete(cte.close())
        loop.close()
        cluster.stop()
        gm.close()
    result["ratios"] = ratios(result)
    result["elapsed_s"] = time.perf_counter() - t_start
    return result


def _pct(values, q):
    import numpy as np

    return np.percentile(values, q) if len(values) else float("nan")


def _by_size(queries, latencies) -> dict:
    groups = defaultdict(list)
    for q, lat in zip(queries, latencies):
        groups[len(q)].append(lat)
    return {str(k): measure.summary(v) for k, v in sorted(groups.items())}


def _verify(kept, queries, finds, face_words, index, words, stored_small) -> dict:
    """Every system's cofaces (and find, faces) on the first queries against the brute force."""
    problems = []
    checked = len(kept["graphmem", "cofaces"])
    for i in range(checked):
        q = queries[i]
        expected = _brute_cofaces(index, words, q)
        got = {
            "graphmem": {s.vids for s in kept["graphmem", "cofaces"][i]},
            "relational": {row[0] for row in kept["relational", "cofaces"][i]},
            "relational_cte": {row[0] for row in kept["relational_cte", "cofaces"][i]},
        }
        for name, found in got.items():
            if found != expected:
                problems.append(f"cofaces{q}: {name} gave {len(found)} simplices, expected {len(expected)}: "
                                f"missing {sorted(expected - found)[:3]}, extra {sorted(found - expected)[:3]}")
        floor = {tuple(sorted(s)) for s, _ in kept["gudhi", "cofaces"][i]} & stored_small
        small = {w for w in expected if len(w) <= GUDHI_MAX}
        if floor != small:
            problems.append(f"cofaces{q}: gudhi (filtered to stored) gave {len(floor)}, expected {len(small)}")
    for i, simplex in enumerate(kept["graphmem", "find"]):
        if simplex is None or simplex.vids != finds[i]:
            problems.append(f"find{finds[i]}: graphmem gave {simplex}")
        if kept["relational", "find"][i] is None or kept["relational_cte", "find"][i] is None:
            problems.append(f"find{finds[i]}: the relational design did not find a stored simplex")
    for i, faces in enumerate(kept["graphmem", "faces"]):
        stored = {f.vids for f in faces if f.stored}
        for name in ("relational", "relational_cte"):
            theirs = {tuple(int(v) for v in k.split(",")) for k, ok in kept[name, "faces"][i].items() if ok}
            if theirs != stored:
                problems.append(f"faces{face_words[i]}: {name} marks {len(theirs)} stored, graphmem {len(stored)}")
    if problems:
        raise AssertionError("the systems disagree:\n  " + "\n  ".join(problems[:20]))
    return {"cofaces_queries": checked, "finds": len(kept["graphmem", "find"]), "faces": len(kept["graphmem", "faces"])}


def ratios(result: dict) -> list[dict]:
    """graphmem's time / each other system's time, per operation and N (< 1: graphmem faster).
    Batch insert compares time per simplex (the inverse of throughput)."""
    rows = []
    for stage in result["by_n"]:
        ops = stage["ops"]
        for op in OPERATIONS:
            mine = ops["graphmem"].get(op, {})
            if not mine.get("n"):
                continue
            row = {"n": stage["n"], "op": op}
            for other in SYSTEMS[1:]:
                theirs = ops[other].get(op, {})
                if not theirs.get("n"):
                    continue
                if op == "insert_batch":
                    row[other] = theirs["per_s"] / mine["per_s"]
                else:
                    row[other] = mine["p50_ms"] / theirs["p50_ms"]
                    row[other + "_p95"] = mine["p95_ms"] / theirs["p95_ms"]
            rows.append(row)
    return rows
