"""graphmem.ogm against what the store really writes: a real ingest on the embedded FalkorDB
(every label, property and relationship type the classes map is one the statements of cypher/
write, and every one they write is mapped or named internal), neomodel's own statements for
the classes' queries run on it and read what graphmem reads; on Neo4j (GRAPHMEM_TEST_NEO4J_URI,
tests/conftest.py) neomodel itself reads, and its objects are compared with the library's
results. FalkorDB speaks no Bolt that neomodel could use, so there the statements neomodel builds
run through graphmem's driver and its rows are wrapped as the neo4j driver's nodes."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import uuid
from datetime import datetime, timezone
from pathlib import Path

import neo4j
import pytest
from neo4j.graph import Graph, Node
from neomodel import NodeSet, RelationshipDefinition, db

from conftest import NEO4J_SKIP, NEO4J_URI
from graphmem import Memory, Settings, Turn
from graphmem import ogm

ROOT = Path(__file__).resolve().parent.parent
CHAT = ROOT / "examples" / "chat.txt"
NODE_CLASSES = [ogm.User, ogm.Memory, ogm.Entity, ogm.Session, ogm.Sentence, ogm.SimplexNode, ogm.Abstract]
JAN, JUN, DEC = (datetime(2024, m, 5, tzinfo=timezone.utc) for m in (1, 6, 12))


def populate(mem: Memory) -> str:
    """A user whose memory holds every kind of node and relationship graphmem writes: a transcript,
    a photo's caption, a message with its own id, a fact and its update, a standing instruction,
    a preference, a question to the other of two speakers, a link undone by hand, a recall counted and a
    maintenance pass."""
    user = f"ogm-{uuid.uuid4().hex[:12]}"
    mem.ingest(CHAT, user=user)
    mem.ingest([Turn(source_id="photo-1", speaker="Alice", text="Rex loved the park today!", session="park",
                     session_date=datetime(2023, 7, 1), line=1, caption="a puppy running on grass")], user=user)
    mem.add([{"role": "user", "name": "Robin", "content": "I live in Paris.", "id": "robin-1"}],
            user=user, conversation="life", at=JAN)
    berlin = mem.add([("Robin", "I moved to Berlin last month.")], user=user, conversation="life", at=JUN).memory_ids[0]
    lisbon = mem.add([("Robin", "I moved to Lisbon.")], user=user, conversation="life", at=DEC).memory_ids[0]
    mem.unsupersede(lisbon, berlin, user=user)  # a second home, said by hand
    mem.add([("Sam", "Do you like Berlin?"), ("Robin", "I do.")], user=user, conversation="visit", at=JUN)
    mem.add("Always answer in metric units when I ask about distances.", user=user, conversation="rules", at=JUN)
    mem.add("I prefer trains to planes for short trips.", user=user, conversation="rules", at=JUN)
    mem.recall("Where did Alice adopt Rex?", user=user, k=3)
    mem.maintain(user)  # writes the recall's access counts first
    mem.consolidate(user, rebuild=False)  # the abstracts of what `add` left waiting, stored
    return user


@pytest.fixture(scope="module")
def stored(home):
    mem = Memory(settings=Settings(home=home))
    yield mem, populate(mem)
    mem.close()


def written(mem: Memory, user: str) -> tuple[dict[str, set[str]], dict[tuple[str, str, str], set[str]]]:
    """The labels the user's memory holds with their nodes' property keys, and each (start label,
    relationship type, end label) with its relationships' property keys."""
    labels: dict[str, set[str]] = {}
    for row in mem.driver.run("MATCH (n) WHERE n.user_id = $user OR (n:User AND n.id = $user) "
                              "RETURN labels(n) AS labels, keys(n) AS keys", {"user": user}, read_only=True):
        for label in row["labels"]:
            labels.setdefault(label, set()).update(row["keys"])
    relationships: dict[tuple[str, str, str], set[str]] = {}
    for row in mem.driver.run("MATCH (a)-[r]->(b) WHERE a.user_id = $user "
                              "RETURN labels(a) AS a, type(r) AS type, keys(r) AS keys, labels(b) AS b",
                              {"user": user}, read_only=True):
        for start in row["a"]:
            for end in row["b"]:
                relationships.setdefault((start, row["type"], end), set()).update(row["keys"])
    return labels, relationships


def mapped_properties(cls) -> set[str]:
    return {prop.get_db_property_name(name) for name, prop in cls.defined_properties(aliases=False, rels=False).items()}


