"""The Neo4j driver's failures, and its quiet, without a Neo4j server: what a user sees when the
password is missing or the server cannot be reached (the suite runs against a real server when
GRAPHMEM_TEST_NEO4J_URI is set: tests/conftest.py)."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from graphmem import Memory, Settings
from graphmem.drivers import neo4j as neo4j_driver
from graphmem.drivers.neo4j import Neo4jDriver
from graphmem.errors import BackendUnavailable, ConfigError


def _closed_port() -> int:
    """A local port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("password", ["", None])
def test_missing_password_is_one_clear_line_before_connecting(password, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("connected without a password")

    monkeypatch.setattr(neo4j_driver.neo4j.GraphDatabase, "driver", never)
    with pytest.raises(ConfigError) as caught:
        Neo4jDriver("bolt://127.0.0.1:7687", auth=("neo4j", password))
    message = str(caught.value)
    assert "GRAPHMEM_NEO4J_PASSWORD" in message and "'neo4j'" in message
    assert "\n" not in message


def test_missing_password_through_memory_and_uri():
    with pytest.raises(ConfigError, match="GRAPHMEM_NEO4J_PASSWORD"):
        Memory(settings=Settings(uri="bolt://neo4j@127.0.0.1:7687"))
    with pytest.raises(ConfigError, match="GRAPHMEM_NEO4J_PASSWORD"):
        Memory(settings=Settings(uri="bolt://127.0.0.1:7687"), auth=("neo4j", ""))


@pytest.mark.parametrize("scheme", ["bolt", "neo4j"])
def test_unreachable_server_is_one_line(scheme, capfd):
    uri = f"{scheme}://127.0.0.1:{_closed_port()}"
    with pytest.raises(BackendUnavailable) as caught:
        Neo4jDriver(uri, auth=("neo4j", "secret"))
    message = str(caught.value)
    assert message.startswith(f"cannot reach Neo4j at {uri}: ")
    assert "\n" not in message and len(message) < 200
    out, err = capfd.readouterr()
    assert out == "" and err == ""  # nothing of the driver's own on the user's terminal


def test_unreachable_bolt_names_the_reason():
    uri = f"bolt://127.0.0.1:{_closed_port()}"
    with pytest.raises(BackendUnavailable, match="refused"):
        Neo4jDriver(uri, auth=("neo4j", "secret"))


def test_driver_warnings_do_not_reach_stderr():
    """The driver logs server notifications on `neo4j.notifications` at WARNING; with logging left
    unconfigured (as in a user's script), Python's last-resort handler printed them on stderr.
    In a fresh interpreter, not under pytest's log capture."""
    script = (
        "import logging, sys\n"
        "from graphmem.drivers.neo4j import Neo4jDriver\n"
        "from graphmem.errors import BackendUnavailable\n"
        "if sys.argv[1] == 'graphmem':\n"
        "    try:\n"
        f"        Neo4jDriver('bolt://127.0.0.1:{_closed_port()}', auth=('neo4j', 'secret'))\n"
        "    except BackendUnavailable:\n"
        "        pass\n"
        "logging.getLogger('neo4j.notifications').warning('Received notification from DBMS server: 01N52')\n"
    )
    run = lambda how: subprocess.run([sys.executable, "-c", script, how], capture_output=True, text=True,
                                     timeout=120)
    bare = run("bare")
    assert "01N52" in bare.stderr, bare.stderr  # the control: the driver's logger does print by itself
    quiet = run("graphmem")
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr


def test_driver_is_configured_to_ask_for_no_notifications(monkeypatch):
    seen = {}

    class Stop(Exception):
        pass

    def driver(uri, **config):
        seen.update(config)
        raise Stop

    monkeypatch.setattr(neo4j_driver.neo4j.GraphDatabase, "driver", driver)
    with pytest.raises(Stop):
        Neo4jDriver("bolt://127.0.0.1:7687", auth=("neo4j", "secret"))
    assert seen["notifications_min_severity"] == "OFF"
    assert seen["auth"] == ("neo4j", "secret")


@pytest.mark.parametrize("agent, version", [
    ("Neo4j/5.26.0", (5, 26)), ("Neo4j/5.22.1", (5, 22)), ("Neo4j/2025.01.0", (2025, 1)),
    ("Neo4j/5.27-aura", (5, 27)), ("Memgraph", None), (None, None),
])
def test_server_version(agent, version):
    assert neo4j_driver._version(agent) == version


def test_oldest_server_is_5_23():
    """insert_simplices.cypher's `CALL (a, b) { }` and schema.cypher's `vector.quantization.enabled`."""
    assert neo4j_driver._version("Neo4j/5.22.1") < neo4j_driver.MIN_VERSION <= neo4j_driver._version("Neo4j/5.23.0")
