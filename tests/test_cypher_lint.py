"""Every Neo4j-dialect Cypher file (both forms of a file with a browser and a library tail) and
every ```cypher block of the Browser guide passes Neo4j's own parser (tools/cypher-lint), and the
linter really fails on a broken statement."""

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


def lint(*dirs: Path) -> subprocess.CompletedProcess:  # directories of .cypher files, or Markdown files
    return subprocess.run(
        ["node", str(LINT / "lint.mjs"), *map(str, dirs)], capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_cypher_files_lint_clean():
    result = lint(ROOT / "cypher")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith(" 0 diagnostics")


def test_browser_guide_lints_clean():
    result = lint(ROOT / "docs" / "browser.md")
    assert result.returncode == 0, result.stdout + result.stderr
    files, statements = result.stdout.strip().splitlines()[-1].split(", ")[:2]
    assert files == "1 files" and int(statements.split()[0]) >= 5


def test_linter_reads_both_tails_of_a_file(tmp_path):
    (tmp_path / "two.cypher").write_text(
        "// two: the library's tail is broken, the browser's is not\n"
        "// params: user_id, limit\n"
        "MATCH (s {user_id: $user_id})\n"
        "// browser: readable\n"
        "RETURN s.key AS key\n"
        "// library: fast\n"
        "//| RETURN s.key AS key\n"
        "//|        LIMIT $limit AS x\n"
    )
    out = lint(tmp_path).stdout
    two = tmp_path / "two.cypher"
    assert f"{two}:8:25: error: Invalid input 'AS'" in out  # the position in the file, after '//| '
    assert "never used" not in out  # $limit is used, by the library's tail
    assert out.strip().splitlines()[-1].startswith("1 files, 2 statements, 1 diagnostics")


def test_linter_reads_markdown_blocks_with_their_param_lines(tmp_path):
    (tmp_path / "guide.md").write_text(
        "# guide\n\n```python\nnot cypher\n```\n\n"
        "```cypher\n"
        ":param user_id => \"demo\";\n"
        ":param faces => [{key: \"1,6\"}, {key: }];\n"
        "\n"
        "MATCH (s {user_id: $user_id}) RETURN s, $undeclared;\n"
        "```\n"
    )
    out = lint(tmp_path / "guide.md").stdout
    guide = tmp_path / "guide.md"
    assert f"{guide}:9:38: error: Invalid input '}}'" in out  # a :param value is linted too
    assert f"{guide}:11:41: error: Parameter $undeclared is not defined" in out
    assert "$user_id" not in out and "python" not in out
    assert out.strip().splitlines()[-1] == "1 files, 1 statements, 2 diagnostics"


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