def mapped_relationships(cls) -> list[tuple[str, RelationshipDefinition]]:
    found = []
    for name, definition in cls.defined_properties(aliases=False, properties=False).items():
        definition.lookup_node_class()
        found.append((name, definition))
    return found


def as_stored(definition: RelationshipDefinition, owner) -> tuple[str, str, str]:
    """(start label, type, end label) of a relationship as the graph holds it."""
    other = definition.definition["node_class"].__label__
    kind = definition.definition["relation_type"]
    outgoing = definition.definition["direction"] == 1
    return (owner.__label__, kind, other) if outgoing else (other, kind, owner.__label__)


def read(mem: Memory, nodes: NodeSet) -> list:
    """What neomodel would read for `nodes`: its own statement and parameters, run on FalkorDB
    through graphmem's driver, each node wrapped as the neo4j driver returns it and inflated by
    the class."""
    builder = nodes.query_cls(nodes).build_ast()
    rows = mem.driver.run(builder.build_query(), builder._query_params, read_only=True)
    graph = Graph()
    out = []
    for row in rows:
        (found,) = row.values()
        node = Node(graph, str(found.id), found.id, found.labels, found.properties)
        out.append(nodes.source_class.inflate(node))
    return out


# --- what the store writes, and what the classes map -----------------------------------------

def test_every_label_and_property_the_classes_map_is_written(stored):
    labels, _ = written(*stored)
    for cls in NODE_CLASSES:
        assert cls.__label__ in labels, f"ogm.{cls.__name__}: the store writes no :{cls.__label__}"
        missing = mapped_properties(cls) - labels[cls.__label__]
        assert not missing, f"ogm.{cls.__name__} maps {sorted(missing)}, which no :{cls.__label__} holds"


def test_every_relationship_the_classes_map_is_written_between_their_labels(stored):
    _, relationships = written(*stored)
    for cls in NODE_CLASSES:
        for name, definition in mapped_relationships(cls):
            where = as_stored(definition, cls)
            assert where in relationships, f"ogm.{cls.__name__}.{name}: the store writes no {where}"
            model = definition.definition["model"]
            if model is not None:
                missing = mapped_properties(model) - relationships[where]
                assert not missing, f"ogm.{model.__name__} maps {sorted(missing)}, which no {where[1]} holds"


def test_everything_the_store_writes_is_mapped_or_named_internal(stored):
    labels, relationships = written(*stored)
    by_label = {cls.__label__: cls for cls in NODE_CLASSES}
    assert set(labels) - set(by_label) <= ogm.INTERNAL["labels"], "a label neither mapped nor in ogm.INTERNAL"
    for label, keys in labels.items():
        if label in by_label:
            unmapped = keys - mapped_properties(by_label[label]) - ogm.INTERNAL.get(label, frozenset())
            assert not unmapped, f":{label} holds {sorted(unmapped)}: map them in graphmem.ogm or list them in INTERNAL"
    mapped = {as_stored(d, cls): d for cls in NODE_CLASSES for _, d in mapped_relationships(cls)}
    for where, keys in relationships.items():
        if where[1] in ogm.INTERNAL["relationships"]:
            continue
        assert where in mapped, f"{where} is written but graphmem.ogm maps no such relationship"
        model = mapped[where].definition["model"]
        unmapped = keys - (mapped_properties(model) if model else set())
        assert not unmapped, f"{where[1]} holds {sorted(unmapped)}, which graphmem.ogm does not map"


def test_internal_names_only_what_the_classes_leave_out():
    for cls in NODE_CLASSES:
        assert not mapped_properties(cls) & ogm.INTERNAL.get(cls.__label__, frozenset()), cls.__name__
    assert not {cls.__label__ for cls in NODE_CLASSES} & ogm.INTERNAL["labels"]


# --- neomodel's statements read what graphmem reads ----------------------------------------

def test_memories_read_as_graphmem_lists_them(stored):
    mem, user = stored
    expected = mem.memories(user, limit=None)
    got = read(mem, ogm.Memory.of(user))
    assert [m.uid for m in got] == [m.id for m in expected]
    for node, memory in zip(got, expected):
        assert (node.text, node.speaker, node.conversation, node.session, node.source_id, node.message_id,
                node.position) == (memory.text, memory.speaker, memory.conversation, memory.session,
                                   memory.source_id, memory.message_id, memory.position)
        assert (node.state or "active") == memory.state
        assert (datetime.fromisoformat(node.session_date) if node.session_date else None) == memory.date
    assert any(m.accesses for m in expected) and any(n.caption for n in got) and any(n.message_id for n in got)
    assert {n.state for n in got} - {None} <= {"active", "warm", "cold", "archived"} and any(n.state for n in got)


