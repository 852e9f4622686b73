"""Docs that cannot go stale: the README's Python example and the notebook run as written."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_python_example_runs(home, monkeypatch):
    monkeypatch.setenv("GRAPHMEM_HOME", str(home))
    monkeypatch.delenv("GRAPHMEM_URI", raising=False)
    block = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)[1]
    namespace: dict = {}
    exec(compile(block, "README.md", "exec"), namespace)
    cx = namespace["cx"]
    assert cx.stats()["simplices"] == 0 and cx.verify() == []  # the example ends by removing Alice+Bob cofaces


def test_quickstart_notebook_runs(home, monkeypatch):
    monkeypatch.setenv("GRAPHMEM_HOME", str(home))
    monkeypatch.delenv("GRAPHMEM_URI", raising=False)
    notebook = json.loads((ROOT / "notebooks" / "quickstart.ipynb").read_text())
    namespace: dict = {}
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), "quickstart.ipynb", "exec"), namespace)
    assert namespace["cx"].verify() == []
