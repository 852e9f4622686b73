"""Cypher a person reads in Neo4j Browser: the readable and the library's forms of a statement
come from one file and return the same simplices; `--cypher` prints what a command would run
and writes nothing; docs/browser.md's statements are what the commands print, and they run on
the embedded FalkorDB and return what the guide shows."""

from __future__ import annotations

import json
import re
import shlex
import uuid
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem import Memory, Settings, queries
from graphmem.cli import main
from graphmem.complex import SEP
from graphmem.store import Store, literal

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "browser.md"
GUIDE_USER = "demo"  # the user the guide's commands name; the tests ingest under a fresh one
TWO_FORMS = [name for name in queries.names() if queries.load(name).two_forms]


# -- one source ------------------------------------------------------------------------

def test_the_simplex_statements_have_a_readable_form():
    assert {"cofaces", "cofaces_witnesses", "find", "simplices", "face_membership", "gaps", "gap_support",
            "gap_holders", "recall_simplicial", "memory_simplices"} <= set(TWO_FORMS)
    for name in TWO_FORMS:
        query = queries.load(name)
        assert "packed" not in query.browser and "$sep" not in query.browser, name


@pytest.mark.parametrize("name", TWO_FORMS)
def test_both_forms_share_everything_before_the_tails(name):
    """The part before `// browser:` is written once; each form is it plus its own tail, and
    the library's form is what graphmem runs."""
    query = queries.load(name)
    raw = query.path.read_text().splitlines()
    browser_at = next(i for i, line in enumerate(raw) if line.startswith("// browser:"))
    shared = "\n".join(line for line in raw[:browser_at] if not line.lstrip().startswith("//")).strip()
    assert query.browser.startswith(shared + "\n") and query.text.startswith(shared + "\n")
    assert query.browser != query.text
    used = set(re.findall(r"\$(\w+)", query.text)) | set(re.findall(r"\$(\w+)", query.browser))
    assert used == set(query.params), "both forms together use exactly the declared parameters"
    for match in re.finditer(r"ORDER BY (.+)$", query.text, re.MULTILINE):  # as test_cypher_files does for the file
        assert re.search(r"(?:\b\w+\.)?\b(uid|vid|key)(?: ASC)?$", match[1].rsplit(",", 1)[-1].strip()), match[0]


def test_a_file_without_tails_has_one_form():
    query = queries.load("stats")
    assert not query.two_forms and query.browser == query.text


@pytest.mark.parametrize("raw", [
    "MATCH (n)\n// library: x\n//| RETURN n\n",  # no browser tail
    "MATCH (n)\n// browser: x\nRETURN n\n",  # no library tail
    "MATCH (n)\n// browser: x\nRETURN n\n// library: y\nRETURN n\n",  # a library line not commented
    "MATCH (n)\n//| RETURN n\n",  # a library line with no tails
])
def test_misplaced_tails_are_refused(raw):
    with pytest.raises(ValueError):
        queries.forms(raw, "bad.cypher")


@pytest.fixture(scope="module")
def embedded(home):
    """The embedded store the CLI (the `invoke` fixture) and the guide's tests use, whichever
    backend `mem` is."""
    memory = Memory(settings=Settings(home=home))
    yield memory
    memory.close()


def _history(cx):
    cx.insert(["Alice", "Bob", "Paris"], kind="turn", meta={"source": "chat"}, at=datetime(2023, 5, 8, 13, 56))
    cx.insert(["Alice", "Paris"], kind="session", at=datetime(2023, 6, 3))
    cx.insert(["Alice", "Paris"], kind="session", at=datetime(2023, 7, 1))
    cx.insert(["Bob", "Paris", "Tokyo"], kind="turn", at=datetime(2023, 6, 3))
    cx.insert(["Carol"], kind="turn", at=datetime(2023, 6, 3))
    return cx


@pytest.fixture
def complex_with_a_history(mem, user):
    return _history(mem.complex(user))


@pytest.fixture
def embedded_complex(embedded, user):
    return _history(embedded.complex(user))


def _browser(mem, name, **params):
    query = queries.load(name, mem.store.dialect)
    return mem.driver.run(query.browser, {k: params[k] for k in query.params}, read_only=True, retry=True)


