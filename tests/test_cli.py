"""The CLI is a thin skin: each command is a library call; errors are one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli import main


@pytest.fixture
def invoke(home, monkeypatch):
    monkeypatch.setenv("GRAPHMEM_HOME", str(home))
    monkeypatch.delenv("GRAPHMEM_URI", raising=False)
    runner = CliRunner()

    def run(*args):
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)

    return run


def test_simplex_commands_round_trip(invoke, user):
    assert invoke("simplex", "insert", "Alice", "Bob", "Paris", "--kind", "turn", "--user", user).exit_code == 0
    found = invoke("simplex", "find", "Paris", "Alice", "Bob", "--user", user, "--json")
    assert json.loads(found.output)["vertices"] == ["Alice", "Bob", "Paris"]
    assert invoke("simplex", "find", "Alice", "Bob", "--user", user).exit_code == 1
    cofaces = json.loads(invoke("simplex", "cofaces", "Alice", "--user", user, "--json").output)
    assert [c["dimension"] for c in cofaces] == [2]
    gaps = json.loads(invoke("simplex", "gaps", "Alice", "Bob", "Paris", "--user", user, "--json").output)
    assert len(gaps) == 3 and not any(g["stored"] for g in gaps)
    faces = invoke("simplex", "faces", "Alice", "Bob", "Paris", "--user", user)
    assert "implied only" in faces.output
    stats = json.loads(invoke("stats", "--user", user, "--json").output)
    assert stats["simplices"] == 1 and stats["by_dimension"] == {"2": 1}
    assert invoke("verify", "--user", user).exit_code == 0
    removed = json.loads(invoke("simplex", "remove", "Alice", "--cofaces", "--user", user, "--json").output)
    assert removed == {"removed": 1}


def test_errors_are_one_line(invoke):
    result = CliRunner().invoke(main, ["stats", "--user", "no-such-user-anywhere"])
    assert result.exit_code == 1 and result.output.strip() == (
        "Error: unknown user 'no-such-user-anywhere': nothing has been stored for this user yet")
    result = CliRunner().invoke(main, ["stats", "--uri", "gopher://x"])
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1
    assert "unsupported URI" in result.output
    result = CliRunner().invoke(main, ["stats", "--uri", "bolt://127.0.0.1:9"])
    assert result.exit_code == 1 and "cannot reach Neo4j" in result.output
    assert "Traceback" not in result.output


def test_cypher_prints_the_statement(invoke):
    result = invoke("cypher", "cofaces")
    assert "$vids" in result.output and "MATCH" in result.output


def test_db_status(invoke):
    status = json.loads(invoke("db", "status", "--json").output)
    assert status["running"] is True and status["socket"].endswith(".sock")


def test_ingest_then_recall_and_gaps_from_the_command_line(invoke, user):
    """The README's first command, on a fresh user: the answer first, with what ranked it."""
    example = Path(__file__).resolve().parents[1] / "examples" / "chat.txt"
    assert invoke("ingest", example, "--user", user).exit_code == 0
    table = invoke("recall", "Where did Alice adopt Rex?", "--user", user, "--k", "3")
    assert table.exit_code == 0 and "adopted" in table.output and "speaker+" in table.output
    found = json.loads(invoke("recall", "Where did Alice adopt Rex?", "--user", user, "--k", "3", "--json").output)
    first = found["memories"][0]
    assert first["source_id"] == "chat.txt:2" and first["why"] and "semantic" in first["channels"]
    gaps = json.loads(invoke("gaps", "Did Emma ever meet Carol in Tokyo?", "--user", user, "--json").output)
    assert "Emma" in gaps["entities"] and gaps["gaps"]
    asked = invoke("recall", "Where did I adopt my puppy?", "--as", "Alice", "--user", user, "--k", "1")
    assert asked.exit_code == 0 and "topic: Where did adopt puppy?" in asked.output and "Lisbon" in asked.output
