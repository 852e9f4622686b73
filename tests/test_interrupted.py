"""An ingest interrupted after any statement, then run again, leaves exactly the graph an
uninterrupted run leaves: same entities (names, kinds, aliases, embeddings), mentions,
relations, simplices with their counts and witnesses, term frequencies and sentences.

The transcript is made to be resolved differently from a half-written state: "Mel" is
Melanie's short name only while "Mell Stone", met in the same batch, is not yet known."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem import Settings
from graphmem.ingest import ingest
from graphmem.models import Models
from graphmem.store import Store
from graphmem.vectors import as_param
from interrupt import interrupt

TRANSCRIPT = """\
## 8 May 2023
Melanie: I took the kids to the lake with Caroline yesterday.
Caroline: Mel, the lake near Portland is lovely. Did Oscar swim?
Melanie: Oscar swam all afternoon while Caroline painted.
Caroline: I sold a painting to a gallery in Seattle last week. Mell Stone bought one too.

## 20 May 2023
Mel: Caroline, my sister Anna visited us from Boston.
Caroline: How is Anna? Is she still at Harvard?
Melanie: Anna finished at Harvard and moved to Denver with Oscar's cousin Liam.
Caroline: Liam and Anna should come to Portland in June.

## 2 June 2023
Melanie: Liam started a bakery in Denver. Anna helps on weekends.
Caroline: I want to paint the bakery in Denver some day.
"""


def graph(mem, user) -> dict:
    q = mem.driver.run
    u = {"u": user}
    return {
        "entities": sorted((r["name"], r["kind"], tuple(sorted(r["aliases"] or [])), r["frequency"], r["embedded"])
                           for r in q("MATCH (e:Entity {user_id: $u}) RETURN e.name AS name, e.kind AS kind, "
                                      "e.aliases AS aliases, e.frequency AS frequency, "
                                      "e.embedding IS NOT NULL AS embedded", u)),
        "mentions": sorted((r["m"], r["e"]) for r in q(
            "MATCH (m:Memory {user_id: $u})-[:MENTIONS]->(e:Entity) RETURN m.source_id AS m, e.name AS e", u)),
        "relations": sorted((r["a"], r["label"], r["b"], r["m"]) for r in q(
            "MATCH (a:Entity {user_id: $u})-[r:RELATES]->(b:Entity) MATCH (m:Memory {user_id: $u, uid: r.memory}) "
            "RETURN a.name AS a, r.label AS label, b.name AS b, m.source_id AS m", u)),
        "simplices": sorted((s.names, s.kind, s.count, tuple(sorted(source(mem, user, s.witnesses))))
                            for s in mem.complex(user).simplices()),
        "terms": sorted((r["w"], r["df"], r["n"]) for r in q(
            "MATCH (t:Term {user_id: $u}) OPTIONAL MATCH (t)<-[h:HAS_TERM]-(:Memory) "
            "RETURN t.word AS w, t.df AS df, count(h) AS n", u)),
        "sentences": sorted((r["m"], r["n"]) for r in q(
            "MATCH (m:Memory {user_id: $u})-[:HAS_SENTENCE]->(s:Sentence) WHERE s.embedding IS NOT NULL "
            "RETURN m.source_id AS m, s.n AS n", u)),
        "memories": sorted((r["m"], r["complete"], r["embedded"]) for r in q(
            "MATCH (m:Memory {user_id: $u}) RETURN m.source_id AS m, m.complete AS complete, "
            "m.embedding IS NOT NULL AS embedded", u)),
        "stats": {k: v for k, v in mem.complex(user).stats().items() if k != "user"},
    }


def source(mem, user, uids) -> list[str]:
    rows = mem.driver.run("UNWIND $uids AS uid MATCH (m:Memory {user_id: $u, uid: uid}) RETURN m.source_id AS s",
                          {"u": user, "uids": list(uids)})
    return [r["s"] for r in rows]


@pytest.mark.slow
def test_an_ingest_interrupted_after_any_statement_then_rerun_gives_the_clean_graph(mem, backend, tmp_path):
    path = tmp_path / "chat.txt"
    path.write_text(TRANSCRIPT)
    settings = Settings(**{**{f: getattr(mem.settings, f) for f in ("uri", "home", "graph")}, "ingest_batch": 4})
    store, models = Store(mem.driver, settings), Models(settings)
    reference = f"clean-{backend}-{tmp_path.name}"
    ingest(store, models, path, user=reference)
    want = graph(mem, reference)
    assert mem.complex(reference).verify() == []

    statements = []
    mem.driver.tracer = lambda query, params: statements.append(query)
    try:
        ingest(store, models, path, user=f"{reference}-count")
    finally:
        mem.driver.tracer = None
    points = range(1, len(statements))  # after each statement but the last
    failures = []
    for point in points:
        user = f"{reference}-{point}"
        interrupt(mem.driver, lambda: ingest(store, models, path, user=user), point)  # the lease is given back
        ingest(store, models, path, user=user)
        got = graph(mem, user)
        if got != want or mem.complex(user).verify():
            failures.append((point, statements[point].split("\n")[0][:60],
                             {k for k in want if got[k] != want[k]}, mem.complex(user).verify()[:2]))
    assert failures == [], failures


def test_entities_an_unfinished_ingest_created_are_invisible_until_used_then_pruned(mem, user):
    import time

    cx = mem.complex(user)
    cx.ensure_entities(["Settled"])
    cx.ensure_entities(["Half Written", "Used Later"], pending=True)
    catalog = {r["name"] for r in mem.run("entity_catalog", user_id=user)}
    assert catalog == {"Settled"}  # resolution never sees what an unfinished batch wrote
    vid = cx.ensure_entities(["Used Later"])["Used Later"]
    mem.driver.run("CREATE (m:Memory {user_id: $u, uid: 'm1', text: 'x'}) WITH m "
                   "MATCH (e:Entity {user_id: $u, vid: $v}) CREATE (m)-[:MENTIONS]->(e)", {"u": user, "v": vid})
    mem.run("complete_memories", user_id=user, entities=[],
            rows=[{"uid": "m1", "embedding": as_param(np.ones(mem.settings.embedding_dimensions)), "sentences": []}])
    assert {r["name"] for r in mem.run("entity_catalog", user_id=user)} == {"Settled", "Used Later"}
    mem.run("prune_entities", user_id=user, before=time.time() + 1)
    names = {r["name"] for r in mem.driver.run("MATCH (e:Entity {user_id: $u}) RETURN e.name AS name", {"u": user})}
    assert names == {"Settled", "Used Later"}  # the unused pending one is gone, nothing else


def test_unwitness_takes_back_a_memorys_mentions_relations_and_simplices(mem, user, tmp_path):
    path = tmp_path / "chat.txt"
    path.write_text(TRANSCRIPT)
    mem.ingest(path, user=user)
    cx = mem.complex(user)
    row = mem.driver.run("MATCH (m:Memory {user_id: $u, source_id: 'chat.txt:3'}) RETURN m.uid AS uid", {"u": user})[0]
    turn = [s for s in cx.simplices() if s.kind == "turn" and row["uid"] in s.witnesses]
    assert turn
    cx.unwitness([row["uid"]])
    q = {"u": user, "uid": row["uid"]}
    assert mem.driver.run("MATCH (m:Memory {user_id: $u, uid: $uid})-[r:MENTIONS]->() RETURN count(r) AS n", q)[0]["n"] == 0
    assert mem.driver.run("MATCH ()-[r:RELATES {memory: $uid}]->() RETURN count(r) AS n", q)[0]["n"] == 0
    assert not [s for s in cx.simplices() if row["uid"] in s.witnesses]
    assert all(p["key"] == row["uid"] or "session" in p["problem"] for p in cx.verify())  # the trie stays sound


@pytest.mark.slow
def test_concurrent_ingests_of_one_file_count_only_what_each_added(mem, backend, tmp_path):
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    if backend != "falkordb":
        pytest.skip("drives the embedded server through the CLI")
    path = tmp_path / "chat.txt"
    path.write_text(TRANSCRIPT)
    user = f"together-{tmp_path.name}"
    env = {**os.environ, "GRAPHMEM_HOME": str(mem.settings.home), "GRAPHMEM_INGEST_BATCH": "2"}
    command = [str(Path(sys.executable).parent / "graphmem"), "ingest", str(path), "--user", user, "--json"]
    procs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(3)]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [err[-300:] for _, err in outputs]
    added = sum(json.loads(out)["memories_added"] for out, _ in outputs)
    stored = mem.driver.run("MATCH (m:Memory {user_id: $u}) RETURN count(m) AS n", {"u": user})[0]["n"]
    assert added == stored == TRANSCRIPT.count(": ")
    assert mem.complex(user).verify() == []


def test_the_user_lease_admits_one_ingest_and_frees_itself_when_its_holder_dies(mem, user):
    def take(token, now, stale=None):
        return mem.run("lock_user", user_id=user, token=token, now=now, until=now + 120, holder=f"h-{token}",
                       stale=stale)[0]

    assert take("a", 1000.0)["held"] and take("a", 1010.0)["held"]  # taken, then renewed by its holder
    refused = take("b", 1020.0)
    assert not refused["held"] and (refused["token"], refused["holder"]) == ("a", "h-a")  # held by another
    assert take("b", 1200.0)["held"]  # a's lease ran out (its holder died): b takes over
    assert mem.run("unlock_user", user_id=user, token="a")[0]["released"] == 0  # a no longer holds it
    assert mem.run("unlock_user", user_id=user, token="b")[0]["released"] == 1
    assert take("c", 1201.0)["held"]
    assert not take("d", 1202.0, stale="a")["held"]  # a stale token that no longer holds it frees nothing
    assert take("d", 1203.0, stale="c")["held"]  # c's holder is known gone: d takes over at once


HOLD = """\
import os, signal, sys
from graphmem import Memory, Settings
from graphmem.ingest.lease import UserLease
mem = Memory(settings=Settings(home=sys.argv[1]))
UserLease(mem.store, sys.argv[2]).__enter__()
print("held", flush=True)
if sys.argv[3] == "die":
    os.kill(os.getpid(), signal.SIGKILL)
