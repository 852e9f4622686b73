"""The embedded server behaves like an embedded database: started for a Memory, it stops by
itself once no client has been connected for `server_idle_stop` seconds, keeps its data, and
leaves no process behind; an open Memory keeps it; a server asked for explicitly (`db start`)
runs until stopped."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from graphmem import ConfigError, Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer, _alive

IDLE = 2.0  # seconds; the watchdog polls every IDLE / 4


@pytest.fixture
def own_home(tmp_path):
    """A server of its own, stopped (with its watchdog) whatever the test left."""
    yield tmp_path
    EmbeddedServer(tmp_path).stop()


def processes(server: EmbeddedServer) -> list[str]:
    """Command lines of the processes serving this home: the server and its watchdog."""
    found = subprocess.run(["pgrep", "-af", str(server.socket_path)], capture_output=True, text=True).stdout
    return [line for line in found.splitlines() if "pgrep" not in line]


def wait_until(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def zombie_children() -> list[int]:
    zombies = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] == "Z" and int(fields[1]) == os.getpid():
            zombies.append(int(stat.parent.name))
    return zombies


@pytest.mark.slow
def test_an_idle_server_stops_by_itself_and_keeps_its_data(own_home):
    settings = Settings(home=own_home, server_idle_stop=IDLE)
    with Memory(settings=settings) as mem:
        mem.complex("u").insert(["A", "B", "C"], kind="turn")
    server = EmbeddedServer(own_home)
    assert server.status()["idle_stop"] == IDLE and len(processes(server)) == 2
    assert wait_until(lambda: not server.running(), IDLE + 8)
    assert wait_until(lambda: processes(server) == [], 5)  # the watchdog went with it
    status = server.status()
    assert (status["running"], status["pid"], status["idle_stop"]) == (False, None, None)
    assert zombie_children() == []
    with Memory(settings=settings) as mem:  # starts it again, on the data the stop flushed
        assert mem.complex("u").find(["C", "B", "A"]).kind == "turn"


@pytest.mark.slow
def test_an_open_memory_keeps_its_server_and_a_closed_one_lets_it_stop(own_home):
    server = EmbeddedServer(own_home)
    mem = Memory(settings=Settings(home=own_home, server_idle_stop=IDLE))
    pid = server.pid()
    time.sleep(3 * IDLE + 1)  # idle, but connected: a long-running agent between two turns
    assert server.running() and server.pid() == pid
    mem.complex("u").insert(["A", "B"])
    mem.close()
    assert wait_until(lambda: not server.running(), IDLE + 8)
    assert wait_until(lambda: processes(server) == [], 5)


def test_a_server_started_explicitly_runs_until_stopped(own_home):
    """`graphmem db start` (idle_stop=0) asks for a daemon: no watchdog, and a running server's
    watchdog is ended; a Memory that connects to it adds none."""
    watched = EmbeddedServer(own_home, idle_stop=IDLE)
    watched.start()
    assert watched.status()["idle_stop"] == IDLE
    watchdog = int(watched.watchdog_file.read_text().split()[0])
    daemon = EmbeddedServer(own_home)
    daemon.start()
    assert daemon.status()["idle_stop"] is None and daemon.running()
    assert wait_until(lambda: not Path(f"/proc/{watchdog}").exists(), 5)
    Memory(settings=Settings(home=own_home, server_idle_stop=IDLE)).close()
    assert daemon.status()["idle_stop"] is None and len(processes(daemon)) == 1
    assert daemon.stop() and processes(daemon) == []


def test_the_watchdog_exits_when_its_server_dies(own_home):
    server = EmbeddedServer(own_home, idle_stop=4 * IDLE)  # not idle long enough to stop
    server.start()
    watchdog = int(server.watchdog_file.read_text().split()[0])
    os.kill(server.pid(), signal.SIGKILL)
    assert wait_until(lambda: not Path(f"/proc/{watchdog}").exists(), 5)
    assert zombie_children() == []
    server.start()  # a fresh server, with a fresh watchdog
    assert server.running() and server.status()["idle_stop"] == 4 * IDLE
    assert server.stop() and processes(server) == []


def test_a_server_whose_home_is_deleted_stops_and_leaves_no_process(tmp_path):
    """A temporary home removed while its server runs idle (a closed Memory's, before its idle
    stop): the watchdog stops it, where the server had run on forever, unreachable."""
    home = tmp_path / "temporary"
    Memory(settings=Settings(home=home, server_idle_stop=IDLE)).close()
    server = EmbeddedServer(home)
    pid, watchdog = server.pid(), int(server.watchdog_file.read_text().split()[0])
    assert pid is not None and _alive(pid)
    shutil.rmtree(home)
    try:
        assert wait_until(lambda: not _alive(pid), IDLE + 8)
        assert wait_until(lambda: not Path(f"/proc/{watchdog}").exists(), 5)
    finally:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    assert zombie_children() == []


def test_idle_stop_is_validated_and_read_from_the_environment(monkeypatch):
    with pytest.raises(ConfigError, match="server_idle_stop"):
        Settings(server_idle_stop=-1).validate()
    with pytest.raises(ConfigError, match="server_idle_stop"):
        Settings(server_idle_stop=float("nan")).validate()
    monkeypatch.setenv("GRAPHMEM_SERVER_IDLE_STOP", "0")
    assert Settings.from_env().server_idle_stop == 0


def test_a_long_home_has_one_socket_whatever_the_temporary_directory(tmp_path, monkeypatch):
    """A home too deep for a unix socket gets one in /tmp: every process, whatever its TMPDIR,
    must find it there."""
    import tempfile

    from graphmem.drivers.embedded import MAX_SOCKET_PATH

    home = tmp_path / ("deep-" * 30)
    found = set()
    for temporary in ("/tmp", str(tmp_path)):
        monkeypatch.setenv("TMPDIR", temporary)
        monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
        found.add(EmbeddedServer(home).socket_path)
    assert len(found) == 1 and len(str(found.pop())) <= MAX_SOCKET_PATH
