"""The parse in worker processes (graphmem/ingest/parsers.py): what the workers extract is what
one thread extracts, an ingest through them stores the same memory, a failed worker leaves the
parse to the thread, and a caller's script is never run again by a worker. Real spaCy, real
processes, the embedded FalkorDB."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from datetime import datetime, timezone

import pytest

from graphmem import Memory, Settings, Turn
from graphmem.errors import ConfigError
from graphmem.ingest import parsers
from graphmem.ingest.parsers import Workers, batch_parser, processes_for
from graphmem.ingest.pipeline import frees_cores
from graphmem.ingest.plan import extract_batch
from graphmem.models import Models

WHEN = datetime(2024, 3, 1, tzinfo=timezone.utc)
SPEAKERS = ["user", "assistant"]
CHAT = [
    ("user", "I moved to Berlin in June, and my sister Anna still lives in Lisbon."),
    ("assistant", "Congratulations on the move! How are you finding Berlin so far?"),
    ("user", "I started a new job at Siemens, and my manager Tom Becker is great."),
    ("assistant", "Here is the login route you asked for:\n\n```python\n@app.route('/login', methods=['POST'])\n"
                  "def login():\n    data = request.get_json()\n    return jsonify(ok=True)\n```\n\n"
                  "It reads the JSON body and answers with a flag."),
    ("user", "We have a $20k budget for the redesign, due before the conference in Vienna."),
    ("assistant", "With $20k you could hire a designer for six weeks."),
    ("user", "I don't smoke anymore, and I run with Anna every Sunday when she visits."),
    ("assistant", "That is a great habit to share with your sister."),
    ("user", "Actually the redesign budget is now $25k, since Tom found more money."),
    ("assistant", "Good news: $25k leaves room for user testing in Vienna."),
]


def chat() -> list[Turn]:
    return [Turn(source_id=f"m{i}", speaker=speaker, text=text, session="1", session_date=WHEN, line=i + 1,
                 index=i, message_id=f"m{i}") for i, (speaker, text) in enumerate(CHAT)]


@pytest.fixture(scope="module")
def models() -> Models:
    return Models(Settings())


def test_workers_extract_what_one_thread_extracts(models):
    turns = chat()
    alone = extract_batch(models, turns, SPEAKERS)
    split = batch_parser(models, 2)(turns, SPEAKERS)
    assert split == alone
    assert any(x.claims for x in split) and any(m.name == "Anna" for x in split for m in x.mentions)


def test_an_ingest_through_workers_stores_what_one_thread_stores(mem, tmp_path):
    if mem.settings.uri is not None:
        pytest.skip("opens a second handle on the embedded server")
    stored = {}
    for processes in (0, 2):
        user = f"parse-{processes}-{tmp_path.name}"
        # four turns a batch: the ingest has several, so the parse runs beside the writes
        other = Memory(settings=replace(mem.settings, ingest_batch=4, parse_processes=processes))
        try:
            summary = other.ingest(chat(), user=user)
        finally:
            other.close()
        simplices = sorted(tuple(sorted(s.names)) for s in mem.complex(user).simplices())
        texts = [m.text for m in mem.memories(user)]
        stored[processes] = (summary.memories_added, summary.mentions, summary.relations, summary.claims,
                             summary.turn_simplices, simplices, texts)
    assert stored[0][0] == len(CHAT) and stored[0][3] > 0
    assert stored[2] == stored[0]


def test_a_failed_worker_leaves_the_parse_to_the_thread_and_the_next_ingest_starts_new_ones(models, caplog):
    settings = replace(models.settings, spacy_models=(*models.settings.spacy_models, "failed-worker-test"))
    workers, fresh = parsers._pool(settings, 2), None
    try:
        workers.procs[1].kill()
        workers.procs[1].wait()
        with caplog.at_level(logging.WARNING, logger="graphmem.ingest.parsers"):
            parsed = workers.parse(models, chat(), SPEAKERS)
        assert parsed == extract_batch(models, chat(), SPEAKERS)
        assert workers.broken and not workers.procs
        assert [r.getMessage() for r in caplog.records if "parse goes on in one thread" in r.getMessage()]
        assert workers.parse(models, chat()[:2], SPEAKERS) == extract_batch(models, chat()[:2], SPEAKERS)
        fresh = parsers._pool(settings, 2)  # what the next ingest gets
        assert fresh is not workers and not fresh.broken and len(fresh.procs) == 2
        assert fresh.parse(models, chat(), SPEAKERS) == parsed
    finally:
        for pool in (workers, fresh):
            if pool is not None:
                pool.close()


def test_what_extraction_raises_in_a_worker_is_raised_to_the_caller(models):
    broken = chat()[:4]
    broken[3] = replace(broken[3], text=b"not text")  # type: ignore[arg-type]
    with pytest.raises(Exception) as alone:
        extract_batch(models, broken, SPEAKERS)
    workers = Workers(models.settings, 2)
    try:
        with pytest.raises(type(alone.value)):
            workers.parse(models, broken, SPEAKERS)
        assert not workers.broken  # the worker lives on: the next batch is parsed there
        assert workers.parse(models, chat()[:4], SPEAKERS) == extract_batch(models, chat()[:4], SPEAKERS)
    finally:
        workers.close()


def test_a_worker_without_a_spacy_pipeline_says_so_in_one_line(models, capfd):
    settings = replace(models.settings, spacy_models=("no_such_pipeline_for_graphmem",))
    workers = Workers(settings, 2)
    try:
        with pytest.raises(ConfigError, match="none of the spaCy models no_such_pipeline_for_graphmem is installed"):
            workers.parse(Models(settings), chat()[:4], SPEAKERS)
        assert not workers.broken
    finally:
        workers.close()
    assert "Traceback" not in capfd.readouterr().err  # the workers printed none


def test_a_worker_does_not_run_the_callers_script_again(home, tmp_path):
    """multiprocessing's workers import the caller's main script again; one without an
    `if __name__ == "__main__"` guard would then run twice, writes and all. Ours are plain
    interpreters: the script's top level runs once."""
    ran = tmp_path / "ran.txt"
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(f"""
        from pathlib import Path
        from graphmem import Memory, Settings

        with open({str(ran)!r}, "a") as f:
            f.write("ran\\n")
        mem = Memory(settings=Settings(home=Path({str(home)!r}), ingest_batch=4, parse_processes=2))
        path = Path({str(tmp_path / "chat.json")!r})
        print("added", mem.ingest(path, user="script-{tmp_path.name}").memories_added)
        mem.close()
    """))
    (tmp_path / "chat.json").write_text(json.dumps([{"role": r, "content": c} for r, c in CHAT]))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"added {len(CHAT)}" in done.stdout
    assert ran.read_text() == "ran\n"


