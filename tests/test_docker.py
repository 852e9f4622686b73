"""docker/docker-compose.yml is safe by default: ports bound to this machine only, images pinned
to a patch release (Neo4j one graphmem supports), and no password in the file: each comes from
docker/.env, which git ignores, and compose refuses to start without it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from graphmem.drivers.neo4j import MIN_VERSION

ROOT = Path(__file__).resolve().parent.parent
DOCKER = ROOT / "docker"
COMPOSE = DOCKER / "docker-compose.yml"
# ${NAME:?message}: compose stops with the message when NAME is unset or empty
REQUIRED = re.compile(r"\$\{(\w+):\?[^}]*\}")


@pytest.fixture(scope="module")
def services() -> dict:
    return yaml.safe_load(COMPOSE.read_text())["services"]


def published(port) -> tuple[str | None, str]:
    """(host address, the rest) of one `ports:` entry, short ("127.0.0.1:7687:7687") or long."""
    if isinstance(port, dict):
        return port.get("host_ip"), f"{port.get('published')}:{port.get('target')}"
    address, _, rest = str(port).rpartition(":")
    address, _, host_port = address.rpartition(":")
    return (address or None), f"{host_port}:{rest}"


def test_both_servers_are_there(services):
    assert {"neo4j", "falkordb"} <= set(services)
    assert services["neo4j"]["image"].startswith("neo4j:")
    assert services["falkordb"]["image"].startswith("falkordb/falkordb:")


def test_every_port_is_published_on_loopback_only(services):
    ports = [(name, port) for name, service in services.items() for port in service.get("ports", [])]
    assert ports
    for name, port in ports:
        address, _ = published(port)
        assert address == "127.0.0.1", f"{name}: {port!r} is published beyond this machine"
    assert all("network_mode" not in service for service in services.values())  # host networking skips the binds


def test_the_port_parser_sees_an_open_bind():
    assert published("7687:7687")[0] is None
    assert published("0.0.0.0:7687:7687")[0] == "0.0.0.0"
    assert published({"target": 7687, "published": 7687, "host_ip": "127.0.0.1"})[0] == "127.0.0.1"


def test_images_are_pinned_to_a_patch_release(services):
    for name, service in services.items():
        image = service["image"]
        _, _, tag = image.partition(":")
        assert tag and tag != "latest", f"{name}: {image} is not pinned"
        assert re.match(r"v?\d+\.\d+\.\d+(-[\w.-]+)?$", tag), f"{name}: {image} is not pinned to a patch release"


def test_neo4j_is_one_graphmem_runs_on(services):
    tag = services["neo4j"]["image"].partition(":")[2]
    major, minor = (int(x) for x in re.match(r"(\d+)\.(\d+)", tag).groups())
    assert (major, minor) >= MIN_VERSION  # cypher/schema.cypher's vector index settings


def test_no_password_is_written_in_the_file(services):
    text = COMPOSE.read_text()
    assert "graphmem-secret" not in text  # the password the file once held
    neo4j_auth = services["neo4j"]["environment"]["NEO4J_AUTH"]
    assert re.fullmatch(r"neo4j/" + REQUIRED.pattern, neo4j_auth), neo4j_auth
    falkordb = services["falkordb"]["environment"]
    assert re.search(r"--requirepass\s+" + REQUIRED.pattern, falkordb["REDIS_ARGS"]), falkordb["REDIS_ARGS"]
    assert REQUIRED.fullmatch(falkordb["REDISCLI_AUTH"])
    for name, service in services.items():
        check = " ".join(service.get("healthcheck", {}).get("test", []))
        assert not re.search(r"(-p|-a|--password)\s+['\"]?(?!\$)\w", check), f"{name}: a password in its health check"


def test_the_passwords_come_from_an_env_file_git_ignores():
    used = set(REQUIRED.findall(COMPOSE.read_text()))
    assert {"GRAPHMEM_NEO4J_PASSWORD", "GRAPHMEM_FALKORDB_PASSWORD"} <= used
    # every variable the file reads must be set: none falls back to a default
    assert not re.search(r"\$\{\w+(:?-)", COMPOSE.read_text())
    example = dict(line.split("=", 1) for line in (DOCKER / ".env.example").read_text().splitlines()
                   if line and not line.startswith("#"))
    assert set(example) == used
    assert all(value == "" for value in example.values()), "the example must not hold a usable password"
    assert "docker/.env" in (ROOT / ".gitignore").read_text().splitlines()