def test_readable_and_fast_forms_return_the_same_simplices(mem, complex_with_a_history):
    """Drift between the two tails shows here: both forms find the same simplices, with the
    same counts, kinds and times."""
    cx = complex_with_a_history
    for vertices in (["Paris"], ["Alice", "Paris"], ["Bob"], ["Carol"]):
        vids = list(cx.vids(vertices))
        fast = cx.cofaces(vertices)
        for name in ("cofaces", "cofaces_witnesses"):
            rows = _browser(mem, name, user_id=cx.user, vids=vids)
            assert [r["names"] for r in rows] == [list(s.names) for s in fast], name
            assert [(r["dimension"], r["count"], r["kind"]) for r in rows] == [(s.dimension, s.count, s.kind) for s in fast]
            assert [_utc(r["last_seen"]) for r in rows] == [s.last_seen.replace(microsecond=0) for s in fast]
            assert [_utc(r["first_seen"]) for r in rows] == [s.first_seen.replace(microsecond=0) for s in fast]
        packed = mem.store.run("cofaces", user_id=cx.user, vids=vids)[0]["rows"]
        assert sorted(row.split(SEP, 1)[0] for row in packed) == sorted(s.key for s in fast)
    largest = _browser(mem, "simplices", user_id=cx.user, limit=3)
    assert [r["names"] for r in largest] == [list(s.names) for s in cx.simplices(limit=3)]
    assert largest[0] == {**largest[0], "names": ["Alice", "Bob", "Paris"], "dimension": 2, "count": 1, "kind": "turn"}
    found = _browser(mem, "find", user_id=cx.user, key=cx.find(["Paris", "Alice"]).key)
    assert found[0]["names"] == ["Alice", "Paris"] and found[0]["count"] == 2
    assert _utc(found[0]["first_seen"]).isoformat() == "2023-06-03T00:00:00+00:00"
    pairs = [cx.vids(["Alice", "Bob"]), cx.vids(["Bob", "Tokyo"])]
    faces = [{"key": ",".join(map(str, pair)), "vids": list(pair)} for pair in pairs]
    gaps = _browser(mem, "gaps", user_id=cx.user, faces=faces)
    assert sorted(g["face"] for g in gaps) == sorted(list(f.names) for pair in pairs for f in cx.gaps(pair)) == [
        ["Alice", "Bob"], ["Bob", "Tokyo"]]
    whole = cx.vids(["Alice", "Bob", "Paris", "Tokyo"])
    every = [{"key": ",".join(map(str, f.vids)), "vids": list(f.vids)} for f in cx.faces(whole) if f.dimension > 0]
    support = _browser(mem, "gap_support", user_id=cx.user, faces=every)
    assert sorted((r["face"], r["observed"]) for r in support) == sorted(
        (list(x.face.names), x.face.count) for x in cx.support(whole) if x.together)
    membership = _browser(mem, "face_membership", user_id=cx.user, keys=[f["key"] for f in every])
    assert sorted((r["face"], r["stored"], r["count"]) for r in membership) == sorted(
        (list(f.names), f.stored, f.count) for f in cx.faces(whole) if f.dimension > 0)
    assert ["Alice", "Paris"] in [r["face"] for r in membership if r["stored"]]
    holders = _browser(mem, "gap_holders", user_id=cx.user, faces=faces)
    assert sorted((h["face"], h["held_by"], h["kind"]) for h in holders) == sorted(
        (list(cx.names_of(pair).values()), list(face.names), kind) for pair, (face, kind) in cx.holders(pairs).items()) == [
        (["Alice", "Bob"], ["Alice", "Bob", "Paris"], "turn"), (["Bob", "Tokyo"], ["Bob", "Paris", "Tokyo"], "turn")]


def _utc(value):
    """A readable form's date (a datetime on FalkorDB, a neo4j LocalDateTime on Neo4j) as a UTC
    datetime, for comparison."""
    value = value.to_native() if hasattr(value, "to_native") else value
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)


# -- :param lines ------------------------------------------------------------------------

@pytest.mark.parametrize("value", [None, True, 3, -1.5, "it's \"quoted\"\n\t ünïcode \\ ", [1, "a", None],
                                   {"key": "1,6", "vids": [1, 6], "odd key": {"x": [True]}}])
def test_param_values_are_cypher_literals_the_database_reads_back(mem, value):
    assert mem.driver.run(f"RETURN {literal(value)} AS value", {}, read_only=True, retry=True)[0]["value"] == value


def test_control_characters_are_written_as_neo4j_escapes():
    """Neo4j reads \\u001f in a string literal (FalkorDB does not: these lines are for Browser)."""
    assert literal("a\x1fb") == '"a\\u001fb"'


