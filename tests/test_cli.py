"""The CLI is a thin skin: each command is a library call; errors are one line."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.drivers.embedded import EmbeddedServer


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


def test_every_command_that_runs_statements_takes_cypher():
    """--cypher (docs/cli.md) on every command but those that run no statement of a user's store."""
    import click

    def leaves(command, path=()):
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                yield from leaves(sub, path + (name,))
        else:
            yield path, command

    without = {path for path, command in leaves(main) if "--cypher" not in
               {opt for param in command.params for opt in param.opts}}
    assert without == {("cypher",), ("db", "start"), ("db", "stop"), ("db", "status"), ("bench", "locomo"),
                       ("bench", "beam"), ("bench", "perf")} | {p for p in without if p[0] == "mcp"}


def test_cypher_prints_the_statement(invoke):
    result = invoke("cypher", "cofaces")
    assert "$vids" in result.output and "MATCH" in result.output


def test_cypher_of_an_operation_pastes_into_browser_with_a_param_line_per_parameter(invoke):
    lines = invoke("cypher", "cofaces").output.splitlines()
    assert [line for line in lines if line.startswith(":param")] == [":param user_id => null;", ":param vids => null;"]


def test_bad_options_are_one_line_naming_the_option_and_write_nothing(invoke, user):
    """--meta that is no JSON object, a --limit under 1, a --max-dim under 0, forget without
    exactly one selector: one line naming the option, exit 1, nothing written; verify of a user
    nothing was stored for is an unknown user, as stats is."""
    assert invoke("simplex", "insert", "Alice", "Bob", "--user", user).exit_code == 0
    for meta, what in (("[1,2]", "an array"), ("5", "a number"), ('"s"', "a string")):
        refused = invoke("simplex", "insert", "Carol", "Dave", "--meta", meta, "--user", user)
        assert (refused.exit_code, refused.output) == (1, f"Error: --meta must be a JSON object, not {what}: {meta}\n")
    assert json.loads(invoke("stats", "--user", user, "--json").output)["entities"] == 2  # no Carol, no Dave
    for args, error in ((["simplex", "list", "--limit", "-1"], "--limit must be a positive integer, not -1"),
                        (["simplex", "list", "--limit", "0"], "--limit must be a positive integer, not 0"),
                        (["simplex", "cofaces", "Alice", "--limit", "-2"], "--limit must be a positive integer, not -2"),
                        (["simplex", "faces", "Alice", "Bob", "--max-dim", "-5"],
                         "--max-dim must be a non-negative integer, not -5"),
                        (["list", "--limit", "0"], "--limit must be a positive integer, not 0"),
                        (["forget"], "give exactly one of --memory, --conversation, --entity, --before, --everything"),
                        (["forget", "--entity", "Alice", "--everything"],
                         "give exactly one of --memory, --conversation, --entity, --before, --everything")):
        refused = invoke(*args, "--user", user)
        assert (refused.exit_code, refused.output) == (1, f"Error: {error}\n"), args
    assert json.loads(invoke("simplex", "list", "--user", user, "--json").output)[0]["vertices"] == ["Alice", "Bob"]
    unknown = invoke("verify", "--user", f"{user}-nobody")
    assert (unknown.exit_code, unknown.output) == (
        1, f"Error: unknown user '{user}-nobody': nothing has been stored for this user yet\n")


def test_db_start_status_stop_on_a_home_of_its_own(tmp_path, monkeypatch):
    """Starts what it asserts: no earlier test's server counts."""
    monkeypatch.setenv("GRAPHMEM_HOME", str(tmp_path))
    runner = CliRunner()
    try:
        assert runner.invoke(main, ["db", "start"]).exit_code == 0
        running = runner.invoke(main, ["db", "status", "--json"])
        assert running.exit_code == 0 and json.loads(running.output)["running"] is True
        assert json.loads(running.output)["socket"].endswith(".sock")
    finally:
        assert runner.invoke(main, ["db", "stop"]).exit_code == 0
    stopped = runner.invoke(main, ["db", "status", "--json"])
    assert stopped.exit_code == 1 and json.loads(stopped.output)["running"] is False


