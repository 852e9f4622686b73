"""python -m bench perf [--quick] [--out DIR] [--only SECTION]"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import DEFAULT_OUT, SECTIONS, perf


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description="graphmem benchmarks")
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("perf", help="speed of the simplex tree against the relational design and gudhi")
    p.add_argument("--quick", action="store_true", help="N up to 10^4 and fewer queries (under 5 minutes)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"where JSON and PNGs go (default {DEFAULT_OUT})")
    p.add_argument("--only", action="append", choices=[name for name, _ in SECTIONS], help="run only this section")
    args = parser.parse_args(argv)
    perf(quick=args.quick, out=args.out, only=args.only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
