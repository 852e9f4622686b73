"""A server that dies comes back, nothing waits forever, and opening a store from several
processes at once is safe."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graphmem import BackendUnavailable, Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "chat.txt"


def kill(server: EmbeddedServer) -> None:
    pid = server.pid()
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    while server.pid() is not None:
        time.sleep(0.02)


QUESTION = "Where did Alice adopt Rex?"


@pytest.fixture
def served(tmp_path):
    """A memory of the example chat on its own embedded server, and the answer before any kill."""
    server = EmbeddedServer(tmp_path)
    try:
        with Memory(settings=Settings(home=tmp_path, server_idle_stop=0)) as mem:
            mem.ingest(EXAMPLE, user="u")
            yield mem, server, mem.recall(QUESTION, user="u", k=3).source_ids
    finally:
        server.stop()


@pytest.mark.slow
def test_a_killed_server_is_restarted_on_the_same_data_and_the_call_goes_on(served, caplog):
    mem, server, before = served
    kill(server)
    with caplog.at_level(logging.WARNING, logger="graphmem.drivers.falkor"):
        after = mem.recall(QUESTION, user="u", k=3).source_ids  # reads retry
    assert after == before
    assert any("restarting it on the same data" in r.getMessage() for r in caplog.records)
    kill(server)
    assert mem.ingest(EXAMPLE, user="u").memories_added == 0  # idempotent writes retry too
    cx = mem.complex("u")
    vids = list(cx.ensure_entities(["Alice", "Zed"]).values())
    kill(server)
    with pytest.raises(BackendUnavailable, match="may have been applied"):
        cx.insert(vids)  # a count-raising write is not repeated
    assert mem.complex("u").verify() == []  # ... and the server is back for what follows


@pytest.mark.slow
def test_a_server_that_dies_again_while_it_restarts_is_restarted_once_more(served, caplog):
    mem, server, before = served
    start, tries = mem.driver._revive, []

    def dies_while_loading():  # the first restart is killed before it answers
        tries.append(1)
        if len(tries) == 1:
            start()
            kill(server)
            raise BackendUnavailable("embedded FalkorDB did not start: it died while loading")
        return start()

    mem.driver._revive = dies_while_loading
    kill(server)
    with caplog.at_level(logging.WARNING, logger="graphmem.drivers.falkor"):
        after = mem.recall(QUESTION, user="u", k=3).source_ids
    assert after == before and len(tries) == 2
    assert any("trying again" in r.getMessage() for r in caplog.records)


def test_a_server_whose_socket_is_gone_is_reported_at_once_not_waited_for(tmp_path):
    server = EmbeddedServer(tmp_path)
    server.start()
    pid = server.pid()
    try:
        server.socket_path.unlink()
        started = time.monotonic()
        with pytest.raises(BackendUnavailable, match="socket .* is gone"):
            Memory(settings=Settings(home=tmp_path, server_idle_stop=0))
        assert time.monotonic() - started < 15
    finally:
        if pid is not None:
            os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
def test_several_processes_opening_a_fresh_store_at_once_all_succeed(tmp_path):
    code = ("import sys; from graphmem import Memory, Settings; "
            "m = Memory(settings=Settings(home=sys.argv[1], server_idle_stop=0)); m.close(); print('ok')")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(6)]
    try:
        results = [p.communicate(timeout=120) for p in procs]
        assert [p.returncode for p in procs] == [0] * 6, [err[-300:] for _, err in results]
    finally:
        EmbeddedServer(tmp_path).stop()


def _fill(mem, prefix: str, n: int) -> None:
    cx = mem.complex("u")
    for i in range(n):
        cx.insert([f"{prefix}{i}", f"{prefix}x{i}"])


@pytest.mark.slow
def test_a_truncated_append_only_file_is_reported_and_a_broken_snapshot_names_its_cause(tmp_path, caplog):
    settings = Settings(home=tmp_path, server_idle_stop=0)
    server = EmbeddedServer(tmp_path)
    aof = tmp_path / "falkordb" / "appendonlydir"
    with Memory(settings=settings) as mem:
        _fill(mem, "a", 30)
        mem.driver._db.connection.bgrewriteaof()
        time.sleep(1.0)
        _fill(mem, "c", 30)
        time.sleep(1.5)  # appendfsync everysec
        kill(server)
    incr = sorted(aof.glob("*.incr.aof"))[-1]
    incr.write_bytes(incr.read_bytes()[:-200])  # a crash cut the last write short
    with caplog.at_level(logging.WARNING, logger="graphmem.drivers.embedded"):
        with Memory(settings=settings) as mem:
            assert mem.complex("u").stats()["simplices"] < 60  # the cut write is gone ...
    assert any("truncated" in r.getMessage() for r in caplog.records)  # ... and the user is told
    server.stop()
    base = sorted(aof.glob("*.base.rdb"))[-1]
    base.write_bytes(base.read_bytes()[:len(base.read_bytes()) // 2])
    started = time.monotonic()
    with pytest.raises(BackendUnavailable) as refused:
        Memory(settings=settings)
    assert "RDB" in str(refused.value) and "Suspect RAM" not in str(refused.value)
    assert time.monotonic() - started < 30
