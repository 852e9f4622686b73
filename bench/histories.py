"""Small stores: one user's messages on several topics, some facts changed, questions asked after.

    python -m bench.histories [FILE...] [--home DIR] [--wrong] [--typed typographic|unmarked]

FILE: JSON Lines of histories, each {"user": ID, "messages": [{"at": ISO TIME, "text": TEXT}, ...],
"questions": [{"question": TEXT, "answer": [INDEX, ...], "kind": KIND}, ...]} (default: the sets
in tests/data written by people who never saw the code). An answer is the 0-based index of a
message that answers the question as things stand after the last message. Kinds:

- current: a fact that a later message changed, asked as it stands now (the newer message);
- past: the same fact asked as it was before (the older message);
- unchanged: a fact no message changed, while messages on other topics tell changes (a move, a
  migration, a new job): none of them may go above it;
- lookalike: a fact a later message seems to update and does not (someone else's, another thing
  of the same kind, only considered, for one day): the original message.

The pair sets of `bench.updates` hold two messages a user; here a user holds a dozen, as an
agent's memory does in its first weeks, so a change told about one thing is there to be taken
for a version of another. Each history's messages are added one by one, as an agent adds them,
into a user of its own; each question is asked at the time of the last message. Printed per set
and kind: how often recall's first memory is an answer, next to Dense (the message nearest the
question by the same embedding, in the same run). `--typed` types every text as many people do:
its apostrophes as a phone types them ("I’m"), or its contractions unmarked ("im", "dont").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from graphmem import Memory
from graphmem.errors import InputError

from .sets import run_sets

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
# A-H in the order they were written; C, D and E were kept outside the repository and are lost
UNSEEN = tuple(DATA / f"histories_unseen_{suffix}.jsonl" for suffix in ("a", "b", "f", "g", "h"))
KINDS = ("current", "past", "unchanged", "lookalike")
SPEAKER = "user"


@dataclass
class HistoryFigures:
    """Counts per kind over one set of histories; `wrong` holds the questions recall answered wrongly."""
    name: str
    asked: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    answered: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    dense: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    wrong: list[str] = field(default_factory=list)

    def share(self, counts: dict[str, int], kind: str | None = None) -> float:
        kinds = KINDS if kind is None else (kind,)
        return sum(counts[k] for k in kinds) / max(1, sum(self.asked[k] for k in kinds))


def read_histories(path: Path) -> list[dict]:
    """The histories of a JSON Lines file, each checked; a bad line is an InputError that names
    the file and the line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read histories: {exc}", source=str(path)) from None
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            history = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not JSON ({exc.msg})", source=str(path), line=n) from None
        messages = history.get("messages") if isinstance(history, dict) else None
        if not isinstance(messages, list) or not messages or not all(
                isinstance(m, dict) and isinstance(m.get("text"), str) and m["text"].strip()
                and isinstance(m.get("at"), str) for m in messages):
            raise InputError('a history needs "messages": [{"at": TIME, "text": TEXT}, ...]', source=str(path), line=n)
        try:
            for m in messages:
                m["at"] = datetime.fromisoformat(m["at"].replace("Z", "+00:00"))
        except ValueError as exc:
            raise InputError(f"a message's time is not ISO 8601 ({exc})", source=str(path), line=n) from None
        for q in history.get("questions") or []:
            if not (isinstance(q, dict) and isinstance(q.get("question"), str) and q.get("kind") in KINDS
                    and isinstance(q.get("answer"), list) and q["answer"]
                    and all(isinstance(i, int) and 0 <= i < len(messages) for i in q["answer"])):
                raise InputError(f'a question needs "question", "kind" (one of {", ".join(KINDS)}) and "answer": '
                                 "indexes of its messages", source=str(path), line=n)
        out.append(history)
    return out


def measure(mem: Memory, path: Path, user: str, dense: bool = True) -> HistoryFigures:
    """Each history of `path` added into a user of its own (`user`-N), and its questions asked
    (with `dense`, each also answered by Dense)."""
    figures = HistoryFigures(path.stem)
    embedder = mem.models.embedder() if dense else None
    for i, history in enumerate(read_histories(path)):
        who = f"{user}-{i}"
        ids = [mem.add([(SPEAKER, m["text"])], user=who, at=m["at"]).memory_ids[0] for m in history["messages"]]
        vectors = embedder.embed([m["text"] for m in history["messages"]]) if embedder is not None else None
        last = history["messages"][-1]["at"]
        for q in history["questions"]:
            kind, wanted = q["kind"], {ids[j] for j in q["answer"]}
            got = mem.recall(q["question"], user=who, k=10, asked_at=last).memories
            figures.asked[kind] += 1
            right = bool(got) and got[0].uid in wanted
            figures.answered[kind] += right
            if embedder is not None and vectors is not None:
                nearest = int((vectors @ embedder.embed([q["question"]])[0]).argmax())
                figures.dense[kind] += nearest in q["answer"]
            if not right:
                first = got[0].text if got else "nothing"
                figures.wrong.append(f"{kind}: {q['question']} | wanted {history['messages'][q['answer'][0]]['text']!r}"
                                     f" | first {first!r}")
    return figures


def _table(mem: Memory, path: Path) -> tuple[list[str], list[str]]:
    f = measure(mem, path, path.stem)
    lines = []
    for kind in (*KINDS, None):
        n = sum(f.asked.values()) if kind is None else f.asked[kind]
        lines.append(f"{f.name if kind == KINDS[0] else '':24} {kind or 'all':>10} {n:>4}"
                     f" {f.share(f.answered, kind):>9.1%} {f.share(f.dense, kind):>7.1%}")
    return lines, f.wrong


def main(argv: list[str] | None = None) -> int:
    return run_sets(argv, prog="python -m bench.histories", description=__doc__.split("\n\n")[0], default=UNSEEN,
                    read=read_histories, header=f"{'set':24} {'kind':>10} {'n':>4} {'answered':>9} {'Dense':>7}",
                    measure=_table, wrong="questions")


if __name__ == "__main__":
    raise SystemExit(main())