def test_simplices_read_as_graphmem_lists_them(stored):
    mem, user = stored
    expected = mem.complex(user).simplices()
    got = read(mem, ogm.SimplexNode.simplices(user))
    assert [tuple(n.path) for n in got] == [s.vids for s in expected]
    for node, simplex in zip(got, expected):
        assert (node.count, node.kind, node.first_seen, node.last_seen, node.meta or {}, node.dimension) == (
            simplex.count, simplex.kind, simplex.first_seen, simplex.last_seen, simplex.meta, simplex.dimension)


def test_entities_sessions_and_abstracts_read_as_graphmem_holds_them(stored):
    mem, user = stored
    entities = read(mem, ogm.Entity.of(user))
    assert [e.vid for e in entities] == sorted(e.vid for e in entities)
    named = {e.vid: e.name for e in entities}
    for simplex in mem.complex(user).simplices():
        assert tuple(named[v] for v in simplex.vids) == simplex.names
    assert {name for m in mem.memories(user, limit=None) for name in m.entities} <= set(named.values())
    sessions = read(mem, ogm.Session.of(user))
    assert {s.session_id for s in sessions} == {m.session for m in mem.memories(user, limit=None)}
    abstracts = read(mem, ogm.Abstract.of(user))
    assert sorted(a.text for a in abstracts) == sorted(a.text for a in mem.abstracts(user))
    (owner,) = read(mem, ogm.User.nodes.filter(user_id=user))
    assert owner.user_id == user and owner.created_at.tzinfo is not None


def test_another_users_memory_is_not_read(stored, home):
    mem, user = stored
    other = f"ogm-other-{uuid.uuid4().hex[:8]}"
    mem.add([("Zed", "I keep bees in Oslo.")], user=other, conversation="bees")
    assert "I keep bees in Oslo." not in {m.text for m in read(mem, ogm.Memory.of(user))}
    assert [m.text for m in read(mem, ogm.Memory.of(other))] == ["I keep bees in Oslo."]
    mem.forget(other, everything=True)


# --- read-only, and loaded only when asked for ----------------------------------------------

def test_writes_through_the_classes_are_refused(stored):
    mem, user = stored
    first, second = read(mem, ogm.Memory.of(user))[:2]
    entity = read(mem, ogm.Entity.of(user))[0]
    attempts = [
        lambda: first.save(), lambda: first.delete(), lambda: ogm.Memory(text="x", user_id=user).save(),
        lambda: ogm.Memory.create({"text": "x"}), lambda: ogm.Entity.get_or_create({"name": "x"}),
        lambda: ogm.Memory.nodes.bulk_create({"text": "x"}), lambda: ogm.Entity.nodes.bulk_get_or_create({"name": "x"}),
        lambda: first.mentions.connect(entity), lambda: first.supersedes.connect(second),
        lambda: first.mentions.disconnect(entity), lambda: first.in_session.disconnect_all(),
        lambda: ogm.Mention(names=["x"]).save(),
    ]
    for attempt in attempts:
        with pytest.raises(ogm.ReadOnlyError, match="write through graphmem.Memory"):
            attempt()
    assert [m.text for m in read(mem, ogm.Memory.of(user))][:2] == [first.text, second.text]


def test_only_graphmem_ogm_imports_neomodel():
    package = ROOT / "graphmem"
    importers = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(name.split(".")[0] == "neomodel" for name in names):
                importers.add(path.relative_to(ROOT).as_posix())
    assert importers == {"graphmem/ogm.py"}


def test_the_library_and_its_cli_load_no_neomodel():
    code = "import sys, graphmem, graphmem.cli; print('neomodel' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def readme_ogm_block() -> str:
    """The README's neomodel example: a ```py block (test_docs.py runs the ```python ones on the
    embedded default; this one needs Neo4j)."""
    blocks = re.findall(r"^```py\n(.*?)^```", (ROOT / "README.md").read_text(), re.DOTALL | re.MULTILINE)
    (block,) = [b for b in blocks if "graphmem import ogm" in b]
    return block


