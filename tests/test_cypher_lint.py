"""Every Neo4j-dialect Cypher file passes Neo4j's own parser (tools/cypher-lint), and the linter
really fails on a broken statement."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT = ROOT / "tools" / "cypher-lint"

pytestmark = [
    pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (needed for tools/cypher-lint)"),
    pytest.mark.skipif(
        not (LINT / "node_modules").is_dir(),
        reason="tools/cypher-lint/node_modules is missing: run `npm ci --prefix tools/cypher-lint`",
    ),
]


def lint(*dirs: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["node", str(LINT / "lint.mjs"), *map(str, dirs)], capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_cypher_files_lint_clean():
    result = lint(ROOT / "cypher")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith(" 0 diagnostics")


def test_linter_fails_on_broken_statement(tmp_path):
    (tmp_path / "good.cypher").write_text("// good\n// params: user_id\nMATCH (n {user_id: $user_id}) RETURN n\n")
    (tmp_path / "bad.cypher").write_text(
        "// bad: a first statement is fine, the second lacks a ')'\n"
        "// params: user_id, unused\n"
        "MATCH (n {user_id: $user_id}) RETURN n;\n"
        "\n"
        "MATCH (n RETURN $other\n"
    )
    (tmp_path / "bad.falkordb.cypher").write_text("// not linted\nthis is not cypher\n")
    result = lint(tmp_path)
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    bad = tmp_path / "bad.cypher"
    assert f"{bad}:5:10: error: Invalid input 'RETURN'" in out  # line and column in the file
    assert f"{bad}:2:1: warning: parameter unused is declared" in out
    assert "good.cypher" not in out and "falkordb" not in out
    assert out.strip().splitlines()[-1].startswith("2 files, 3 statements, ")
