"""The quick-start notebook runs top to bottom in a real kernel and draws its pictures, and it is
committed clean; `Recollection.induced_subcomplex()`, the data behind its first picture."""

from __future__ import annotations

import base64
import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "quickstart.ipynb"
PICTURES = 2  # the subcomplexes and the timeline: each cell that draws ends in plt.show()
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def code_cells(notebook: dict) -> list[dict]:
    return [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]


def test_the_committed_notebook_has_no_outputs():
    notebook = json.loads(NOTEBOOK.read_text())
    dirty = [i for i, cell in enumerate(code_cells(notebook)) if cell["outputs"] or cell["execution_count"] is not None]
    assert dirty == [], f"code cells {dirty} hold outputs or execution counts: clear them before committing"


def kernel_of_this_interpreter(tmp_path: Path):
    """A kernel of the interpreter running the tests (the project's .venv), whatever kernels
    Jupyter has registered elsewhere."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    spec = tmp_path / "kernels" / "graphmem-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "graphmem tests", "language": "python"}))
    return KernelManager(kernel_name="graphmem-test",
                         kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(spec.parent)]))


@pytest.mark.slow
def test_the_notebook_runs_and_draws_its_pictures(tmp_path_factory, monkeypatch):
    import nbclient  # the [test] extra's: a missing one fails, as any broken install would
    import nbformat

    monkeypatch.delenv("GRAPHMEM_URI", raising=False)  # the embedded default, whatever the environment names
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")  # pictures as PNG outputs
    # a short directory, for its throwaway store's socket to live in the store (drivers/embedded.py),
    # where conftest.py finds and stops the server when the session ends
    tmp_path = tmp_path_factory.mktemp("nb")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    copy = tmp_path / "quickstart.ipynb"  # run from elsewhere, on a copy: the committed one stays clean
    shutil.copy(NOTEBOOK, copy)
    notebook = nbformat.read(copy, as_version=4)
    kernel = kernel_of_this_interpreter(tmp_path)
    client = nbclient.NotebookClient(notebook, km=kernel, timeout=300, resources={"metadata": {"path": str(tmp_path)}})
    try:
        client.execute()  # raises CellExecutionError, with the cell and its traceback, on an error
    finally:
        if kernel.has_kernel:  # a kernel manager the client was given is the caller's to shut down
            kernel.shutdown_kernel()

    cells = code_cells(notebook)
    errors = [output for cell in cells for output in cell.outputs if output.output_type == "error"]
    assert errors == []
    drawing = [cell for cell in cells if "plt.show()" in cell.source]
    assert len(drawing) == PICTURES
    for cell in drawing:
        pictures = [base64.b64decode(output.data["image/png"]) for output in cell.outputs
                    if output.output_type == "display_data" and "image/png" in output.get("data", {})]
        assert len(pictures) == 1 and pictures[0].startswith(PNG_SIGNATURE), f"this cell drew nothing:\n{cell.source}"
    printed = "".join(output.get("text", "") for cell in cells for output in cell.outputs)
    assert "ingesting" in printed and "ask the user:" in printed
    assert "I moved to Lisbon." in printed and "until now" in printed


# -- the picture's data ---------------------------------------------------------------------

TRANSCRIPT = """\
## 8 May 2023
Alice: I adopted a puppy named Rex from the shelter in Lisbon.
Bob: Rex and I went running along the river this morning.

## 3 June 2023
Carol: I loved Tokyo in the spring.
"""


@pytest.fixture(scope="module")
def friends(mem, tmp_path_factory):
    path = tmp_path_factory.mktemp("induced") / "friends.txt"
    path.write_text(TRANSCRIPT)
    mem.ingest(path, user="induced-fixture")
    return mem, "induced-fixture"


def test_the_induced_subcomplex_holds_the_question_and_what_one_message_held(friends):
    mem, user = friends
    got = mem.recall("Where did Alice adopt Rex?", user=user, k=3)
    sub = got.induced_subcomplex(neighbours=2)
    asked = {e.vid for e in got.analysis.entities}
    assert sub.asked and set(sub.asked) == asked
    assert list(sub.names)[:len(sub.asked)] == list(sub.asked)  # the question's entities first
    assert len(sub.names) <= len(sub.asked) + 2
    by_name = {name: vid for vid, name in sub.names.items()}
    alice, rex = sorted((by_name["Alice"], by_name["Rex"]))
    assert sub.edges[(alice, rex)] == "turn"  # said in one message
    for face in (*sub.edges, *sub.triangles):
        assert list(face) == sorted(face) and set(face) <= set(sub.names)
    assert all(len(g.vids) > 0 for g in sub.gaps)


def test_the_induced_subcomplex_draws_entities_never_seen_together_as_a_hole(friends):
    mem, user = friends
    got = mem.recall("Did Carol ever meet Rex?", user=user, k=3)
    sub = got.induced_subcomplex()
    by_name = {name: vid for vid, name in sub.names.items()}
    pair = tuple(sorted((by_name["Carol"], by_name["Rex"])))
    assert pair not in sub.edges  # never observed together: no line
    assert any(g.hole and tuple(sorted(g.vids)) == pair for g in sub.gaps)  # but a hole, to dash


def test_neighbours_come_from_the_retrieved_simplices_and_none_leaves_the_question(friends):
    mem, user = friends
    got = mem.recall("Where did Alice adopt Rex?", user=user, k=3)
    asked = {e.vid for e in got.analysis.entities}
    retrieved = {v for s in got.subcomplex for v in s.vids}
    assert set(got.induced_subcomplex(neighbours=0).names) == asked
    wider = set(got.induced_subcomplex(neighbours=2).names)
    assert asked < wider <= asked | retrieved
