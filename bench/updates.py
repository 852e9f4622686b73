"""Facts that change, measured twice: linked at write time, and answered at recall.

    python -m bench.updates [FILE...] [--home DIR] [--wrong] [--typed typographic|unmarked]

FILE: JSON Lines of pairs, each {"kind": "update" | "unrelated", "older": TEXT, "newer": TEXT,
"question": TEXT} (default: the ten sets in tests/data written by people who never saw the
code). Each pair is said by the user to an agent, months apart, into a user of its own; then
its question is asked in the first person. For an update the question asks for the fact as the
newer message has it, for an unrelated pair for the older message's fact, which still holds.
Printed per set, next to Dense (the question's cosine to each message, in the same run):

- linked: updates the store links (newer SUPERSEDES older), and unrelated pairs it links
  either way (each a false supersession);
- answered: updates whose newer message recall ranks above the older, and unrelated pairs whose
  older message it ranks above the newer (a newer fact must not displace one that still holds).

`--wrong` lists the pairs recall answers wrongly; `--typed` types every text as many people do: its
apostrophes as a phone types them ("I’m"), or its contractions unmarked ("im", "dont").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from graphmem import Memory
from graphmem.errors import InputError

from .sets import run_sets

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
UNSEEN = tuple(DATA / f"updates_unseen{suffix}.jsonl"
               for suffix in ("", "_chat", "_mixed", "_contrast", "_implied", "_whose", "_varied", "_varied2",
                              "_people", "_passing"))
OLDER_AT, NEWER_AT = (datetime(2024, month, 5, 9, tzinfo=timezone.utc) for month in (1, 6))
SPEAKER = "user"


@dataclass
class PairFigures:
    """Counts over one set of pairs; `mislinked` holds the pairs linked wrongly (an update not
    linked, unrelated facts linked), `wrong` those recall answered wrongly."""
    name: str
    updates: int = 0
    unrelated: int = 0
    linked: dict[str, int] = field(default_factory=lambda: {"update": 0, "unrelated": 0})
    answered: dict[str, int] = field(default_factory=lambda: {"update": 0, "unrelated": 0})
    dense: dict[str, int] = field(default_factory=lambda: {"update": 0, "unrelated": 0})
    mislinked: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    def share(self, counts: dict[str, int], kind: str) -> float:
        return counts[kind] / max(1, self.updates if kind == "update" else self.unrelated)


def read_pairs(path: Path, ask: bool = True) -> list[dict]:
    """The pairs of a JSON Lines file, each checked (a `question` only when they are asked); a
    bad line is an InputError that names the file and the line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read pairs: {exc}", source=str(path)) from None
    pairs = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            pair = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not JSON ({exc.msg})", source=str(path), line=n) from None
        if not isinstance(pair, dict) or pair.get("kind") not in ("update", "unrelated"):
            raise InputError('a pair is an object whose "kind" is "update" or "unrelated"', source=str(path), line=n)
        for key in ("older", "newer", "question") if ask else ("older", "newer"):
            if not isinstance(pair.get(key), str) or not pair[key].strip():
                raise InputError(f"a pair needs {key!r} as non-empty text", source=str(path), line=n)
        pairs.append(pair)
    return pairs


def measure(mem: Memory, path: Path, user: str, ask: bool = True, dense: bool = True) -> PairFigures:
    """Each pair of `path` said into a user of its own (`user`-N), linked or not, and (with
    `ask`) its question asked, and (with `dense` too) the question's cosines to both messages
    counted for Dense."""
    figures = PairFigures(path.stem)
    pairs = read_pairs(path, ask)
    embedder = mem.models.embedder() if ask and dense else None
    for i, pair in enumerate(pairs):
        who, kind = f"{user}-{i}", pair["kind"]
        older = mem.add([(SPEAKER, pair["older"])], user=who, at=OLDER_AT).memory_ids[0]
        newer = mem.add([(SPEAKER, pair["newer"])], user=who, at=NEWER_AT).memory_ids[0]
        forward, backward = (any(v.uid == a and b in v.supersedes for v in mem.history(a, user=who))
                             for a, b in ((newer, older), (older, newer)))
        linked = forward and not backward if kind == "update" else forward or backward
        figures.linked[kind] += linked
        if kind == "update":
            figures.updates += 1
        else:
            figures.unrelated += 1
        if linked != (kind == "update"):
            figures.mislinked.append(f"{kind}: {pair['older']} -> {pair['newer']}")
        if not ask:
            continue
        wanted, other = (newer, older) if kind == "update" else (older, newer)
        ranked = [m.uid for m in mem.recall(pair["question"], user=who, k=10).memories]
        right = wanted in ranked and (other not in ranked or ranked.index(wanted) < ranked.index(other))
        figures.answered[kind] += right
        if embedder is not None:
            q, o, n = embedder.embed([pair["question"], pair["older"], pair["newer"]])
            figures.dense[kind] += (float(q @ n) > float(q @ o)) == (kind == "update")
        if not right:
            figures.wrong.append(f"{kind}: {pair['question']} | {pair['older']} | {pair['newer']}")
    return figures


def _table(mem: Memory, path: Path) -> tuple[list[str], list[str]]:
    f = measure(mem, path, path.stem)
    lines = []
    for kind in ("update", "unrelated"):
        n = f.updates if kind == "update" else f.unrelated
        lines.append(f"{f.name if kind == 'update' else '':24} {kind:>9} {n:>4} {f.share(f.linked, kind):>8.1%}"
                     f" {f.share(f.answered, kind):>9.1%} {f.share(f.dense, kind):>7.1%}")
    return lines, f.wrong


def main(argv: list[str] | None = None) -> int:
    return run_sets(argv, prog="python -m bench.updates", description=__doc__.split("\n\n")[0], default=UNSEEN,
                    read=read_pairs, header=f"{'set':24} {'pairs':>9} {'n':>4} {'linked':>8} {'answered':>9} {'Dense':>7}",
                    measure=_table, wrong="pairs")


if __name__ == "__main__":
    raise SystemExit(main())
