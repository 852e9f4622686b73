"""Writing a planned batch: idempotent statements in dependency order, the memories marked
complete last, so that an interrupted batch is redone whole by the next run."""

from __future__ import annotations

from ..complex import Complex, Observation
from ..store import Store
from .plan import BatchPlan
from .summary import IngestSummary, Stopwatch


def write_batch(store: Store, cx: Complex, plan: BatchPlan, summary: IngestSummary, clock: Stopwatch) -> None:
    user = cx.user
    with clock("write"):
        cx.unwitness(plan.uids)  # what an interrupted run wrote of these memories: they are written anew
        names = {e["norm"]: e["name"] for e in plan.entities}
        by_name = cx.ensure_entities(list(names.values()), {e["name"]: e["kind"] for e in plan.entities},
                                     pending=True)
        vid = {norm: by_name[name] for norm, name in names.items()}
        rows = [{**row, "mentions": sorted(vid[n] for n in row["mentions"])} for row in plan.rows]
        written = store.run("ingest_memories", user_id=user, memories=rows)[0]
        summary.mentions += written["mentions"]
        summary.memories_added += written["added"]
        store.run("ingest_terms", user_id=user, postings=plan.postings)
        store.run("set_memory_embeddings", user_id=user,
                  rows=[{"uid": uid, "embedding": v, "sentences": sentences}
                        for uid, v, sentences in zip(plan.uids, plan.vectors, plan.sentences)])
        if plan.relations:
            relations = [{"subject": vid[a], "object": vid[b], "label": label, "memory": uid}
                         for a, label, b, uid in plan.relations]
            summary.relations += store.run("ingest_relations", user_id=user, relations=relations)[0]["relations"]
        if plan.words:
            observations = [Observation([vid[n] for n in norms], kind="turn", witnesses=[uid], at=at)
                            for norms, uid, at in plan.words]
            summary.turn_simplices += len(cx.insert_many(observations))
        embedded = [{"vid": vid[e["norm"]], "embedding": e["vector"]} for e in plan.entities if e["vector"]]
        if embedded:
            store.run("set_entity_embeddings", user_id=user, rows=embedded)
        store.run("update_entities", user_id=user,
                  entities=[{"vid": vid[e["norm"]], "aliases": e["aliases"]} for e in plan.entities])
        store.run("complete_memories", user_id=user, uids=plan.uids)


def finish(store: Store, cx: Complex, sessions: set[str], started: float, summary: IngestSummary,
           clock: Stopwatch) -> None:
    """After every batch: one simplex per session read (known turns' sessions too: a run killed
    before this step left them unwitnessed; not all of the user's, so this step stays O(input)),
    the user's memory count, the time-window simplices when configured, and the entities an
    interrupted run created and this one did not use."""
    with clock("session simplices"):
        store.run("prune_entities", user_id=cx.user, before=started)
        summary.session_simplices = cx.witness("session", sessions=sessions)
        store.run("count_memories", user_id=cx.user)
        if store.settings.witness_window > 0:
            cx.witness("window", store.settings.witness_window)
