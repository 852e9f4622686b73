"""What supersession would link in real conversations, for a person to judge.

    python -m bench.supersession PATH... [--sample N]

PATH: LoCoMo files, BEAM conversation folders, or any transcript graphmem reads. Each
conversation's turns are parsed as ingest parses them and their claims (graphmem/ingest/
claims.py) settled in message order as the store settles them (graphmem/supersession.py
`chain`), without a database. Prints, per conversation, the turns, the claims and the
supersessions, then a sample of the supersessions with both texts: in conversations without
annotated updates every link shown is one to check by eye (a false one retires a fact that
still holds)."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from graphmem.ingest.claims import claims
from graphmem.ingest.extract import mentions
from graphmem.ingest.formats import read_transcript
from graphmem.ingest.turns import Turn
from graphmem.models import Models
from graphmem.settings import Settings
from graphmem.supersession import chain


def turns_of(path: Path) -> list[Turn]:
    if path.is_dir():
        from .beam import read_chat

        return read_chat(path)
    return read_transcript(path)


def links(turns: list[Turn], nlp) -> tuple[int, list[tuple[Turn, Turn, str]]]:
    """(how many claims, [(older turn, newer turn, slot)]) of a conversation."""
    speakers = list(dict.fromkeys(t.speaker for t in turns))
    groups: dict[tuple[str, str], list] = {}
    count = 0
    for i, (turn, doc) in enumerate(zip(turns, nlp.pipe(t.text for t in turns))):
        others = [s for s in speakers if s != turn.speaker]
        addressee = others[0] if len(others) == 1 else None
        for n, c in enumerate(claims(doc, turn.speaker, addressee, mentions(doc, turn.speaker, addressee))):
            count += 1
            row = {"uid": str(i), "at": None, "position": i, "n": n}
            groups.setdefault((c.subject.lower(), c.slot), []).append((row, c))
    found = []
    for (subject, slot), group in groups.items():
        for edge in chain((0, slot), group):
            found.append((turns[int(edge["older"])], turns[int(edge["newer"])], slot))
    return count, found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.supersession", description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--sample", type=int, default=10, help="supersessions shown (default 10)")
    args = parser.parse_args(argv)
    nlp = Models(Settings.from_env()).nlp()
    every = []
    for path in args.paths:
        turns = turns_of(path)
        count, found = links(turns, nlp)
        print(f"{path}: {len(turns)} turns, {count} claims, {len(found)} supersessions")
        every += found
    for older, newer, slot in random.Random(0).sample(every, min(args.sample, len(every))):
        print(f"--- {slot}\n  older: {older.text[:200]!r}\n  newer: {newer.text[:200]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
