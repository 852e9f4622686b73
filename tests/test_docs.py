"""Docs that cannot go stale: every Python block of the README runs as written, its
configuration table lists exactly the `Settings` fields (the notebook: tests/test_notebook.py)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from graphmem import Settings
from graphmem.settings import ENV_PREFIX, _parse

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

# Fields whose default is not one value a GRAPHMEM_* variable could hold: the README's cell
# must say this instead (a None / "" default reads "unset", a computed one names its source).
DESCRIBED_DEFAULTS = {
    "uri": "unset",
    "rerank_model": "unset",
    "home": "platformdirs",
    "recall_weights": "graphmem/settings.py",
}


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, re.DOTALL | re.MULTILINE)


def config_table(text: str) -> dict[str, tuple[str, str]]:
    """variable -> (default cell, meaning cell), from the table under '## Configuration'."""
    section = text.split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, tuple[str, str]] = {}
    for line in section.splitlines():
        match = re.match(r"\|\s*`(GRAPHMEM_[A-Z0-9_]+)`\s*\|(.*?)\|(.*)\|\s*$", line)
        if match:
            assert match[1] not in rows, f"{match[1]} is listed twice"
            rows[match[1]] = (match[2].strip(), match[3].strip())
    return rows


def _default(field: dataclasses.Field):
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return field.default


def test_readme_code_fences_balance():
    text = README.read_text()
    assert text.count("```") % 2 == 0
    assert python_blocks(text), "the README has no Python example"


def test_readme_python_blocks_run(home, monkeypatch):
    """Every ```python block, in order, in one namespace, on the embedded default."""
    monkeypatch.setenv("GRAPHMEM_HOME", str(home))
    monkeypatch.delenv("GRAPHMEM_URI", raising=False)
    monkeypatch.chdir(ROOT)  # the examples name examples/chat.txt
    namespace: dict = {}
    for number, block in enumerate(python_blocks(README.read_text()), start=1):
        exec(compile(block, f"README.md python block {number}", "exec"), namespace)
    cx = namespace["cx"]
    assert cx.stats()["simplices"] == 0 and cx.verify() == []  # the example ends by removing Alice+Bob cofaces
    assert namespace["summary"].turns == 8  # examples/chat.txt
    assert namespace["got"].memories, "the README's recall found nothing"
    namespace["mem"].close()


def test_readme_configuration_table_matches_settings():
    rows = config_table(README.read_text())
    fields = {ENV_PREFIX + f.name.upper(): f for f in dataclasses.fields(Settings)}
    assert set(rows) == set(fields), (
        f"missing from the README: {sorted(set(fields) - set(rows))}; "
        f"not Settings fields: {sorted(set(rows) - set(fields))}")
    for variable, (cell, meaning) in rows.items():
        field = fields[variable]
        assert meaning, f"{variable} says nothing about what it does"
        if field.name in DESCRIBED_DEFAULTS:
            assert DESCRIBED_DEFAULTS[field.name] in cell, f"{variable}: the default should say {DESCRIBED_DEFAULTS[field.name]!r}"
            continue
        literal = re.fullmatch(r"`([^`]*)`", cell)
        assert literal, f"{variable}: the default {cell!r} should be one `value` as the variable would hold it"
        assert _parse(field.name, literal[1], field.type) == _default(field), (
            f"{variable}: the README says {literal[1]!r}, Settings says {_default(field)!r}")


@pytest.mark.parametrize("name", sorted(DESCRIBED_DEFAULTS))
def test_described_defaults_are_still_not_literal(name):
    """Keep DESCRIBED_DEFAULTS honest: a field listed there has a default that is unset,
    empty or computed, not one a `value` could show."""
    field = {f.name: f for f in dataclasses.fields(Settings)}[name]
    default = _default(field)
    assert default in (None, "") or field.default_factory is not dataclasses.MISSING
