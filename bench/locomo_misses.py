"""Where graphmem misses a LoCoMo category's evidence: never a candidate, or a candidate ranked
below k. Run on the store a `graphmem bench locomo ... --home DIR` run left behind:
`python -m bench.locomo_misses DIR ../shared/data/locomo/locomo10_v2/*.json [--category 1]`."""

from __future__ import annotations

import argparse

from graphmem import Memory, Settings
from bench.locomo import evidence_misses

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("home", help="the --home of a `graphmem bench locomo` run")
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--category", type=int, default=1, help="1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop")
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    memory = Memory(settings=Settings(home=args.home))
    for what, n in evidence_misses(memory, args.paths, args.category, args.k).items():
        print(f"{what}: {n}")