def test_readme_example_names_what_the_classes_have():
    block = readme_ogm_block()
    tree = ast.parse(block)
    classes = {cls.__name__: cls for cls in NODE_CLASSES}
    used = {(node.value.attr, node.attr) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
            and isinstance(node.value.value, ast.Name) and node.value.value.id == "ogm"}
    assert used, "the README's example uses no class of graphmem.ogm"
    for cls_name, attribute in used:
        assert hasattr(classes[cls_name], attribute), f"ogm.{cls_name}.{attribute}"


# --- on Neo4j: neomodel itself reads ---------------------------------------------------------

@pytest.fixture(scope="module")
def on_neo4j(request):
    if NEO4J_URI is None:
        pytest.skip(NEO4J_SKIP)
    uri = request.getfixturevalue("neo4j_uri")
    auth = (os.environ["GRAPHMEM_NEO4J_USER"], os.environ["GRAPHMEM_NEO4J_PASSWORD"])
    mem = Memory(settings=Settings(uri=uri), auth=auth)
    user = populate(mem)
    driver = neo4j.GraphDatabase.driver(uri, auth=auth)
    db.set_connection(driver=driver)
    yield mem, user
    db.close_connection()
    driver.close()
    mem.close()


def test_neo4j_memories_through_neomodel(on_neo4j):
    mem, user = on_neo4j
    expected = mem.memories(user, limit=None)
    got = ogm.Memory.of(user).all()
    assert [m.uid for m in got] == [m.id for m in expected]
    for node, memory in zip(got, expected):
        assert (node.text, node.speaker, node.session) == (memory.text, memory.speaker, memory.session)
        assert sorted(e.name for e in node.mentions.all()) == memory.entities
        assert node.in_session.single().session_id == memory.session
        recalls = node.recalls()  # kept off the memory, on its RECALLED_FOR relationship
        assert (recalls.accesses if recalls else 0, recalls.last_accessed if recalls else None) == (
            memory.accesses, memory.last_accessed)
    assert any(node.recalls() for node in got)
    one = expected[0]
    assert ogm.Memory.get(user, one.id).text == mem.get(one.id, user=user).text
    assert ogm.Memory.get(user, "no-such-memory") is None
    assert len(ogm.User.get(user).memories().all()) == len(expected)


def test_neo4j_simplices_and_their_witnesses_through_neomodel(on_neo4j):
    mem, user = on_neo4j
    expected = mem.complex(user).simplices()
    got = ogm.SimplexNode.simplices(user).all()
    assert [(tuple(n.path), n.count, n.kind) for n in got] == [(s.vids, s.count, s.kind) for s in expected]
    for node, simplex in zip(got, expected):
        assert node.names() == simplex.names
        assert tuple(sorted(m.uid for m in node.witnesses.all())) == simplex.witnesses
        assert node.label.single().vid == simplex.vids[-1]
        parent = node.parent.single()
        assert (tuple(parent.path) if parent else ()) == simplex.vids[:-1]


def test_neo4j_cofaces_by_walking_the_tree_are_graphmem_s(on_neo4j):
    """An entity's cofaces, read the object mapper's way: its trie nodes (LABEL), each one's
    subtree (PARENT, one query per node), the stored ones."""
    mem, user = on_neo4j
    rex = ogm.Entity.named(user, "Rex")
    found, todo = set(), list(rex.simplex_nodes.all())
    while todo:
        node = todo.pop()
        if node.count > 0:
            found.add(tuple(node.path))
        todo.extend(node.children.all())
    assert found == {s.vids for s in mem.complex(user).cofaces(["Rex"])}
    assert found


def test_neo4j_supersession_through_neomodel(on_neo4j):
    mem, user = on_neo4j
    berlin = next(m for m in ogm.Memory.of(user) if "Berlin" in m.text)
    (paris,) = berlin.supersedes.all()
    assert paris.text == "I live in Paris." and paris.message_id == "robin-1"
    edge = berlin.supersedes.relationship(paris)
    assert edge.slot and edge.at.tzinfo is not None
    history = mem.history(berlin.uid, user=user)
    assert [v.text for v in history] == ["I live in Paris.", berlin.text]
    assert [m.uid for m in paris.superseded_by.all()] == [berlin.uid]


def test_neo4j_readme_example_runs(on_neo4j, monkeypatch, capsys):
    _, user = on_neo4j
    monkeypatch.setattr(db, "set_connection", lambda **kwargs: None)  # connected by the fixture
    exec(compile(readme_ogm_block().replace('"demo"', repr(user)), "README.md ogm block", "exec"), {})
    assert "Rex" in capsys.readouterr().out
