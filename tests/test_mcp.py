"""`graphmem mcp`: the server runs as a subprocess, as an agent starts it, and a real MCP client
session (the official SDK's) drives every tool over stdio and over streamable HTTP."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx2
import pytest
from click.testing import CliRunner
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from graphmem import Memory, consolidation
from graphmem.cli import main
from graphmem.mcp_server import IDLE_SECONDS

TOOLS = {"remember", "recall", "gaps", "list", "get", "forget", "history", "supersede", "unsupersede"}
GRAPHMEM = [sys.executable, "-c", "from graphmem.cli import main; main()"]

pytestmark = pytest.mark.slow  # each test starts a server that loads the models


def fresh(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:8]}"


def server_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    return {**env, "GRAPHMEM_HOME": str(home)}


async def call(client: Client, tool: str, **arguments) -> dict:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, f"{tool}: {result.content[0].text}"
    return result.structured_content


async def refused(client: Client, tool: str, **arguments) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error, f"{tool} should have been refused: {result.structured_content}"
    return result.content[0].text


async def every_tool(client: Client) -> None:
    """Every tool, as an agent uses them, for two users: what one stores the other never sees."""
    alice, bob = fresh("alice"), fresh("bob")
    assert {t.name for t in (await client.list_tools()).tools} == TOOLS

    paris = await call(client, "remember", user=alice, messages="I live in Paris.", at="2024-01-05")
    berlin = await call(client, "remember", user=alice, at="2024-06-02",
                        messages=[{"role": "user", "content": "I moved to Berlin."},
                                  {"role": "assistant", "content": "Berlin is lovely in summer."}])
    rome = await call(client, "remember", user=bob, messages="I live in Rome.", at="2024-03-01")
    assert (paris["added"], berlin["added"], rome["added"]) == (1, 2, 1)
    assert berlin["supersessions"] == 1 and berlin["superseded"] == [
        {"id": paris["memory_ids"][0], "text": "I live in Paris.", "by": berlin["memory_ids"][0]}]
    assert paris["superseded"] == []
    again = await call(client, "remember", user=alice, messages="I live in Paris.", at="2024-01-05")
    assert again["added"] == 0  # a retry changes nothing

    got = await call(client, "recall", user=alice, question="Where do I live?", k=5)
    ids = [m["id"] for m in got["memories"]]
    assert ids[0] == berlin["memory_ids"][0]
    assert paris["memory_ids"][0] in ids and rome["memory_ids"][0] not in ids
    assert "Berlin" in got["context"][0]
    assert any("Paris" in line and "superseded 2024-06-02" in line for line in got["context"])
    assert got["memories"][0]["date"].startswith("2024-06-02")

    gaps = await call(client, "gaps", user=alice, question="Where does Alice's sister Carol live?")
    assert any("Carol" in g["question"] for g in gaps["gaps"])

    listed = await call(client, "list", user=alice)
    assert [m["text"] for m in listed["memories"]] == [
        "I live in Paris.", "I moved to Berlin.", "Berlin is lovely in summer."]
    page = await call(client, "list", user=alice, limit=2)
    rest = await call(client, "list", user=alice, limit=2, after=page["next_after"])
    assert [m["id"] for m in page["memories"] + rest["memories"]] == [m["id"] for m in listed["memories"]]
    assert "to list after" in await refused(client, "list", user=alice, after=rome["memory_ids"][0])
    assert len((await call(client, "list", user=alice, state="active"))["memories"]) == 3
    assert (await call(client, "list", user=alice, state="archived"))["memories"] == []
    retired = await call(client, "list", user=alice, superseded=True)
    assert [m["id"] for m in retired["memories"]] == paris["memory_ids"]
    one = await call(client, "get", user=alice, id=paris["memory_ids"][0])
    assert one["text"] == "I live in Paris." and one["user"] == alice

    versions = await call(client, "history", user=alice, id=paris["memory_ids"][0])
    assert [(v["text"], v["current"]) for v in versions["versions"]] == [
        ("I live in Paris.", False), ("I moved to Berlin.", True)]
    # a link set right by hand: Berlin does not supersede Paris (two homes), then it does again
    kept = await call(client, "unsupersede", user=alice, newer=berlin["memory_ids"][0], older=paris["memory_ids"][0])
    assert [(v["text"], v["current"]) for v in kept["versions"]] == [("I live in Paris.", True)]
    assert (await call(client, "list", user=alice, superseded=True))["memories"] == []
    linked = await call(client, "supersede", user=alice, newer=berlin["memory_ids"][0], older=paris["memory_ids"][0])
    assert [(v["text"], v["current"]) for v in linked["versions"]] == [
        ("I live in Paris.", False), ("I moved to Berlin.", True)]
    assert "said before" in await refused(client, "supersede", user=alice, newer=paris["memory_ids"][0],
                                          older=berlin["memory_ids"][0])

    # one user's ids mean nothing to another
    assert "no memory" in await refused(client, "get", user=alice, id=rome["memory_ids"][0])
    assert "name the user" in await refused(client, "recall", question="Where do I live?")
    gone = await call(client, "forget", user=alice, ids=[rome["memory_ids"][0]])
    assert gone["memories"] == 0 and gone["missing"] == [rome["memory_ids"][0]]  # bob's id: none of alice's
    assert len((await call(client, "list", user=bob))["memories"]) == 1

    gone = await call(client, "forget", user=alice, ids=[berlin["memory_ids"][0]])
    assert gone["memories"] == 1
    after = await call(client, "recall", user=alice, question="Where do I live?", k=5)
    assert after["memories"][0]["id"] == paris["memory_ids"][0]
    assert after["memories"][0]["superseded_at"] is None  # the newer fact is gone: Paris holds again
    assert "superseded" not in after["context"][0]
    assert "takes exactly one" in await refused(client, "forget", user=alice)
    await call(client, "forget", user=alice, everything=True)
    assert (await call(client, "list", user=alice))["memories"] == []
    assert len((await call(client, "list", user=bob))["memories"]) == 1

    rule = await call(client, "remember", user=bob, messages="Always include version numbers when I ask about software libraries.")
    asked = await call(client, "recall", user=bob, question="Which software libraries should I use?", k=2)
    assert asked["memories"][0]["id"] == rule["memory_ids"][0] and asked["memories"][0]["standing"]
    assert asked["context"][0].endswith("Standing instruction: Always include version numbers when I ask about software libraries.")
    liked = await call(client, "remember", user=bob, messages="I prefer e-books for their portability.")
    books = await call(client, "recall", user=bob, question="Can you suggest some books for me?", k=2)
    assert books["memories"][0]["id"] == liked["memory_ids"][0] and books["memories"][0]["preference"]
    assert books["context"][0].endswith("Stated preference: I prefer e-books for their portability.")


def test_every_tool_over_stdio_and_users_kept_apart(home):
    params = StdioServerParameters(command=GRAPHMEM[0], args=[*GRAPHMEM[1:], "mcp"], env=server_env(home))

    async def session() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            await every_tool(client)

    asyncio.run(session())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_http(home: Path, *args: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = subprocess.Popen([*GRAPHMEM, "mcp", "--transport", "http", "--port", str(port), *args],
                               env=server_env(home), stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # it says where it serves once it listens
        line = process.stderr.readline()
        if "serving MCP at" in line:
            return process, line.rsplit(" ", 1)[-1].strip()
        if process.poll() is not None:
            break
    process.kill()
    raise AssertionError(f"the server did not start: {process.stderr.read()}")


def test_every_tool_over_http_behind_a_token(home):
    token = uuid.uuid4().hex
    process, url = start_http(home, "--token", token)
    try:
        async def session() -> None:
            async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as http:
                async with Client(streamable_http_client(url, http_client=http)) as client:
                    await every_tool(client)

        asyncio.run(session())
        # without the token: refused before any MCP message is read
        answer = httpx2.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert answer.status_code == 401
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_server_for_one_user_serves_no_other(home):
    carol = fresh("carol")
    params = StdioServerParameters(command=GRAPHMEM[0], args=[*GRAPHMEM[1:], "mcp", "--user", carol],
                                   env=server_env(home))

    async def session() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            added = await call(client, "remember", messages="My dog Rex loves the beach in Nice.")
            assert added["user"] == carol and added["added"] == 1
            got = await call(client, "recall", question="What does Rex love?")
            assert got["memories"][0]["id"] == added["memory_ids"][0]
            assert "serves user" in await refused(client, "list", user=fresh("mallory"))
            # what remember left to consolidation and recall's count: written once the server idles
            with Memory(home=home) as mem:
                assert consolidation.deferred(mem.store, carol) == added["memory_ids"]
                assert mem.get(added["memory_ids"][0], user=carol).accesses == 0
                await asyncio.sleep(IDLE_SECONDS + 2)
                assert consolidation.deferred(mem.store, carol) == []
                assert mem.get(added["memory_ids"][0], user=carol).accesses == 1

    asyncio.run(session())


def test_http_beyond_this_machine_needs_a_token(home):
    done = subprocess.run([*GRAPHMEM, "mcp", "--transport", "http", "--host", "0.0.0.0"], env=server_env(home),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "give a token" in done.stderr and "Traceback" not in done.stderr


def test_a_port_in_use_or_a_bad_user_is_refused_at_start_in_one_line(home):
    env = {"GRAPHMEM_HOME": str(home), "GRAPHMEM_USER": None, "GRAPHMEM_MCP_TOKEN": None}
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        in_use = CliRunner().invoke(main, ["mcp", "--transport", "http", "--port", str(port)], env=env)
    assert in_use.exit_code == 1 and in_use.output == f"Error: port {port} on 127.0.0.1 is in use\n"
    bad_user = CliRunner().invoke(main, ["mcp", "--user", " bad ", "--transport", "http", "--host", "0.0.0.0"], env=env)
    assert bad_user.exit_code == 1 and bad_user.output == "Error: user id ' bad ' begins or ends with whitespace\n"


def test_the_readme_client_configuration_starts_the_server(home):
    """The README's block for an MCP client names a command and arguments the CLI takes."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    block = json.loads(readme.split("\n## Agents over MCP\n", 1)[1].split("```json\n", 1)[1].split("```", 1)[0])
    server = block["mcpServers"]["graphmem"]
    assert Path(server["command"]).name == "graphmem" and server["args"][0] == "mcp"
    done = subprocess.run([*GRAPHMEM, *server["args"], "--help"], env=server_env(home), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and "remember, recall, gaps, list, get, forget, history, supersede, unsupersede" in " ".join(done.stdout.split())
