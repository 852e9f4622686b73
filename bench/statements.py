"""Recall's statements as a git revision has them against the working tree's, in one process,
on one store.

    python -m bench.statements HOME --against REV NAME [NAME ...] [--questions 100] [--rounds 3]

HOME is a store the recall benchmark kept (`BENCH_RECALL_HOME=HOME python -m bench perf --only
recall`); NAME is an operation in cypher/ (recall_entity, recall_simplicial, ...), as REV and
the working tree have it for the store's dialect. The questions are the ones that benchmark asks
at the store's size (bench.beside.questions). Two measurements, each alternating which form goes
first, so that the machine's drift falls on both alike:

- end to end: every question recalled with REV's statements and with the working tree's
  (`--rounds` times), p50 / p95 / p99 ms of recall and of its channels, and how many answers
  were the same both ways (memories, scores, gaps, subcomplex);
- each statement alone: run with the parameters recall gave it for each question, p50 / p95 /
  mean ms of each form, and how many gave the same rows (the columns both return, floats at
  recall's SCORE_DECIMALS)."""

from __future__ import annotations

import argparse
import dataclasses
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

from graphmem import Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer
from graphmem.queries import Query, forms, load
from graphmem.recall.tuning import SCORE_DECIMALS
from graphmem.store import Store

from .beside import WARM, questions
from .recall import QUESTIONS, USER, _pcts

ROOT = Path(__file__).resolve().parent.parent


def text_at(rev: str, name: str, dialect: str) -> str:
    """The library's form of `name` for `dialect` at git revision `rev`."""
    for path in (f"cypher/{name}.{dialect}.cypher", f"cypher/{name}.cypher"):
        shown = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True)
        if shown.returncode == 0:
            return forms(shown.stdout, f"{path} at {rev}")[1]
    raise SystemExit(f"bench.statements: no cypher/{name}.cypher at {rev}")


class Swapped:
    """Store.query patched to give the `older` text of its names while `on`."""

    def __init__(self, older: dict[str, str]):
        self.older, self.on, self.given = older, False, Store.query

    def __enter__(self) -> "Swapped":
        given, swapped = self.given, self

        def query(self: Store, name: str) -> Query:
            found = given(self, name)
            return dataclasses.replace(found, text=swapped.older[name]) if swapped.on and name in swapped.older \
                else found

        Store.query = query  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        Store.query = self.given  # type: ignore[method-assign]


WAYS = ("before", "after")


def alternating(items: list, rounds: int) -> Iterator[tuple[Any, tuple[str, ...]]]:
    """Each item `rounds` times, with the order of the two ways it is run in, which alternates."""
    for r in range(rounds):
        for i, item in enumerate(items):
            yield item, WAYS[::-1] if (i + r) % 2 else WAYS


def end_to_end(mem: Memory, asked: list[str], swapped: Swapped, rounds: int) -> dict[str, Any]:
    wall: dict[str, list[float]] = {way: [] for way in WAYS}
    channels: dict[str, list[float]] = {way: [] for way in WAYS}
    same = 0
    for q, ways in alternating(asked, rounds):
        answers = {}
        for way in ways:
            swapped.on = way == "before"
            t0 = time.perf_counter()
            got = mem.recall(q, user=USER, k=10)
            wall[way].append((time.perf_counter() - t0) * 1000)
            channels[way].append(got.timings["channels"])
            answers[way] = repr(([(m.uid, m.score) for m in got.memories], [g.question for g in got.gaps],
                                 [str(s) for s in got.subcomplex]))
        same += answers["before"] == answers["after"]
    swapped.on = False
    return {"recalls": len(wall["after"]), "same_answers": same,
            **{way: {"recall": _pcts(wall[way]), "channels": _pcts(channels[way])} for way in WAYS}}