def test_a_worker_loads_torch_only_for_a_pipeline_that_runs_on_it(models, tmp_path):
    """thinc imports torch wherever it is installed; a worker for the small pipeline keeps it out
    (half the memory and start), and a transformer pipeline's folder or package keeps it in."""
    workers = Workers(models.settings, 2)
    try:
        assert workers.parse(models, chat()[:2], SPEAKERS) == extract_batch(models, chat()[:2], SPEAKERS)
        for proc in workers.procs:
            assert "libtorch" not in Path(f"/proc/{proc.pid}/maps").read_text()
    finally:
        workers.close()
    assert not parsers.needs_torch(models.settings.spacy_models)
    (tmp_path / "meta.json").write_text(json.dumps({"requirements": ["spacy-curated-transformers>=0.2.2,<0.3.0"]}))
    assert parsers.needs_torch(("en_core_web_sm", str(tmp_path)))


def test_processes_by_where_the_embedding_runs_unless_set():
    """-1 (the default): workers only where the embedding leaves the cores free (a GPU, or
    bfloat16 on AMX), one per four cores, at most four, and none rather than one; a number sets
    it; below -1 is refused."""
    assert processes_for(-1, True, 16) == 4 and processes_for(-1, True, 64) == parsers.MOST == 4
    assert processes_for(-1, True, 8) == 2
    assert processes_for(-1, True, 4) == 0  # one worker would only move the parse
    assert processes_for(-1, False, 64) == 0
    assert processes_for(3, False, 2) == 3 and processes_for(0, True, 16) == 0
    assert Settings().parse_processes == -1
    on = lambda device, precision, amx: frees_cores(SimpleNamespace(device=device, precision=precision, amx=amx))
    assert on("cuda", "bfloat16", False) and on("cuda:1", "float32", False)
    assert on("cpu", "bfloat16", True)  # AMX: the embedding takes one thread
    assert not on("cpu", "bfloat16", False) and not on("cpu", "float32", True) and not on("mps", "float32", False)
    with pytest.raises(ConfigError, match="parse_processes"):
        Settings.from_env(parse_processes=-2)
