"""A memory layer keeps no copy of user text outside the graph: the embedded server records no
query telemetry and writes no crash report (which would list the running queries), so what a
user asked is nowhere in its files after a restart and a rewrite, and what a forget took is
nowhere in them when the forget returns (its append-only file is rewritten)."""

from __future__ import annotations

import time
import uuid
from contextlib import contextmanager
from pathlib import Path

from graphmem import Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "chat.txt"


def test_no_query_text_is_kept_in_the_store_files(tmp_path):
    settings = Settings(home=tmp_path, server_idle_stop=0)
    secret = "quokkazebra"
    with Memory(settings=settings) as mem:
        mem.ingest(EXAMPLE, user="u")
        mem.recall(f"Did Alice ever see a {secret} in Lisbon?", user="u", k=3)
        connection = mem.driver._db.connection
        assert not connection.keys("telemetry*")
        # a crash report would list the running queries with their parameters
        assert connection.config_get("crash-log-enabled") == {"crash-log-enabled": "no"}
        connection.bgrewriteaof()
        deadline = time.monotonic() + 30
        while connection.info("persistence")["aof_rewrite_in_progress"] and time.monotonic() < deadline:
            time.sleep(0.1)
    server = EmbeddedServer(tmp_path)
    server.stop()
    found = [p for p in tmp_path.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]
    assert found == []
    with Memory(settings=settings) as mem:  # and the store is whole after the restart
        assert mem.complex("u").verify() == []
    server.stop()


def _word() -> str:
    """A word no store holds yet, of letters only: a token with digits may be read as a number
    ("12e45") and stored as no term, and the snapshot may compress the sentence around it."""
    return "".join(chr(ord("a") + int(c, 16)) for c in uuid.uuid4().hex[:10])


@contextmanager
def _uncompressed(mem: Memory):
    """The server's snapshots (the rewritten log) with their strings as written, so that a grep
    sees what they hold: compressed, a sentence may hide a word, whatever the test checks."""
    connection = mem.driver._db.connection
    connection.config_set("rdbcompression", "no")
    try:
        yield
    finally:
        connection.config_set("rdbcompression", "yes")


def _files_holding(home: Path, *needles: str) -> list[str]:
    """The files under `home` that hold any of `needles`, in any case (a term is stored lower-cased)."""
    wanted = [needle.lower().encode() for needle in needles]
    return [str(p) for p in home.rglob("*") if p.is_file() and any(w in p.read_bytes().lower() for w in wanted)]


def test_a_forgotten_user_is_in_no_file_when_the_forget_returns(home):
    # the session's store, whose server already runs: a fresh one would take a second to start
    user, secret = f"nocopy-{uuid.uuid4().hex[:10]}", f"zebracorn{_word()}"
    with Memory(settings=Settings(home=home)) as mem:
        mem.add([("Robin", f"My bank PIN is 4711 and my password is {secret}.")], user=user, conversation="c")
        assert _files_holding(home, secret)  # the append-only file logged the statement that wrote it
        done = mem.forget(user, everything=True)
        assert done.memories == 1
        assert _files_holding(home, secret, user) == []


def test_a_forgotten_memory_is_in_no_file_and_the_others_stay(home):
    user, secret = f"nocopy-{uuid.uuid4().hex[:10]}", f"zebracorn{_word()}"
    other = f"quokka{_word()}"
    with Memory(settings=Settings(home=home)) as mem, _uncompressed(mem):
        kept = mem.add([("Robin", f"I keep bees named {other} on the roof.")], user=user, conversation="c")
        added = mem.add([("Robin", f"My bank PIN is 4711 and my password is {secret}.")], user=user, conversation="c")
        assert mem.driver.purge_logs()  # the rewritten log (a snapshot) holds what the graph holds
        assert _files_holding(home, secret)
        mem.forget(user, memories=added.memory_ids)
        assert _files_holding(home, secret) == []
        assert [m.id for m in mem.memories(user)] == kept.memory_ids
        assert _files_holding(home, other)


def test_an_edited_message_leaves_its_old_text_in_no_file(home):
    user, secret = f"nocopy-{uuid.uuid4().hex[:10]}", f"zebracorn{_word()}"
    with Memory(settings=Settings(home=home)) as mem:
        mem.add([{"role": "user", "id": "m1", "content": f"My door code is {secret}."}], user=user, conversation="c")
        assert _files_holding(home, secret)
        edited = mem.add([{"role": "user", "id": "m1", "content": "My door code changed; ask me."}],
                         user=user, conversation="c")
        assert edited.memories_replaced == 1
        assert _files_holding(home, secret) == []
        mem.forget(user, everything=True)