def captured(mem: Memory, asked: list[str], names: list[str]) -> dict[str, list[dict]]:
    """The parameters recall gives each of `names`, for each question."""
    found: dict[str, list[dict]] = {name: [] for name in names}
    given = Store.run

    def run(self: Store, name: str, **params: Any) -> list[dict]:
        if name in found:
            found[name].append({k: params[k] for k in self.query(name).params})
        return given(self, name, **params)

    Store.run = run  # type: ignore[method-assign]
    try:
        for q in asked:
            mem.recall(q, user=USER, k=10)
    finally:
        Store.run = given  # type: ignore[method-assign]
    return found


def each_alone(mem: Memory, older: dict[str, str], calls: dict[str, list[dict]], rounds: int) -> dict[str, Any]:
    out = {}
    for name, params in calls.items():
        texts = {"before": older[name], "after": load(name, mem.driver.dialect).text}
        ms: dict[str, list[float]] = {way: [] for way in WAYS}
        same = 0
        for p, ways in alternating(params, rounds):
            rows = {}
            for way in ways:
                t0 = time.perf_counter()
                rows[way] = mem.driver.run(texts[way], p, read_only=True, retry=True)
                ms[way].append((time.perf_counter() - t0) * 1000)
            same += _comparable(rows["before"], rows["after"]) == _comparable(rows["after"], rows["before"])
        out[name] = {"runs": len(ms["after"]), "same_rows": same, **{way: _pcts(ms[way]) for way in WAYS}}
    return out


def _comparable(rows: list[dict], other: list[dict]) -> list[dict]:
    """The columns both forms return, floats at recall's SCORE_DECIMALS (a sum's last bits
    follow the order it is added up in)."""
    shared = set(rows[0]) & set(other[0]) if rows and other else set()
    return [{k: round(v, SCORE_DECIMALS) if isinstance(v, float) else v for k, v in r.items() if k in shared}
            for r in rows]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.statements", description=__doc__.split("\n\n")[0])
    parser.add_argument("home", type=Path, help="a store kept by the recall benchmark")
    parser.add_argument("names", nargs="+", help="operations in cypher/ to compare")
    parser.add_argument("--against", required=True, metavar="REV", help="the git revision to compare with")
    parser.add_argument("--questions", type=int, default=QUESTIONS)
    parser.add_argument("--rounds", type=int, default=3, help="times each question is asked each way")
    args = parser.parse_args(argv)
    mem = Memory(settings=Settings(home=args.home, count_accesses=False))
    try:
        older = {name: text_at(args.against, name, mem.driver.dialect) for name in args.names}
        n = mem.complex(USER).stats()["memories"]
        ready = getattr(mem.driver, "wait_for_indexes", None)
        if ready is not None:
            ready(600.0)
        asked = questions(n, args.questions)
        for q in (asked * WARM)[:WARM]:
            mem.recall(q, user=USER, k=10)  # untimed: caches, the server's pages
        with Swapped(older) as swapped:
            whole = end_to_end(mem, asked, swapped, args.rounds)
        alone = each_alone(mem, older, captured(mem, asked, args.names), args.rounds)
    finally:
        mem.close()
        EmbeddedServer(args.home).stop()
    print(f"recall k=10 at {n:,} memories, {len(asked)} questions; cypher at {args.against} (before) against "
          f"the working tree (after), alternating:")
    for way in WAYS:
        r, c = whole[way]["recall"], whole[way]["channels"]
        print(f"  {way:6s} recall p50 {r['p50_ms']:6.1f}  p95 {r['p95_ms']:6.1f}  p99 {r['p99_ms']:6.1f} ms;  "
              f"channels p50 {c['p50_ms']:5.1f}  p95 {c['p95_ms']:5.1f}")
    print(f"  the same answer both ways: {whole['same_answers']} of {whole['recalls']}")
    for name, got in alone.items():
        print(f"  {name}: " + ";  ".join(f"{way} p50 {got[way]['p50_ms']:.2f} p95 {got[way]['p95_ms']:.2f} "
                                        f"mean {got[way]['mean_ms']:.2f}" for way in WAYS)
              + f" ms;  the same rows {got['same_rows']} of {got['runs']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
