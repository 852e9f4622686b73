"""The command line of a benchmark over sets written as JSON Lines (`bench.updates`,
`bench.histories`): every file checked before anything is written, one store for all (a fresh
temporary one unless --home), each set measured into a table, and what it got wrong on
request; with --typographic, every text with its apostrophes as phones and word processors
type them ("I’m", "Joe’s"), the words otherwise the same."""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterable, Sequence

from graphmem import Memory, Settings
from graphmem.errors import InputError

# A set's path and the store -> the lines of its table, and the items it got wrong
Measure = Callable[[Memory, Path], tuple[Iterable[str], Sequence[str]]]
# An apostrophe inside a word, or after a plural's s: the ones a phone types as "’"
APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)|(?<=s)'(?=\s)")


def typographic(value: object) -> object:
    """A set's JSON value with the apostrophes of every text in it typographic."""
    if isinstance(value, str):
        return APOSTROPHE.sub("\u2019", value)
    if isinstance(value, list):
        return [typographic(v) for v in value]
    if isinstance(value, dict):
        return {k: typographic(v) for k, v in value.items()}
    return value


def _typed_on_a_phone(path: Path, into: Path) -> Path:
    """A copy of a set, in `into` under the same name, its texts `typographic`."""
    copy = into / path.name
    lines = (json.dumps(typographic(json.loads(line)), ensure_ascii=False)
             for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    copy.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return copy


def run_sets(argv: list[str] | None, *, prog: str, description: str, default: Sequence[Path],
             read: Callable[[Path], object], header: str, measure: Measure, wrong: str) -> int:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("paths", nargs="*", type=Path, default=list(default), metavar="FILE")
    parser.add_argument("--home", type=Path, help="embedded database directory (default: a fresh temporary one)")
    parser.add_argument("--wrong", action="store_true", help=f"list the {wrong} recall answers wrongly")
    parser.add_argument("--typographic", action="store_true",
                        help="every text with its apostrophes typographic (\u2019), as phones type them")
    args = parser.parse_args(argv)
    try:
        for path in args.paths:  # every file checked before anything is written
            read(path)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix=f"graphmem-{prog.rsplit('.', 1)[-1]}-") as tmp:
        paths = args.paths
        if args.typographic:
            (Path(tmp) / "typed").mkdir()
            paths = [_typed_on_a_phone(path, Path(tmp) / "typed") for path in paths]
        with Memory(settings=Settings.from_env(home=args.home or Path(tmp))) as mem:
            print(header)
            for path in paths:
                table, wrongly = measure(mem, path)
                print("\n".join(table))
                if args.wrong:
                    print("\n".join(f"    {line}" for line in wrongly))
    return 0
