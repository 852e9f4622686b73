"""The command line of a benchmark over sets written as JSON Lines (`bench.updates`,
`bench.histories`): every file checked before anything is written, one store for all (a fresh
temporary one unless --home), each set measured into a table, and what it got wrong on
request."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterable, Sequence

from graphmem import Memory, Settings
from graphmem.errors import InputError

# A set's path and the store -> the lines of its table, and the items it got wrong
Measure = Callable[[Memory, Path], tuple[Iterable[str], Sequence[str]]]


def run_sets(argv: list[str] | None, *, prog: str, description: str, default: Sequence[Path],
             read: Callable[[Path], object], header: str, measure: Measure, wrong: str) -> int:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("paths", nargs="*", type=Path, default=list(default), metavar="FILE")
    parser.add_argument("--home", type=Path, help="embedded database directory (default: a fresh temporary one)")
    parser.add_argument("--wrong", action="store_true", help=f"list the {wrong} recall answers wrongly")
    args = parser.parse_args(argv)
    try:
        for path in args.paths:  # every file checked before anything is written
            read(path)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix=f"graphmem-{prog.rsplit('.', 1)[-1]}-") as tmp:
        with Memory(settings=Settings.from_env(home=args.home or Path(tmp))) as mem:
            print(header)
            for path in args.paths:
                table, wrongly = measure(mem, path)
                print("\n".join(table))
                if args.wrong:
                    print("\n".join(f"    {line}" for line in wrongly))
    return 0