@pytest.mark.slow
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
    assert "Emma" in gaps["entities"] and gaps["gaps"] and next(iter(gaps["gaps"][0])) == "question"
    table = invoke("gaps", "Did Carol ever meet Rex in Tokyo?", "--user", user).output
    assert "2 real holes" in table and "Do you know" in table  # the question first, the hole's kind beside it
    asked = invoke("recall", "Where did I adopt my puppy?", "--as", "Alice", "--user", user, "--k", "1")
    assert asked.exit_code == 0 and "topic: Where did adopt puppy?" in asked.output and "Lisbon" in asked.output


def test_add_reads_an_agents_messages_from_a_file_and_names_the_file_of_a_bad_one(invoke, user, tmp_path):
    chat = [{"role": "system", "content": "You are a travel agent."},
            {"role": "user", "name": "Sam", "content": "I moved to Berlin in June."},
            {"role": "assistant", "content": "Noted: Berlin."}]
    good = tmp_path / "chat.json"
    good.write_text(json.dumps(chat))
    added = json.loads(invoke("add", "--messages", good, "--conversation", "trip", "--user", user, "--json").output)
    assert added["memories_added"] == 2  # the system prompt is no memory
    again = json.loads(invoke("add", "--messages", good, "--conversation", "trip", "--user", user, "--json").output)
    assert again["memories_added"] == 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([chat[1], {"role": "user", "content": 5}]))
    refused = invoke("add", "--messages", bad, "--user", f"{user}-bad")
    assert refused.exit_code == 1 and refused.output.strip().splitlines() == [
        f'Error: {bad}: message 2: "content" must be a string or a list of parts, not int']
    assert invoke("stats", "--user", f"{user}-bad").exit_code == 1  # nothing was written


def test_an_empty_message_and_a_mistyped_memory_id_are_refused_not_passed_over(invoke, user):
    """`add ""` is a mistake, not a quiet "added 0"; `forget --memory` of an id that is no
    memory of the user says so and exits 1, after forgetting the ids that are."""
    for blank in ("", "   "):
        refused = invoke("add", blank, "--user", user)
        assert (refused.exit_code, refused.output) == (1, "Error: TEXT is empty: nothing to add\n")
    assert invoke("stats", "--user", user).exit_code == 1  # nothing was written, no user made
    assert invoke("add", "I live in Paris.", "--user", user).exit_code == 0
    uid = json.loads(invoke("list", "--user", user, "--json").output)[0]["id"]
    typo = invoke("forget", "--memory", uid + "x", "--memory", uid, "--user", user)
    assert typo.exit_code == 1 and typo.output.startswith(f"forgot 1 memories of {user}")
    assert typo.output.splitlines()[-1] == f"Error: no memory '{uid}x' for user '{user}' (never stored, or forgotten already)"
    again = invoke("forget", "--memory", uid, "--user", user, "--json")
    assert again.exit_code == 1 and f"no memory '{uid}'" in again.output


# -- connection options: before the command, after it, and from the environment ------------