sys.stdin.read()
"""


@pytest.mark.slow
def test_a_lease_whose_holder_was_killed_is_taken_at_once_and_a_live_holders_is_not(mem, backend, user):
    """A holder killed on this machine does not keep the user for the rest of its lease (two
    minutes): the next ingest asks whether its process runs. One that runs keeps it."""
    import subprocess
    import sys
    import time

    from graphmem.ingest.lease import LEASE_SECONDS, UserLease, _gone

    if backend != "falkordb":
        pytest.skip("a second process opens the embedded server")
    command = [sys.executable, "-c", HOLD, str(mem.settings.home), user]
    alive = subprocess.Popen([*command, "live"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert alive.stdout.readline().strip() == "held"
        row = mem.run("lock_user", user_id=user, token="mine", now=time.time(), until=time.time() + 60,
                      holder="elsewhere#1", stale=None)[0]
        assert not row["held"] and not _gone(row["holder"], row["token"])  # its process runs: wait for it
    finally:
        alive.communicate("")  # it ends without giving the lease back
    killed = subprocess.run([*command, "die"], capture_output=True, text=True)
    assert killed.stdout.strip() == "held" and killed.returncode == -9
    started = time.monotonic()
    with UserLease(mem.store, user) as lease:
        waited = time.monotonic() - started
    assert lease.unfinished  # what the killed holder left is finished by the next writer
    assert waited < LEASE_SECONDS / 4, f"waited {waited:.0f}s for the lease of a holder that was gone"


@pytest.mark.slow
def test_concurrent_ingests_of_two_files_give_a_sequential_runs_graph(mem, backend, tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    if backend != "falkordb":
        pytest.skip("drives the embedded server through the CLI")
    first, second = TRANSCRIPT.split("\n\n## 20 May 2023\n")
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(first + "\n")
    b.write_text("## 20 May 2023\n" + second.replace("Mel:", "Melanie:"))
    together = f"both-{tmp_path.name}"
    env = {**os.environ, "GRAPHMEM_HOME": str(mem.settings.home), "GRAPHMEM_INGEST_BATCH": "2"}
    graphmem = str(Path(sys.executable).parent / "graphmem")
    procs = [subprocess.Popen([graphmem, "ingest", str(p), "--user", together], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for p in (a, b)]
    assert [p.wait(timeout=300) for p in procs] == [0, 0], [p.stderr.read()[-300:] for p in procs]
    orders = []
    for name, files in (("ab", (a, b)), ("ba", (b, a))):
        for path in files:
            mem.ingest(path, user=f"{together}-{name}")
        orders.append(graph(mem, f"{together}-{name}"))
    assert graph(mem, together) in orders
