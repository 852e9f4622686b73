"""The CLI's one-shot commands that need no model load none: no torch, no spaCy, no
sentence-transformers, no MCP SDK is imported (a model costs seconds and hundreds of MB)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from graphmem import Memory

HEAVY = ("torch", "spacy", "sentence_transformers", "mcp")

# Each command runs in a fresh interpreter; it prints what of HEAVY got imported.
SCRIPT = """
import json, sys
from click.testing import CliRunner
from graphmem.cli import main
runs = [CliRunner().invoke(main, args) for args in json.loads(sys.argv[1])]
print(json.dumps({"codes": [r.exit_code for r in runs], "out": [r.output for r in runs],
                  "loaded": sorted(m for m in %r if m in sys.modules)}))
""" % (HEAVY,)


def run_cli(home, *commands: list[str]) -> dict:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}, "GRAPHMEM_HOME": str(home)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(commands)], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_commands_without_a_model_load_none(home, user):
    got = run_cli(home,
                  ["simplex", "insert", "Alice", "Bob", "Paris", "--user", user],
                  ["simplex", "cofaces", "Alice", "--user", user, "--json"],
                  ["simplex", "gaps", "Alice", "Bob", "Paris", "--user", user],
                  ["stats", "--user", user, "--json"],
                  ["list", "--user", user, "--json"],
                  ["users", "--json"],
                  ["forget", "--user", user, "--everything", "--yes"])
    assert got["codes"] == [0] * 7, got["out"]
    assert "Paris" in got["out"][1] and "Paris" in got["out"][2]
    assert got["loaded"] == []


def test_forgetting_memories_loads_no_model(home, user):
    with Memory(home=home) as mem:  # the store the commands open
        added = mem.add([("Sam", "I adopted a cat called Miso in Lyon.")], user=user)
    got = run_cli(home, ["forget", "--user", user, "--memory", added.memory_ids[0], "--json"])
    assert got["codes"] == [0], got["out"]
    assert json.loads(got["out"][0])["memories"] == 1
    assert got["loaded"] == []