def test_tables_print_user_text_as_written_and_recall_marks_a_retired_version(invoke, user, monkeypatch):
    """Memories, speakers and conversations are user text: brackets and colons in them are no
    rich markup or emoji codes ("[/]" in a regex was a MarkupError traceback). Recall's table
    gives each memory's id and marks a superseded one, as context() does. At 80 columns the
    values a person copies (a memory's id, what --conversation takes) and a memory's date are
    shown whole, wrapped if need be, never cut."""
    monkeypatch.setenv("COLUMNS", "250")
    literal = "My regex is [/a-z]+ and [bold]x stays, :smile: too, also [/]"
    for args in (["I live in Paris.", "--conversation", "sam-moves-house", "--at", "2024-01-05"],
                 ["I moved to Berlin last month.", "--conversation", "sam-moves-house", "--at", "2024-06-05"],
                 [literal, "--conversation", "[notes]-c6a37b", "--at", "2024-06-06"]):
        assert invoke("add", *args, "--speaker", "[Sam]", "--user", user).exit_code == 0
    table = invoke("recall", "Where do I live?", "--as", "[Sam]", "--user", user, "--k", "3")
    assert table.exit_code == 0, table.output
    found = json.loads(invoke("recall", "Where do I live?", "--as", "[Sam]", "--user", user, "--k", "3", "--json").output)
    paris = next(m for m in found["memories"] if "Paris" in m["text"])
    assert "(superseded 2024-06-05)" in table.output and paris["uid"] in table.output and "[Sam]" in table.output
    # asked at the end of 2024, "in March" is March 2024, when Paris held
    then = json.loads(invoke("recall", "Where did I live in March?", "--as", "[Sam]", "--user", user, "--k", "1",
                             "--asked-at", "2024-12-20", "--json").output)
    assert then["memories"][0]["uid"] == paris["uid"] and then["analysis"]["time_range"][0].startswith("2024-03-01")
    bad = invoke("recall", "Where did I live in March?", "--user", user, "--asked-at", "last spring")
    assert bad.exit_code != 0 and "--asked-at" in bad.output and "Traceback" not in bad.output
    shown = invoke("recall", "What is my regex?", "--as", "[Sam]", "--user", user, "--k", "1")
    assert shown.exit_code == 0 and all(part in shown.output for part in ("[/a-z]+", "[bold]x", ":smile:", "also [/]"))
    listed = invoke("list", "--user", user)
    assert listed.exit_code == 0 and "[/a-z]+" in listed.output and "[notes]" in listed.output
    conversations = invoke("conversations", "--user", user)
    assert conversations.exit_code == 0 and "[notes]" in conversations.output
    history = invoke("history", paris["uid"], "--user", user)
    assert history.exit_code == 0 and "[Sam]" in history.output
    monkeypatch.setenv("COLUMNS", "80")
    listed = invoke("list", "--user", user)
    ids = [m["id"] for m in json.loads(invoke("list", "--user", user, "--json").output)]
    folded = "".join(line.split("│")[2].strip() for line in listed.output.splitlines() if line.startswith("│"))
    assert all(i in listed.output for i in ids) and "[notes]-c6a37b" in folded and "sam-moves-house" in folded
    assert all(day in listed.output for day in ("2024-01-05", "2024-06-05", "2024-06-06"))
    history = invoke("history", paris["uid"], "--user", user)
    assert paris["uid"] in history.output and sum(i in history.output for i in ids) == 2

def test_uri_before_the_command_and_after_it(invoke, monkeypatch):
    """The one after the command wins, over the group's and over GRAPHMEM_URI."""
    before = CliRunner().invoke(main, ["--uri", "gopher://x", "stats"])
    assert before.exit_code == 1 and "unsupported URI 'gopher://x'" in before.output
    after = CliRunner().invoke(main, ["--uri", "gopher://x", "stats", "--uri", "bolt://127.0.0.1:9"])
    assert after.exit_code == 1 and "cannot reach Neo4j" in after.output
    monkeypatch.setenv("GRAPHMEM_URI", "gopher://from-env")
    from_env = CliRunner().invoke(main, ["stats"])
    assert from_env.exit_code == 1 and "gopher://from-env" in from_env.output
    over_env = CliRunner().invoke(main, ["--uri", "gopher://given", "stats"])
    assert over_env.exit_code == 1 and "gopher://given" in over_env.output


