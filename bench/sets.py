"""The command line of a benchmark over sets written as JSON Lines (`bench.updates`,
`bench.histories`): every file checked before anything is written, one store for all (a fresh
temporary one unless --home), each set measured into a table, and what it got wrong on
request; with --typed, every text typed as many people type it (TYPED), the words otherwise
the same."""

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
# How people type what the sets' writers typed with ASCII apostrophes: a phone's "’" for each
# apostrophe inside a word or after a plural's s; a hurried chat's contractions without theirs
# ("im", "dont", "ive", "youre", "whats"), possessives kept.
TYPED = {"typographic": (re.compile(r"(?<=\w)'(?=\w)|(?<=s)'(?=\s)"), "\u2019"),
         "unmarked": (re.compile(r"(?<=\w)'(?=(?:t|m|ve|re)\b)"
                                 r"|(?:(?<=\b[Tt]hat)|(?<=\b[Ww]hat)|(?<=\b[Tt]here))'(?=s\b)"), "")}


def typed(value: object, style: str) -> object:
    """A set's JSON value with every text in it typed in `style` (TYPED)."""
    if isinstance(value, str):
        pattern, by = TYPED[style]
        return pattern.sub(by, value)
    if isinstance(value, list):
        return [typed(v, style) for v in value]
    if isinstance(value, dict):
        return {k: typed(v, style) for k, v in value.items()}
    return value


def _typed_copy(path: Path, style: str, into: Path) -> Path:
    """A copy of a set, in `into` under the same name, its texts `typed` in `style`."""
    copy = into / path.name
    lines = (json.dumps(typed(json.loads(line), style), ensure_ascii=False)
             for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    copy.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return copy


def run_sets(argv: list[str] | None, *, prog: str, description: str, default: Sequence[Path],
             read: Callable[[Path], object], header: str, measure: Measure, wrong: str) -> int:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("paths", nargs="*", type=Path, default=list(default), metavar="FILE")
    parser.add_argument("--home", type=Path, help="embedded database directory (default: a fresh temporary one)")
    parser.add_argument("--wrong", action="store_true", help=f"list the {wrong} recall answers wrongly")
    parser.add_argument("--typed", choices=sorted(TYPED),
                        help="every text typed so: its apostrophes typographic (\u2019), as phones type them, or "
                             "its contractions unmarked (im, dont), as a hurried chat types them")
    args = parser.parse_args(argv)
    try:
        for path in args.paths:  # every file checked before anything is written
            read(path)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix=f"graphmem-{prog.rsplit('.', 1)[-1]}-") as tmp:
        paths = args.paths
        if args.typed:
            (Path(tmp) / "typed").mkdir()
            paths = [_typed_copy(path, args.typed, Path(tmp) / "typed") for path in paths]
        with Memory(settings=Settings.from_env(home=args.home or Path(tmp))) as mem:
            print(header)
            for path in paths:
                table, wrongly = measure(mem, path)
                print("\n".join(table))
                if args.wrong:
                    print("\n".join(f"    {line}" for line in wrongly))
    return 0