def test_store_cypher_gives_param_lines_and_the_readable_form():
    text = Store.cypher("cofaces", user_id="alice", vids=[3, 7])
    assert text.splitlines()[:2] == [':param user_id => "alice";', ":param vids => [3, 7];"]
    assert text.endswith(queries.load("cofaces").browser + ";") and "packed" not in text


# -- --cypher ----------------------------------------------------------------------------

@pytest.fixture
def invoke(home, monkeypatch):
    monkeypatch.setenv("GRAPHMEM_HOME", str(home))
    monkeypatch.delenv("GRAPHMEM_URI", raising=False)

    def run(*args):
        result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    return run


def test_cypher_flag_prints_the_statement_with_real_parameters_and_runs_nothing(invoke, embedded_complex):
    cx = embedded_complex
    out = invoke("simplex", "cofaces", "Paris", "Alice", "--user", cx.user, "--cypher")
    assert out.startswith("// 1. cofaces_witnesses.cypher: read, not run\n")
    assert f':param user_id => "{cx.user}";\n:param vids => {list(cx.vids(["Alice", "Paris"]))};' in out
    assert queries.load("cofaces_witnesses").browser in out and "packed" not in out and "//|" not in out
    before = cx.stats()
    removed = invoke("simplex", "remove", "Paris", "--cofaces", "--user", cx.user, "--cypher")
    assert removed.startswith("// 1. remove.cypher: write, not run") and ":param cofaces => true;" in removed
    inserted = invoke("simplex", "insert", "Alice", "Zorro", "--user", cx.user, "--cypher")
    assert "ensure_entities.cypher: write, not run" in inserted and '"Zorro"' in inserted
    assert cx.stats() == before and cx.vids(["Zorro"]) is None  # nothing was written
    assert invoke("simplex", "cofaces", "Nobody", "--user", cx.user, "--cypher").startswith("// no statement")


def test_cypher_flag_on_a_command_of_several_statements_runs_only_reads(invoke, embedded_complex):
    cx = embedded_complex
    out = invoke("stats", "--user", cx.user, "--cypher", "--json")
    names = re.findall(r"^// \d+\. (\S+): (read, ran|write, not run)", out, re.MULTILINE)
    assert [n for n, _ in names] == ["user_exists.cypher", "stats.cypher", "counts.cypher"]
    assert "{" not in out.split("\n", 1)[0] and '"simplices"' not in out  # no JSON result, the plan only


def test_cypher_flag_stops_at_the_first_write_and_writes_nothing(embedded, invoke, chat_user):
    states = [(m.id, m.state) for m in embedded.memories(chat_user)]
    maintained = invoke("maintain", "--user", chat_user, "--now", "2026-01-01", "--cypher")
    assert re.findall(r"^// \d+\. (\S+): (.*)$", maintained, re.MULTILINE) == [
        ("user_exists.cypher", "read, ran"), ("lifecycle_memories.cypher", "read, ran"),
        ("set_memory_states.cypher", "write, not run (nothing runs from here on: a write's result may feed the rest)")]
    assert ":param changes => [{" in maintained  # the write's parameters come from the reads before it
    forgot = invoke("forget", "--entity", "Rex", "--user", chat_user, "--cypher")
    assert [step for step, _ in re.findall(r"^// \d+\. (\S+): (.*)$", forgot, re.MULTILINE)] == [
        "user_exists.cypher", "lock_user.cypher", "recall_entities_by_name.cypher", "forget_select.cypher",
        "mark_forgetting.cypher"]
    assert "taken as done" in forgot and ":param vids => [" in forgot  # the lease granted, Rex's vid looked up
    assert [(m.id, m.state) for m in embedded.memories(chat_user)] == states and len(states) == 8


# -- the guide ---------------------------------------------------------------------------

def _sections() -> list[tuple[str | None, str, str | None]]:
    """(the `graphmem ... --cypher` command before it or None, the ```cypher block, the table
    after it or None) for each ```cypher block of the guide."""
    text = GUIDE.read_text()
    found = []
    for block in re.finditer(r"```cypher\n(.*?)```\n", text, re.DOTALL):
        before = text[:block.start()]
        command = re.findall(r"^\$ (graphmem .*--cypher)$", before, re.MULTILINE)
        last_fence = before.rfind("```cypher")
        command_at = before.rfind("$ graphmem")
        table = re.match(r"\n*((?:\|.*\|\n)+)", text[block.end():])
        found.append((command[-1] if command and command_at > last_fence else None, block[1],
                      table[1] if table else None))
    return found


