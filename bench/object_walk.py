"""python -m bench.object_walk [--simplices N] [--entities E] [--queries Q]

Why graphmem's reads stay one Cypher statement each rather than objects of graphmem.ogm: an
entity's cofaces read the way an object mapper reads them (the entity's trie nodes, then each
node's children, one statement per node, as `SimplexNode.children.all()` sends in neomodel)
against `Complex.cofaces`, one statement. Both run on the embedded FalkorDB through graphmem's
driver (neomodel itself speaks Bolt to Neo4j only), over the same random complex; each walk's
result is checked against cofaces before it is timed."""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time

from graphmem import Memory
from graphmem.drivers.embedded import EmbeddedServer

NODES_OF = ("MATCH (e:Entity {user_id: $user, name: $name})<-[:LABEL]-(n:SimplexNode) "
            "RETURN id(n) AS id, n.count AS count, n.path AS path")
CHILDREN_OF = ("MATCH (c:SimplexNode)-[:PARENT]->(p:SimplexNode) WHERE id(p) = $id "
               "RETURN id(c) AS id, c.count AS count, c.path AS path")


def walk(mem: Memory, user: str, name: str) -> tuple[set[tuple[int, ...]], int]:
    """The stored simplices containing `name`, node by node; and the statements it took."""
    todo = mem.driver.run(NODES_OF, {"user": user, "name": name}, read_only=True)
    statements, found = 1, set()
    while todo:
        node = todo.pop()
        if node["count"] and node["count"] > 0:
            found.add(tuple(node["path"]))
        todo.extend(mem.driver.run(CHILDREN_OF, {"id": node["id"]}, read_only=True))
        statements += 1
    return found, statements


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.object_walk")
    parser.add_argument("--simplices", type=int, default=20_000)
    parser.add_argument("--entities", type=int, default=500)
    parser.add_argument("--queries", type=int, default=50)
    args = parser.parse_args()
    rng = random.Random(7)
    names = [f"e{i}" for i in range(args.entities)]
    home = tempfile.mkdtemp(prefix="graphmem-walk-")
    mem = Memory(home=home)
    try:
        cx = mem.complex("walk")
        cx.insert_many([rng.sample(names, rng.randint(2, 5)) for _ in range(args.simplices)])
        asked = rng.sample(names, args.queries)
        one, many, statements, sizes = [], [], [], []
        for name in asked:
            expected = {s.vids for s in cx.cofaces([name], witnesses=False)}
            found, count = walk(mem, "walk", name)
            assert found == expected, name
            start = time.perf_counter()
            cx.cofaces([name], witnesses=False)
            one.append(time.perf_counter() - start)
            start = time.perf_counter()
            walk(mem, "walk", name)
            many.append(time.perf_counter() - start)
            statements.append(count)
            sizes.append(len(expected))
        p50_one, p50_many = statistics.median(one) * 1e3, statistics.median(many) * 1e3
        print(f"{args.simplices} simplices over {args.entities} entities, {args.queries} entities asked; "
              f"cofaces per entity: median {statistics.median(sizes):.0f}")
        print(f"one statement (Complex.cofaces): p50 {p50_one:.1f} ms")
        print(f"node by node: p50 {p50_many:.1f} ms, {statistics.median(statements):.0f} statements "
              f"(median); {p50_many / p50_one:.0f}x")
    finally:
        mem.close()
        EmbeddedServer(home).stop()


if __name__ == "__main__":
    main()
