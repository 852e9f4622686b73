"""One suite, every backend: embedded FalkorDB always; Neo4j when GRAPHMEM_TEST_NEO4J_URI
is set or testcontainers finds a Docker engine (skipped with the reason otherwise).

Neo4j: GRAPHMEM_TEST_NEO4J_URI (bolt://HOST:7687 or neo4j://HOST:7687) names a running Neo4j
5.23 or later, and GRAPHMEM_NEO4J_USER and GRAPHMEM_NEO4J_PASSWORD its credentials (no default
password: a fresh Neo4j refuses its initial "neo4j" until it is changed). With the URI set but
either variable missing, the Neo4j tests are skipped and say which. docker/docker-compose.yml
starts one with the password set in docker/.env (README.md, "Servers in Docker"):
    docker compose --env-file docker/.env -f docker/docker-compose.yml up -d --wait neo4j
    . docker/.env && export GRAPHMEM_NEO4J_USER=neo4j GRAPHMEM_NEO4J_PASSWORD
    GRAPHMEM_TEST_NEO4J_URI=bolt://localhost:7687 .venv/bin/python -m pytest -q
Without the URI, testcontainers starts the Neo4j image docker/docker-compose.yml pins where a
Docker engine answers.

Quick runs: `pytest -m "not slow"` leaves out the long checks (models, durability, idle
servers). Property tests run the hypothesis profile that HYPOTHESIS_PROFILE names: "dev" (the
default: 25 examples each) or "ci" (200 examples; CI sets it). No deadline in either: a
statement's time depends on the machine's load, not on the code under test.

Every embedded server a test starts lives under the session's temporary directory and is
stopped, with its watchdog, when the session ends."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from graphmem import Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer

ROOT = Path(__file__).resolve().parent.parent
LOCOMO = ROOT.parent / "shared" / "data" / "locomo" / "locomo10_v2"


def _neo4j_target() -> tuple[str | None, str]:
    uri = os.environ.get("GRAPHMEM_TEST_NEO4J_URI")
    if uri:
        missing = [name for name in ("GRAPHMEM_NEO4J_USER", "GRAPHMEM_NEO4J_PASSWORD") if not os.environ.get(name)]
        if missing:
            unset = " and ".join(missing) + (" is" if len(missing) == 1 else " are")
            return None, (f"no Neo4j credentials: GRAPHMEM_TEST_NEO4J_URI is set but {unset} not "
                          f"(docker/docker-compose.yml reads the password from docker/.env)")
        return uri, ""
    try:
        import docker  # testcontainers' dependency

        docker.from_env().ping()
    except Exception as exc:  # no engine: the reason is shown in the skip
        return None, f"no Neo4j: GRAPHMEM_TEST_NEO4J_URI unset and no Docker engine ({type(exc).__name__})"
    return "testcontainers", ""


hypothesis_settings.register_profile("dev", max_examples=25, deadline=None)
hypothesis_settings.register_profile("ci", max_examples=200, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

NEO4J_URI, NEO4J_SKIP = _neo4j_target()
BACKENDS = [
    pytest.param("falkordb", id="falkordb"),
    pytest.param("neo4j", id="neo4j", marks=pytest.mark.skipif(NEO4J_URI is None, reason=NEO4J_SKIP)),
]


@pytest.fixture(scope="session", autouse=True)
def no_server_outlives_the_session(tmp_path_factory):
    """Whatever embedded server a test left running (the `home` fixture's and tests' own homes
    stop theirs) is stopped at the end: a test run leaves no process behind."""
    yield
    for pid_file in tmp_path_factory.getbasetemp().glob("**/falkordb/falkordb.pid"):
        EmbeddedServer(pid_file.parent.parent).stop()


@pytest.fixture(scope="session")
def home(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("graphmem-home")
    yield path
    EmbeddedServer(path).stop()


@pytest.fixture(scope="session")
def neo4j_uri():
    if NEO4J_URI != "testcontainers":
        yield NEO4J_URI
        return
    import yaml
    from testcontainers.neo4j import Neo4jContainer

    compose = yaml.safe_load((ROOT / "docker" / "docker-compose.yml").read_text())
    with Neo4jContainer(compose["services"]["neo4j"]["image"]) as container:  # its own credentials, whatever the environment says
        os.environ["GRAPHMEM_NEO4J_USER"] = container.username
        os.environ["GRAPHMEM_NEO4J_PASSWORD"] = container.password
        yield container.get_connection_url()


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request) -> str:
    return request.param


@pytest.fixture(scope="session")
def mem(backend, home, request) -> Memory:
    if backend == "falkordb":
        memory = Memory(settings=Settings(home=home))
    else:
        uri = request.getfixturevalue("neo4j_uri")
        auth = (os.environ["GRAPHMEM_NEO4J_USER"], os.environ["GRAPHMEM_NEO4J_PASSWORD"])  # see _neo4j_target, neo4j_uri
        memory = Memory(settings=Settings(uri=uri), auth=auth)
    yield memory
    memory.close()


@pytest.fixture
def user() -> str:
    """A fresh user per test: tests share one database and never see each other's data."""
    return f"test-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def cx(mem, user):
    return mem.complex(user)
