"""A memory's lifecycle: recall counts the memories it returns (in batches), and the maintenance
pass moves memories through active, warm, cold and archived by the rule of graphmem/lifecycle.py;
archived memories leave recall unless asked for, and are never deleted."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner

from graphmem import Memory, Settings, lifecycle
from graphmem.cli import main
from graphmem.errors import BackendUnavailable, InputError, UnknownUser

SAID = datetime(2025, 1, 1, 12, tzinfo=timezone.utc)
DAY = 86400.0


def _user() -> str:
    return f"life-{uuid.uuid4().hex[:10]}"


def _add(mem: Memory, user: str, texts: list[str], at: datetime = SAID) -> None:
    mem.add([("Sam", text) for text in texts], user=user, at=at)


def _states(mem: Memory, user: str) -> dict[str, str]:
    return {m.text: m.state for m in mem.memories(user, limit=None)}


# -- the rule ----------------------------------------------------------------------------


def test_the_rule_cools_with_disuse_slower_with_use_and_faster_when_superseded():
    s = Settings()
    said = 0.0

    def state(days: float, accesses: int = 0, superseded: bool = False, last: float | None = None) -> str:
        return lifecycle.state_of(said, last, accesses, superseded, said + days * DAY, s)

    assert [state(d) for d in (0, 13.9, 14, 59.9, 60, 364.9, 365, 5000)] == \
        ["active", "active", "warm", "warm", "cold", "cold", "archived", "archived"]
    assert state(20, accesses=1) == "active"  # 20 days over a use of 2: 10
    assert state(200, accesses=7) == "warm"  # 200 / 4 = 50
    assert state(400, accesses=1) == "cold"
    assert state(3, superseded=True) == "active"  # 3 * 4 = 12
    assert state(4, superseded=True) == "warm"  # 4 * 4 = 16
    assert state(6, superseded=True, accesses=1) == "active"  # 6 / 2 * 4 = 12
    assert state(100, superseded=True) == "archived"
    assert state(400, last=390 * DAY) == "active"  # recalled ten days ago
    assert lifecycle.state_of(None, None, 0, False, 1e10, s) == "active"  # no time known: never aged
    assert state(-3) == "active"  # a `now` before it was said
    # a standing instruction cools but is never archived, unless a newer one superseded it
    assert lifecycle.state_of(said, None, 0, False, 5000 * DAY, s, standing=True) == "cold"
    assert lifecycle.state_of(said, None, 0, True, 5000 * DAY, s, standing=True) == "archived"


def test_lifecycle_settings_are_checked():
    with pytest.raises(Exception, match="warm <= cold <= archive"):
        Settings(lifecycle_warm_days=90, lifecycle_cold_days=60).validate()
    with pytest.raises(Exception, match="superseded_speedup"):
        Settings(lifecycle_superseded_speedup=0.5).validate()


# -- accesses ----------------------------------------------------------------------------


def test_recall_counts_the_memories_it_returns_once_flushed(mem):
    user = _user()
    _add(mem, user, ["I live in Paris near the Louvre.", "My dog Rex chews slippers.", "I play chess on Sundays."])
    lifecycle.flush_accesses(mem.store)  # other tests' accesses out of the way
    returned = [mem.recall("Where do I live in Paris?", user=user, k=1).memories[0].uid for _ in range(3)]
    assert len(set(returned)) == 1
    lifecycle.flush_accesses(mem.store)  # what a background flush has not written yet
    counted = {m.id: m for m in mem.memories(user)}
    assert counted[returned[0]].accesses == 3
    assert counted[returned[0]].last_accessed is not None
    assert sorted(m.accesses for m in counted.values()) == [0, 0, 3]
    assert mem.get(returned[0], user=user).accesses == 3


def test_accesses_are_scoped_by_user(mem):
    one, two = _user(), _user()
    _add(mem, one, ["I live in Paris near the Louvre."])
    _add(mem, two, ["I live in Paris near the Louvre."])
    mem.recall("Where do I live?", user=one, k=1)
    lifecycle.flush_accesses(mem.store)
    assert [m.accesses for m in mem.memories(one)] == [1]
    assert [m.accesses for m in mem.memories(two)] == [0]


def _memory_properties(mem: Memory, user: str) -> dict[str, dict]:
    rows = mem.driver.run("MATCH (m:Memory {user_id: $user}) RETURN m.uid AS uid, properties(m) AS properties",
                          {"user": user}, read_only=True)
    return {row["uid"]: dict(row["properties"]) for row in rows}


def test_counting_writes_nothing_on_the_memory_itself(mem):
    """FalkorDB re-inserts a node's vector and full-text entries whenever any property of it is
    set (FalkorDB#2657): the counts live on the memory's RECALLED_FOR relationship to its user."""
    user = _user()
    _add(mem, user, ["I live in Paris near the Louvre.", "My dog Rex chews slippers."])
    lifecycle.flush_accesses(mem.store)
    before = _memory_properties(mem, user)
    [returned] = [m.uid for m in mem.recall("Where do I live in Paris?", user=user, k=1).memories]
    lifecycle.flush_accesses(mem.store)
    assert _memory_properties(mem, user) == before
    counts = mem.driver.run("MATCH (m:Memory {user_id: $user})-[r:RECALLED_FOR]->(u:User) "
                            "RETURN m.uid AS uid, u.id AS user, r.accesses AS accesses", {"user": user})
    assert counts == [{"uid": returned, "user": user, "accesses": 1}]


def test_accesses_an_older_graphmem_kept_on_the_memory_move_to_its_relationship_once(mem):
    user = _user()
    _add(mem, user, ["I live in Paris near the Louvre.", "My dog Rex chews slippers."])
    lifecycle.flush_accesses(mem.store)
    by_text = {m.text: m.id for m in mem.memories(user)}
    paris = by_text["I live in Paris near the Louvre."]
    last = (SAID + timedelta(days=3)).timestamp()
    mem.driver.run("MATCH (m:Memory {user_id: $user, uid: $uid}) "  # as graphmem wrote them before
                   "SET m.accesses = 3, m.last_accessed = $at, m.access_flush = 'an-old-flush'",
                   {"user": user, "uid": paris, "at": last})
    mem.driver.run("MATCH (done:Graphmem {layout: 'accesses'}) DELETE done", {})
    mem.store.install_schema()  # what opening the store does
    mem.store.install_schema()  # the second time, the marker: nothing counted twice
    assert {m.text: (m.accesses, m.last_accessed) for m in mem.memories(user)} == {
        "I live in Paris near the Louvre.": (3, SAID + timedelta(days=3)), "My dog Rex chews slippers.": (0, None)}
    assert not {"accesses", "last_accessed", "access_flush"} & set(_memory_properties(mem, user)[paris])
    mem.recall("Where do I live in Paris?", user=user, k=1)
    lifecycle.flush_accesses(mem.store)
    assert mem.get(paris, user=user).accesses == 4


def test_an_older_export_with_accesses_on_its_memories_imports_them(mem, tmp_path):
    user, copy = _user(), _user()
    _add(mem, user, ["I live in Paris near the Louvre.", "My dog Rex chews slippers."])
    mem.recall("Where do I live in Paris?", user=user, k=1)
    lifecycle.flush_accesses(mem.store)
    mem.export(user, tmp_path / "new.jsonl")
    # the same memory as an older graphmem exported it: the counts on the memory, no RECALLED_FOR
    header, *lines = [json.loads(line) for line in (tmp_path / "new.jsonl").read_text().splitlines()]
    recalled = {line["from"]: line["properties"] for line in lines if line.get("rel") == "RECALLED_FOR"}
    assert len(recalled) == 1
    old = [line for line in lines if line.get("rel") != "RECALLED_FOR"]
    for line in old:
        if line.get("node") in recalled:
            line["properties"].update(recalled[line["node"]], access_flush="an-old-flush")
    header["relationships"] -= 1
    (tmp_path / "old.jsonl").write_text("".join(json.dumps(line) + "\n" for line in [header, *old]))
    mem.import_(tmp_path / "old.jsonl", user=copy)

    def seen(who: str) -> list[tuple]:
        return sorted((m.text, m.accesses, m.last_accessed) for m in mem.memories(who, limit=None))

    assert seen(copy) == seen(user) and sum(m.accesses for m in mem.memories(copy)) == 1
    assert not any({"accesses", "access_flush"} & set(p) for p in _memory_properties(mem, copy).values())


def test_a_failed_flush_keeps_its_batch_and_a_batch_written_twice_counts_once(mem):
    user = _user()
    _add(mem, user, ["I live in Paris near the Louvre."])
    [memory] = mem.memories(user)
    log = lifecycle.AccessLog(mem.store)  # its own buffer: no background flush of the shared one interferes

    def server_gone(query: str, params: dict) -> None:
        if "RECALLED_FOR" in query and "$flush" in query:
            raise BackendUnavailable("lost FalkorDB (restarting)")

    log.note(user, [memory.id])
    mem.driver.tracer = server_gone
    try:
        with pytest.raises(BackendUnavailable):
            log.flush()
    finally:
        mem.driver.tracer = None
    assert log.pending() == 1 and mem.get(memory.id, user=user).accesses == 0
    log.note(user, [memory.id])  # a later recall: its own batch, after the kept one
    assert log.flush() == 2
    assert mem.get(memory.id, user=user).accesses == 2 and log.pending() == 0
    # the server may apply a batch whose answer was lost: written again under its id, it counts once
    row = {"uid": memory.id, "n": 5, "at": SAID.timestamp()}
    for _ in range(2):
        mem.run("record_accesses", user_id=user, flush="batch-1", accesses=[row])
    assert mem.get(memory.id, user=user).accesses == 7


def test_counting_can_be_turned_off(home):
    user = _user()
    with Memory(settings=Settings(home=home, count_accesses=False)) as quiet:
        _add(quiet, user, ["I live in Paris near the Louvre."])
        quiet.recall("Where do I live?", user=user, k=1)
        assert lifecycle.access_log(quiet.store).pending() == 0
    with Memory(settings=Settings(home=home)) as loud:
        loud.recall("Where do I live?", user=user, k=1)
        assert lifecycle.access_log(loud.store).pending() == 1
    with Memory(settings=Settings(home=home)) as later:  # the close above wrote it
        assert [m.accesses for m in later.memories(user)] == [1]


# -- the maintenance pass ----------------------------------------------------------------


def test_a_memory_moves_through_the_four_states_as_it_ages(mem):
    user = _user()
    _add(mem, user, ["I live in Paris near the Louvre."])
    steps = []
    for days in (10, 20, 100, 400):
        done = mem.maintain(user, now=SAID + timedelta(days=days))
        steps.append((done.transitions, done.states))
    assert steps == [({}, {"active": 1}), ({"active->warm": 1}, {"warm": 1}), ({"warm->cold": 1}, {"cold": 1}),
                     ({"cold->archived": 1}, {"archived": 1})]
    assert _states(mem, user) == {"I live in Paris near the Louvre.": "archived"}


def test_maintain_is_idempotent_and_a_dry_run_writes_nothing(mem):
    user = _user()
    _add(mem, user, ["I live in Paris near the Louvre.", "My dog Rex chews slippers."])
    _add(mem, user, ["I started learning the cello."], at=SAID + timedelta(days=310))
    now = SAID + timedelta(days=320)
    preview = mem.maintain(user, now=now, dry_run=True)
    assert preview.dry_run and preview.transitions == {"active->cold": 2} and preview.moved == 2
    assert set(_states(mem, user).values()) == {"active"}
    first = mem.maintain(user, now=now)
    assert first.transitions == preview.transitions and first.states == {"active": 1, "cold": 2}
    again = mem.maintain(user, now=now)
    assert again.moved == 0 and again.states == first.states and again.memories == 3


def test_a_superseded_memory_cools_faster(mem):
    """Superseded by the edge ingest writes (Berlin after Paris), or by an edge with no key (an
    older store's, written here by hand), which retires all the memory said."""
    user = _user()
    _add(mem, user, ["I live in Paris.", "The weather was lovely."])
    _add(mem, user, ["I moved to Berlin.", "We watched a film."], at=SAID + timedelta(days=1))
    by_text = {m.text: m.id for m in mem.memories(user)}
    mem.driver.run("MATCH (new:Memory {user_id: $u, uid: $new}), (old:Memory {user_id: $u, uid: $old}) "
                   "CREATE (new)-[:SUPERSEDES]->(old)", {"u": user, "new": by_text["We watched a film."],
                                                          "old": by_text["The weather was lovely."]})
    mem.maintain(user, now=SAID + timedelta(days=10))
    assert _states(mem, user) == {"I live in Paris.": "warm", "I moved to Berlin.": "active",
                                  "The weather was lovely.": "warm", "We watched a film.": "active"}


def test_a_standing_instruction_is_never_archived_and_still_applies_years_later(mem):
    """An instruction waits for the question it is about: archived, it would stop applying."""
    user = _user()
    mem.add("Always include version numbers when you recommend a library.", user=user, at=SAID)  # the user's
    _add(mem, user, ["My dog Rex chews slippers."])
    mem.maintain(user, now=SAID + timedelta(days=3000))
    assert _states(mem, user) == {"Always include version numbers when you recommend a library.": "cold",
                                  "My dog Rex chews slippers.": "archived"}
    got = mem.recall("Which library should I use to parse dates?", user=user, k=3)
    assert got.memories and got.memories[0].standing


def test_a_pass_planned_before_the_stores_first_supersession_sees_it(tmp_path):
    """FalkorDB caches a statement's plan, and one made while no SUPERSEDES relationship existed
    went on finding none once one did: on a store of its own (a shared one has them already),
    a pass over one user before another's fact changes, then a pass over that user."""
    with Memory(settings=Settings(home=tmp_path)) as fresh:
        _add(fresh, "first", ["My dog Rex chews slippers."])
        fresh.maintain("first", now=SAID + timedelta(days=10))
        _add(fresh, "second", ["I live in Paris."])
        _add(fresh, "second", ["I moved to Berlin."], at=SAID + timedelta(days=1))
        fresh.maintain("second", now=SAID + timedelta(days=10))
        assert _states(fresh, "second") == {"I live in Paris.": "warm", "I moved to Berlin.": "active"}


def test_archived_memories_leave_recall_unless_asked_for_and_are_never_deleted(mem):
    user = _user()
    _add(mem, user, ["I live in Paris near the Louvre.", "My dog Rex chews slippers."])
    _add(mem, user, ["I adopted a cat called Mimi in Lyon."], at=datetime.now(timezone.utc))
    lifecycle.flush_accesses(mem.store)
    mem.maintain(user, now=datetime.now(timezone.utc))
    assert _states(mem, user) == {"I live in Paris near the Louvre.": "archived",
                                  "My dog Rex chews slippers.": "archived",
                                  "I adopted a cat called Mimi in Lyon.": "active"}
    assert {m.text for m in mem.recall("Where do I live? Paris Louvre", user=user, k=5).memories} == \
        {"I adopted a cat called Mimi in Lyon."}
    with_archived = mem.recall("Where do I live? Paris Louvre", user=user, k=5, include_archived=True)
    assert with_archived.memories[0].text == "I live in Paris near the Louvre."
    assert len(mem.memories(user, limit=None)) == 3  # archived, not deleted
    assert sorted(m.text for m in mem.memories(user, state="archived")) == [
        "I live in Paris near the Louvre.", "My dog Rex chews slippers."]
    # recalled again, it is in use again: the next pass brings it back
    lifecycle.flush_accesses(mem.store)
    back = mem.maintain(user, now=datetime.now(timezone.utc))
    assert back.transitions.get("archived->active", 0) >= 1
    assert _states(mem, user)["I live in Paris near the Louvre."] == "active"
    with pytest.raises(InputError):
        mem.memories(user, state="frozen")


def test_maintain_refuses_bad_input(mem):
    with pytest.raises(UnknownUser):
        mem.maintain(_user())
    with pytest.raises(InputError):
        mem.maintain(" padded ")
    with pytest.raises(InputError):
        mem.maintain(now="2025-01-01")  # type: ignore[arg-type]


def test_the_maintain_command_and_the_list_and_recall_flags(mem, home, monkeypatch):
    monkeypatch.setenv("GRAPHMEM_HOME", str(home))
    monkeypatch.delenv("GRAPHMEM_URI", raising=False)
    user = _user()
    _add(mem, user, ["I live in Paris near the Louvre."])
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(main, list(args), catch_exceptions=False)

    now = (SAID + timedelta(days=30)).isoformat()
    dry = json.loads(invoke("maintain", "--user", user, "--dry-run", "--now", now, "--json").output)
    assert dry["dry_run"] and dry["transitions"] == {"active->warm": 1} and dry["states"] == {"warm": 1}
    shown = invoke("maintain", "--user", user, "--now", now)
    assert shown.exit_code == 0 and "moved 1" in shown.output and "warm" in shown.output
    assert json.loads(invoke("maintain", "--user", user, "--now", now, "--json").output)["moved"] == 0
    listed = json.loads(invoke("list", "--user", user, "--json").output)
    assert [m["state"] for m in listed] == ["warm"]
    invoke("maintain", "--user", user, "--now", (SAID + timedelta(days=400)).isoformat())
    assert json.loads(invoke("list", "--user", user, "--state", "warm", "--json").output) == []
    gone = json.loads(invoke("recall", "Where do I live?", "--user", user, "--json").output)
    back = json.loads(invoke("recall", "Where do I live?", "--user", user, "--include-archived", "--json").output)
    assert gone["memories"] == [] and [m["text"] for m in back["memories"]] == ["I live in Paris near the Louvre."]
    bad = runner.invoke(main, ["maintain", "--now", "someday"])
    assert bad.exit_code == 1 and bad.output.startswith("Error: --now takes an ISO date")


def test_export_and_import_carry_the_lifecycle_and_forget_leaves_no_pending_access(mem, tmp_path):
    user, copy = _user(), _user()
    _add(mem, user, ["I live in Paris near the Louvre.", "My dog Rex chews slippers."])
    mem.recall("Where do I live?", user=user, k=1)
    lifecycle.flush_accesses(mem.store)
    mem.maintain(user, now=SAID + timedelta(days=30))
    mem.export(user, tmp_path / "out.jsonl")
    mem.import_(tmp_path / "out.jsonl", user=copy)

    def seen(who: str) -> list[tuple]:
        return sorted((m.text, m.state, m.accesses, m.last_accessed) for m in mem.memories(who, limit=None))

    assert seen(copy) == seen(user)
    assert sorted((m.state, m.accesses) for m in mem.memories(copy)) == [("active", 1), ("warm", 0)]
    mem.recall("Where do I live?", user=user, k=1)  # noted, not yet written
    mem.forget(user, everything=True)
    assert lifecycle.access_log(mem.store).pending() == 0
    assert mem.driver.run("MATCH (m:Memory {user_id: $u}) RETURN count(m) AS n", {"u": user})[0]["n"] == 0


def test_one_users_flush_leaves_the_others_accesses_noted(mem):
    one, two = _user(), _user()
    _add(mem, one, ["I live in Paris near the Louvre."])
    _add(mem, two, ["I live in Paris near the Louvre."])
    log = lifecycle.AccessLog(mem.store)  # its own buffer: no background flush of the shared one interferes
    log.note(one, [m.id for m in mem.memories(one)])
    log.note(two, [m.id for m in mem.memories(two)])
    assert log.flush(one) == 1 and log.pending() == 1
    assert [m.accesses for m in mem.memories(one)] == [1] and [m.accesses for m in mem.memories(two)] == [0]
    assert log.flush(two) == 1
    assert [m.accesses for m in mem.memories(two)] == [1]


def test_an_archived_current_version_is_not_brought_back_beside_its_older_one(mem):
    user = _user()
    _add(mem, user, ["I live in Paris near the Louvre."])
    _add(mem, user, ["I moved to Berlin near the Spree."], at=SAID + timedelta(days=1))
    by_text = {m.text: m.id for m in mem.memories(user)}
    old, new = by_text["I live in Paris near the Louvre."], by_text["I moved to Berlin near the Spree."]
    mem.driver.run("MATCH (n:Memory {user_id: $u, uid: $new}), (o:Memory {user_id: $u, uid: $old}) "
                   "MERGE (n)-[s:SUPERSEDES]->(o) SET s.at = 1.0, s.basis = 'test', s.confidence = 1.0",
                   {"u": user, "new": new, "old": old})
    mem.run("set_memory_states", user_id=user, changes=[{"uid": new, "state": "archived"}], now=SAID.timestamp())
    # the present reading puts a fact's current version beside an older one the channels found
    shown = [m.uid for m in mem.recall("Do I live in Paris near the Louvre?", user=user, k=5).memories]
    assert shown == [old]
    assert new in [m.uid for m in mem.recall("Do I live in Paris near the Louvre?", user=user, k=5,
                                             include_archived=True).memories]
