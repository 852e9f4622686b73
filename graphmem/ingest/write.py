"""Writing a planned batch: idempotent statements in dependency order, the memories marked
complete last, so that an interrupted batch is redone whole by the next run. The vectors go
in that last statement, after everything else the batch sets on their nodes: FalkorDB
re-inserts a node's vector into its index whenever anything on the node changes."""

from __future__ import annotations

import logging

from ..complex import Complex, Observation
from ..errors import BackendUnavailable
from ..store import Store
from ..supersession import settle
from .plan import BatchPlan
from .summary import IngestSummary, Stopwatch

log = logging.getLogger(__name__)


ATTEMPTS = 3  # a batch whose server died under it is written again, whole, this many times in all


def write_batch(store: Store, cx: Complex, plan: BatchPlan, summary: IngestSummary, clock: Stopwatch) -> None:
    """Write the batch; when the server is lost under it (the embedded one comes back on its
    own), write it again from the start: the batch as a whole is idempotent. The summary
    counts only the attempt that finished."""
    with clock("write"):
        for attempt in range(1, ATTEMPTS + 1):
            try:
                counts = _write(store, cx, plan, again=attempt > 1)
                break
            except BackendUnavailable as exc:
                if attempt == ATTEMPTS:
                    raise
                log.warning("writing a batch of %d memories failed (%s); writing it again", len(plan.uids), exc)
                cx.clear_cache()  # a crash may have lost the last entities written
    for name, value in counts.items():
        setattr(summary, name, getattr(summary, name) + value)


def _write(store: Store, cx: Complex, plan: BatchPlan, again: bool) -> dict[str, int]:
    user = cx.user
    counts = {"mentions": 0, "memories_added": 0, "relations": 0, "turn_simplices": 0}
    if again or not plan.fresh:  # what an interrupted run wrote of these memories: they are written anew
        cx.unwitness(plan.uids)
    names = {e["norm"]: e["name"] for e in plan.entities}
    by_name = cx.ensure_entities(list(names.values()), {e["name"]: e["kind"] for e in plan.entities}, pending=True)
    vid = {norm: by_name[name] for norm, name in names.items()}
    rows = [{**row, "mentions": sorted(({"vid": vid[n], "names": names, "kind": row["read_as"][n]}
                                        for n, names in row["mentions"].items()), key=lambda m: m["vid"])}
            for row in plan.rows]
    written = store.run("ingest_memories", user_id=user, memories=rows)[0]
    counts["mentions"], counts["memories_added"] = int(written["mentions"]), int(written["added"])
    store.run("ingest_terms", user_id=user, postings=plan.postings)
    if plan.claims or again or not plan.fresh:  # a retry's earlier claims are replaced
        claims = [{**c, "subject": vid[c["subject"]]} for c in plan.claims]
        counts["claims"] = store.run("ingest_claims", user_id=user, uids=plan.uids, claims=claims)[0]["claims"]
        counts["supersessions"] = settle(store, user, {(c["subject"], c["slot"]) for c in claims})
    if plan.relations:
        relations = [{"subject": vid[a], "object": vid[b], "label": label, "memory": uid}
                     for a, label, b, uid in plan.relations]
        counts["relations"] = store.run("ingest_relations", user_id=user, relations=relations)[0]["relations"]
    if plan.words:
        observations = [Observation([vid[n] for n in norms], kind="turn", witnesses=[uid], at=at)
                        for norms, uid, at in plan.words]
        counts["turn_simplices"] = len(cx.insert_many(observations))
    if again or not plan.fresh:  # what a retry's earlier attempt counted is counted again from the memories
        store.run("update_entities", user_id=user,
                  entities=[{"vid": vid[e["norm"]], "aliases": e["aliases"]} for e in plan.entities])
    else:
        store.run("count_mentions", user_id=user, entities=_mentions(plan, rows, vid))
    plan.embedded()  # last: the statements before need no vectors, so they may be computed meanwhile
    store.run("complete_memories", user_id=user,
              rows=[{"uid": uid, "embedding": v, "sentences": sentences}
                    for uid, v, sentences in zip(plan.uids, plan.vectors, plan.sentences)],
              entities=[{"vid": vid[e["norm"]], "embedding": e["vector"]} for e in plan.entities if e["vector"]])
    return counts


def _mentions(plan: BatchPlan, rows: list[dict], vid: dict[str, int]) -> list[dict]:
    """Per entity of the batch: its aliases, how many of the batch's memories (`rows`, as
    written) mention it, and the earliest and latest of their times."""
    seen: dict[int, list[float]] = {}
    counts: dict[int, int] = {}
    for row in rows:
        for mention in row["mentions"]:
            counts[mention["vid"]] = counts.get(mention["vid"], 0) + 1
            if row["observed_at"] is not None:
                seen.setdefault(mention["vid"], []).append(row["observed_at"])
    out = []
    for e in plan.entities:
        v = vid[e["norm"]]
        times = seen.get(v)
        out.append({"vid": v, "aliases": e["aliases"], "mentions": counts.get(v, 0),
                    "first": min(times) if times else None, "last": max(times) if times else None})
    return out


def finish(store: Store, cx: Complex, sessions: set[str], started: float, summary: IngestSummary,
           clock: Stopwatch, prune: bool = True) -> None:
    """After every batch: one simplex per session read (known turns' sessions too: a run killed
    before this step left them unwitnessed; not all of the user's, so this step stays O(input)),
    the user's memory count, the time-window simplices when configured, and (`prune`) the
    entities an interrupted run created and this one did not use."""
    with clock("session simplices"):
        if prune:  # an earlier ingest left the user unfinished: what it created and never used goes
            store.run("prune_entities", user_id=cx.user, before=started)
        summary.session_simplices = cx.rewitness_sessions(sessions) if sessions else 0
        store.run("count_memories", user_id=cx.user, force=False)
        if store.settings.witness_window > 0:
            cx.witness("window", store.settings.witness_window)