def render(rows: list[dict]) -> str:
    """Rows as the guide's Markdown table: lists as JSON, dates as Browser shows a local datetime."""
    def cell(value) -> str:
        if isinstance(value, datetime):
            return value.replace(tzinfo=None).isoformat()
        if isinstance(value, (list, dict)):
            return json.dumps(value, ensure_ascii=False)
        return "null" if value is None else str(value)

    head = list(rows[0]) if rows else []
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell(row[k]).replace("|", "\\|") for k in head) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def run_block(mem, block: str, user: str) -> list[dict]:
    """A guide block as Neo4j Browser runs it: its `:param` values read back by the database
    itself, then its statement, on the embedded FalkorDB, as `user`."""
    params = {}
    lines = []
    for line in block.splitlines():
        param = re.match(r"^:param (\w+) => (.*);$", line)
        if param:
            params[param[1]] = mem.driver.run(f"RETURN {param[2]} AS value", {}, read_only=True, retry=True)[0]["value"]
        elif not line.startswith("//"):
            lines.append(line)
    params["user_id"] = user
    statement = "\n".join(lines).strip().rstrip(";")
    return mem.driver.run(statement, params, read_only=True, retry=True)


@pytest.fixture(scope="module")
def chat_user(embedded):
    """examples/chat.txt ingested, as the guide's `demo` user has it."""
    user = f"guide-{uuid.uuid4().hex[:8]}"
    embedded.ingest(str(ROOT / "examples" / "chat.txt"), user=user)
    return user


def test_readable_and_fast_forms_agree_on_an_ingested_complex(embedded, chat_user):
    """The statements that need memories: a query's subcomplex, a memory's simplices."""
    cx = embedded.complex(chat_user)
    vids = list(cx.vids(["Emma", "Rex", "Carol"]))
    subcomplex = _browser(embedded, "recall_simplicial", user_id=chat_user, vids=vids, min_overlap=1, limit=20)
    library = embedded.store.run("recall_simplicial", user_id=chat_user, vids=vids, min_overlap=1, limit=20)
    assert len(subcomplex) >= 5
    assert [r["names"] for r in subcomplex] == [list(cx.names_of(r["path"]).values()) for r in library]
    assert [(r["overlap"], r["count"], sorted(r["witnesses"])) for r in subcomplex] == [
        (r["overlap"], int(r["count"]), sorted(r["witnesses"])) for r in library]
    said = next(m for m in embedded.memories(chat_user) if m.text.startswith("Emma and Rex"))
    rows = _browser(embedded, "memory_simplices", user_id=chat_user, uid=said.id)
    assert [r["names"] for r in rows] == [list(s.names) for s in cx.witnessed(said.id)]
    assert [(r["dimension"], r["kind"]) for r in rows] == [(10, "session"), (2, "turn")]
    assert rows[0]["text"] == said.text and cx.witnessed("no-such-memory") == []


def test_guide_statements_are_what_the_commands_print_and_run_to_what_it_shows(embedded, invoke, chat_user):
    sections = _sections()
    assert len(sections) >= 5
    assert sum(command is not None for command, _, _ in sections) >= 4
    for command, block, table in sections:
        if command is not None:
            args = shlex.split(command)[1:]
            args[args.index("--user") + 1] = chat_user
            printed = invoke(*args).replace(f'"{chat_user}"', f'"{GUIDE_USER}"')
            # a command of several statements: the block is one of them (numbered as they ran)
            statements = [part if part.endswith("\n") else part + "\n"
                          for part in re.split(r"\n\n(?=// \d+\. )", printed)]
            number = re.compile(r"^// \d+\. ")
            assert printed == block or number.sub("// N. ", block) in [number.sub("// N. ", x) for x in statements], (
                f"docs/browser.md is stale for `{command}`: it prints\n{printed}")
        rows = run_block(embedded, block, chat_user)
        assert rows, block
        if table is not None:
            assert render(rows) == table, f"docs/browser.md shows another result for\n{block}\nit returns\n{render(rows)}"


def test_guide_drawing_returns_paths_from_a_memory_to_its_entities(embedded, chat_user):
    drawing = [block for command, block, table in _sections() if command is None and table is None]
    assert drawing, "the guide has a statement whose result the Browser draws"
    rows = run_block(embedded, drawing[0], chat_user)
    labels = {label for row in rows for node in row["p"].nodes() for label in node.labels}
    assert {"Memory", "SimplexNode", "Entity"} <= labels
    names = {node.properties.get("name") for row in rows for node in row["p"].nodes()}
    assert {"Emma", "Rex", "Lisbon"} <= names
