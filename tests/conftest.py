"""One suite, every backend: embedded FalkorDB always; Neo4j when GRAPHMEM_TEST_NEO4J_URI
is set or testcontainers finds a Docker engine (skipped with the reason otherwise)."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from graphmem import Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer

ROOT = Path(__file__).resolve().parent.parent
LOCOMO = ROOT.parent / "shared" / "data" / "locomo" / "locomo10_v2"


def _neo4j_target() -> tuple[str | None, str]:
    uri = os.environ.get("GRAPHMEM_TEST_NEO4J_URI")
    if uri:
        return uri, ""
    try:
        import docker  # testcontainers' dependency

        docker.from_env().ping()
    except Exception as exc:  # no engine: the reason is shown in the skip
        return None, f"no Neo4j: GRAPHMEM_TEST_NEO4J_URI unset and no Docker engine ({type(exc).__name__})"
    return "testcontainers", ""


NEO4J_URI, NEO4J_SKIP = _neo4j_target()
BACKENDS = [
    pytest.param("falkordb", id="falkordb"),
    pytest.param("neo4j", id="neo4j", marks=pytest.mark.skipif(NEO4J_URI is None, reason=NEO4J_SKIP)),
]


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
    from testcontainers.neo4j import Neo4jContainer

    with Neo4jContainer("neo4j:5") as container:
        os.environ.setdefault("GRAPHMEM_NEO4J_USER", container.username)
        os.environ.setdefault("GRAPHMEM_NEO4J_PASSWORD", container.password)
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
        auth = (os.environ.get("GRAPHMEM_NEO4J_USER", "neo4j"), os.environ.get("GRAPHMEM_NEO4J_PASSWORD", "neo4j"))
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