@pytest.mark.parametrize("args, env", [
    (["--uri", "neo4j://127.0.0.1:9", "--neo4j-user", "bob", "stats"], {}),
    (["stats", "--uri", "neo4j://127.0.0.1:9", "--neo4j-user", "bob"], {}),
    (["--neo4j-password", "secret", "stats", "--uri", "bolt://127.0.0.1:9", "--neo4j-user", "bob",
      "--neo4j-password", ""], {}),
    (["stats", "--uri", "neo4j://127.0.0.1:9"], {"GRAPHMEM_NEO4J_USER": "bob"}),
], ids=["group", "command", "command-clears-password", "environment"])
def test_a_neo4j_user_without_a_password_is_one_clear_line(args, env, monkeypatch):
    monkeypatch.delenv("GRAPHMEM_NEO4J_PASSWORD", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    assert result.output.strip() == ("Error: Neo4j user 'bob' given without a password: "
                                     "pass --neo4j-password or set GRAPHMEM_NEO4J_PASSWORD")


def test_a_neo4j_user_in_the_uri_without_a_password_is_one_clear_line(monkeypatch):
    monkeypatch.delenv("GRAPHMEM_NEO4J_USER", raising=False)
    monkeypatch.delenv("GRAPHMEM_NEO4J_PASSWORD", raising=False)
    result = CliRunner().invoke(main, ["stats", "--uri", "neo4j://bob@127.0.0.1:9"])
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1
    assert "Neo4j user 'bob' in the URI has no password" in result.output


def test_credentials_given_at_either_level_reach_the_connection(monkeypatch):
    """With a user and a password the check passes and the driver is tried (nothing listens)."""
    monkeypatch.delenv("GRAPHMEM_NEO4J_USER", raising=False)
    for args in (["--neo4j-user", "bob", "--neo4j-password", "pw", "stats", "--uri", "bolt://127.0.0.1:9"],
                 ["stats", "--uri", "bolt://127.0.0.1:9", "--neo4j-user", "bob", "--neo4j-password", "pw"],
                 ["--neo4j-password", "pw", "stats", "--uri", "bolt://127.0.0.1:9"]):  # user: neo4j
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1 and "cannot reach Neo4j" in result.output, args
        assert "password" not in result.output


# -- no benchmark dependency outside `graphmem bench` ---------------------------------------

BENCH_DEPENDENCIES = ("rank_bm25", "matplotlib", "sklearn", "gudhi", "asyncpg")
# scikit-learn comes with sentence-transformers (a core dependency), so a plain install has it:
# ingest and recall, which load that model, run without the others only
NOT_INSTALLED_WITHOUT_EXTRAS = ("rank_bm25", "matplotlib", "gudhi", "asyncpg")
HIDE = '''
import os
import sys

HIDDEN = set(os.environ.get("GRAPHMEM_TEST_HIDDEN", "").split(",")) - {""}


class Hide:
    """As if the packages were not installed: no finder sees them."""

    def __init__(self, finder):
        self.finder = finder

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in HIDDEN:
            return None
        find = getattr(self.finder, "find_spec", None)
        return find(name, path, target) if find else None

    def __getattr__(self, attribute):
        return getattr(self.finder, attribute)


sys.meta_path[:] = [Hide(finder) for finder in sys.meta_path]
'''


def graphmem_without(tmp_path: Path, hidden: tuple[str, ...], *args: str, home: Path | None = None,
                     cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`graphmem ARGS` in a fresh interpreter where the `hidden` packages cannot be imported."""
    site = tmp_path / "hide"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(HIDE)
    env = {**os.environ, "PYTHONPATH": str(site), "GRAPHMEM_TEST_HIDDEN": ",".join(hidden)}
    env.pop("GRAPHMEM_URI", None)
    if home:
        env["GRAPHMEM_HOME"] = str(home)
    graphmem = Path(sys.executable).with_name("graphmem")
    return subprocess.run([str(graphmem), *args], capture_output=True, text=True, env=env, timeout=600,
                          cwd=cwd or tmp_path)


def test_the_hiding_works(tmp_path):
    """The control: with the packages hidden, importing one fails as if it were not installed."""
    site = tmp_path / "hide"
    site.mkdir()
    (site / "sitecustomize.py").write_text(HIDE)
    env = {**os.environ, "PYTHONPATH": str(site), "GRAPHMEM_TEST_HIDDEN": ",".join(BENCH_DEPENDENCIES)}
    done = subprocess.run([sys.executable, "-c", "import rank_bm25"], capture_output=True, text=True, env=env)
    assert done.returncode == 1 and "No module named 'rank_bm25'" in done.stderr


@pytest.mark.parametrize("args", [["--help"], ["ingest", "--help"], ["recall", "--help"], ["bench", "--help"]],
                         ids=lambda a: " ".join(a))
def test_help_needs_no_benchmark_dependency(tmp_path, args):
    done = graphmem_without(tmp_path, BENCH_DEPENDENCIES, *args)
    assert done.returncode == 0, done.stderr
    assert "Usage: graphmem" in done.stdout


@pytest.mark.slow
def test_ingest_and_recall_need_no_benchmark_dependency(tmp_path, user):
    example = Path(__file__).resolve().parents[1] / "examples" / "chat.txt"
    home = tmp_path / "home"
    try:
        ingested = graphmem_without(tmp_path, NOT_INSTALLED_WITHOUT_EXTRAS, "ingest", str(example), "--user", user, "--json",
                                    home=home)
        assert ingested.returncode == 0, ingested.stderr
        assert json.loads(ingested.stdout)["turns"] > 0
        recalled = graphmem_without(tmp_path, NOT_INSTALLED_WITHOUT_EXTRAS, "recall", "Where did Alice adopt Rex?",
                                    "--user", user, "--k", "1", "--json", home=home)
        assert recalled.returncode == 0, recalled.stderr
        assert json.loads(recalled.stdout)["memories"][0]["source_id"] == "chat.txt:2"
    finally:
        EmbeddedServer(home).stop()


def test_bench_locomo_without_its_dependencies_says_what_to_install(tmp_path):
    conversation = tmp_path / "conv.json"
    conversation.write_text("{}")
    done = graphmem_without(tmp_path, BENCH_DEPENDENCIES, "bench", "locomo", str(conversation))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "Error: the LoCoMo benchmark needs rank-bm25: pip install -e '.[bench]' in the graphmem checkout"]


@pytest.mark.parametrize("command", [["locomo", "conv.json"], ["perf", "--quick"]], ids=lambda c: c[0])
def test_bench_without_a_source_checkout_says_where_the_benchmarks_are(tmp_path, command):
    (tmp_path / "conv.json").write_text("{}")
    done = graphmem_without(tmp_path, ("bench",), "bench", *command)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "source checkout" in lines[0] and "pip install -e '.[bench]'" in lines[0]


def test_cli_modules_import_no_module_that_imports_them_back():
    """No cycle among graphmem.cli's modules: each command module imports `common` (and the
    library) only, at any depth of the file (function-level imports included)."""
    package = Path(__file__).resolve().parents[1] / "graphmem" / "cli"
    imports: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        name = "graphmem.cli" if path.stem == "__init__" else f"graphmem.cli.{path.stem}"
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                parent = "graphmem.cli".rsplit(".", node.level - 1)[0] if node.level else ""
                module = ".".join(p for p in (parent, node.module or "") if p)
                found.add(module)
                if module == "graphmem.cli":  # `from . import x`: x may be a module of the package
                    found.update(f"{module}.{a.name}" for a in node.names if (package / f"{a.name}.py").exists())
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
        imports[name] = {m for m in found if m.startswith("graphmem.cli")} - {name}
    assert set(imports) >= {"graphmem.cli", "graphmem.cli.common", "graphmem.cli.ingest", "graphmem.cli.recall",
                            "graphmem.cli.bench"}
    for name, targets in imports.items():
        if name == "graphmem.cli":
            continue
        assert targets <= {"graphmem.cli.common"}, f"{name} imports {targets}"
    assert imports["graphmem.cli.common"] == set()
