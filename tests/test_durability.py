"""Acknowledged writes survive a process exit, a server restart and a kill -9 of the server;
a crash leaves no partial simplex."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from graphmem import Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer

WRITER = textwrap.dedent("""
    import sys
    from graphmem import Memory, Settings
    mem = Memory(settings=Settings(home=sys.argv[1]))
    cx = mem.complex("durable")
    vids = list(cx.ensure_entities([f"e{i}" for i in range(40)]).values())
    for i in range(100000):
        word = [vids[(i * 7 + j * 3) % 40] for j in range(4)]
        cx.insert(word, kind="stream", meta={"i": i})
        print(i, flush=True)
""")


@pytest.fixture
def own_home(tmp_path):
    """A server of its own: these tests stop and kill it."""
    yield tmp_path
    EmbeddedServer(tmp_path).stop()


def run_python(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_survives_process_exit_and_server_restart(own_home):
    done = run_python(
        "import sys; from graphmem import Memory, Settings;"
        "Memory(settings=Settings(home=sys.argv[1])).complex('u').insert(['A', 'B', 'C'], kind='turn')",
        str(own_home))
    assert done.returncode == 0, done.stderr
    server = EmbeddedServer(own_home)
    assert server.running()  # it outlives the process that started it (while not idle long), for the next one to share
    assert Memory(settings=Settings(home=own_home)).complex("u").find(["C", "B", "A"]).count == 1
    assert server.stop()
    assert not server.running() and server.status()["pid"] is None
    again = Memory(settings=Settings(home=own_home)).complex("u")  # starts it again
    assert again.find(["A", "B", "C"]).kind == "turn"



def test_a_clean_stop_compacts_the_log_so_a_restart_loads_a_snapshot(own_home, monkeypatch):
    import graphmem.drivers.embedded as embedded

    monkeypatch.setattr(embedded, "AOF_GROWTH_COMPACTED_AT_STOP", 0)  # any growth is worth compacting
    cx = Memory(settings=Settings(home=own_home)).complex("u")
    cx.insert_many([[f"v{i}", f"v{i + 1}", f"v{i + 2}"] for i in range(200)])
    server = EmbeddedServer(own_home)
    assert server.stop()
    files = {p.name.split(".")[-1]: p.stat().st_size for p in (server.dir / "appendonlydir").iterdir()}
    assert files["rdb"] > 5000 and files["aof"] == 0  # everything in the snapshot, no statement to replay
    again = Memory(settings=Settings(home=own_home)).complex("u")
    assert again.stats()["simplices"] == 200 and again.find(["v7", "v8", "v9"]).count == 1


@pytest.mark.slow
def test_kill_9_during_inserts_leaves_only_whole_simplices(own_home):
    server = EmbeddedServer(own_home)
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(own_home)], stdout=subprocess.PIPE, text=True)
    acknowledged = -1
    deadline = time.monotonic() + 60
    while acknowledged < 150 and time.monotonic() < deadline:
        acknowledged = int(writer.stdout.readline())
    pid = server.pid()
    os.kill(pid, signal.SIGKILL)
    writer.wait(timeout=30)
    assert writer.returncode != 0  # the writer lost its server mid-stream

    cx = Memory(settings=Settings(home=own_home)).complex("durable")
    assert cx.verify() == []
    by_key = {s.key: s for s in cx.simplices()}
    assert all(len(s.vids) == 4 and s.kind == "stream" for s in by_key.values())
    seen = {s.meta["i"] for s in by_key.values()}
    # every acknowledged insert is there (words repeat every 40 steps, so compare distinct words)
    assert len(by_key) >= min(acknowledged + 1, 40)
    assert max(seen) >= min(acknowledged, 39)


def test_stale_socket_and_pid_file_are_recovered(own_home):
    server = EmbeddedServer(own_home)
    server.start()
    pid = server.pid()
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.2)
    server.dir.joinpath("falkordb.pid").write_text(str(pid))  # as if the server had died leaving it
    assert not server.running()
    server.start()
    assert server.running() and server.pid() != pid


@pytest.mark.slow
def test_a_server_that_does_not_answer_yet_is_waited_for_not_started_twice(own_home):
    """A large store builds its indexes on load without answering at all (not even LOADING);
    a start meanwhile must wait for it, not clear its socket and start a second server on the
    same data. A stopped process stands in for the busy one, for longer than a start's checks
    take (each PING it leaves unanswered costs 5 s)."""
    server = EmbeddedServer(own_home)
    server.start()
    pid = server.pid()
    os.kill(pid, signal.SIGSTOP)
    try:
        assert not server.running()
        resume = subprocess.Popen(["sh", "-c", f"sleep 20; kill -CONT {pid}"])
        EmbeddedServer(own_home).start(timeout=1)  # longer than `timeout`: it waits while the server lives
        resume.wait()
    finally:
        os.kill(pid, signal.SIGCONT)
    assert server.running() and server.pid() == pid
    assert subprocess.run(["pgrep", "-f", f"unixsocket:{server.socket_path}"], capture_output=True,
                          text=True).stdout.split() == [str(pid)]
