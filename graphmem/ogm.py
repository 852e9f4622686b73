"""neomodel classes for graphmem's nodes and relationships on Neo4j, so that a neomodel
application reads a user's memories, entities and simplices as objects:

    from neomodel import db
    from graphmem import ogm

    db.set_connection(url="bolt://neo4j:secret@localhost:7687")
    for m in ogm.Memory.of("demo"):                   # complete memories, oldest first
        print(m.observed_at, m.speaker, m.text, [e.name for e in m.mentions])

Every node graphmem writes carries the user it belongs to (`user_id`; a `User` node its `id`),
and every query below starts from one user: `Memory.of(user)`, `Entity.named(user, name)`,
`SimplexNode.simplices(user)`, `User.get(user).memories()`. Following a relationship stays
inside the user's memory (graphmem never links two users' nodes).

Read-only: saving, deleting, creating or linking through these classes raises `ReadOnlyError`.
graphmem keeps invariants a single node cannot see (the simplex tree's lists and counts, term
statistics, supersession chains, abstracts, the erasure log), so writes go through
`graphmem.Memory` (`add`, `ingest`, `forget`, `maintain`, `complex(user).insert`).

graphmem itself never loads this module (only it imports neomodel): its own reads and writes
are one parameterised statement each, from cypher/, on Neo4j and FalkorDB alike, where an
object mapper loads a node or a relationship per call (README.md, "neomodel").

The class names are the labels: `ogm.Memory` maps `(:Memory)`, not `graphmem.Memory`.
Properties keep the stored names, except `id`, which neomodel reserves: `User.user_id` and
`Session.session_id` map it. Times stored as epoch seconds read as UTC datetimes. `INTERNAL`
lists what the store writes for its own bookkeeping and these classes leave out."""

from __future__ import annotations

from typing import Any, NoReturn

from neomodel import (ArrayProperty, BooleanProperty, DateTimeProperty, FloatProperty, IntegerProperty,
                      JSONProperty, NodeSet, One, RelationshipFrom, RelationshipTo, StringProperty,
                      StructuredNode, StructuredRel, ZeroOrMore, ZeroOrOne)

from .errors import GraphmemError
from .keys import check_user
from .simplex import normalise

# neomodel finds a class named by a bare string in the first calling frame that has that name,
# which for "Session" is one of neomodel's own modules: every target is named by its full path.
_HERE = __name__

# What the store writes that these classes leave out: labels and relationship types that only
# graphmem's statements read, and properties kept for bookkeeping (digests, locks, the packed
# form the statements return, list heads, running sums).
INTERNAL: dict[str, frozenset[str]] = {
    "labels": frozenset({"Graphmem", "Term"}),
    "relationships": frozenset({"HAS_TERM"}),
    "User": frozenset({"next_vid", "catalog", "memories", "length_sum", "avg_length", "touched_at", "lease",
                       "lease_until", "lease_holder", "unfinished", "unconsolidated"}),
    "Memory": frozenset({"digest", "forgetting", "forget_vids"}),
    "Entity": frozenset({"alias_text", "alias_norms"}),
    "SimplexNode": frozenset({"packed", "ring_head", "unwitnessed"}),
}


class ReadOnlyError(GraphmemError, TypeError):
    """A write through graphmem.ogm: graphmem.Memory writes."""

    def __init__(self, what: str):
        super().__init__(f"graphmem.ogm is read-only ({what}): write through graphmem.Memory "
                         f"(add, ingest, forget, maintain, complex(user).insert)")


def _refuse(what: str) -> NoReturn:
    raise ReadOnlyError(what)


class _ReadOnlyRelationships:
    """Cardinality managers that follow relationships and never change them."""

    def connect(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("connect")

    def disconnect(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("disconnect")

    def disconnect_all(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("disconnect_all")

    def reconnect(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("reconnect")

    def replace(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("replace")


class Many(_ReadOnlyRelationships, ZeroOrMore):
    pass


class AtMostOne(_ReadOnlyRelationships, ZeroOrOne):
    pass


class ExactlyOne(_ReadOnlyRelationships, One):
    pass


class _StoredNode(StructuredNode):
    __abstract_node__ = True

    def save(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("save")

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("delete")

    @classmethod
    def create(cls, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("create")

    @classmethod
    def create_or_update(cls, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("create_or_update")

    @classmethod
    def get_or_create(cls, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("get_or_create")

    @classmethod
    def bulk_save(cls, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("bulk_save")

    # what NodeSet.bulk_create, bulk_create_or_update and bulk_get_or_create call
    @classmethod
    def _bulk_create(cls, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("bulk_create")

    @classmethod
    def _bulk_create_or_update(cls, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("bulk_create_or_update")

    @classmethod
    def _bulk_get_or_create(cls, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("bulk_get_or_create")


class _StoredRel(StructuredRel):
    def save(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("save")


# --- relationships with properties ---------------------------------------------------------

class Mention(_StoredRel):
    """(:Memory)-[:MENTIONS]->(:Entity): the names the memory called the entity by, and the kind
    it read the entity as (PERSON, GPE, ...; none on mentions written before graphmem kept it)."""

    names = ArrayProperty(StringProperty())
    kind = StringProperty()


class Claim(_StoredRel):
    """(:Memory)-[:CLAIMS]->(:Entity): what the memory says of its subject, the entity: a value for
    a slot (graphmem/ingest/claims.py); `n` numbers the memory's claims."""

    n = IntegerProperty()
    slot = StringProperty()
    qualifiers = ArrayProperty(StringProperty())
    value = StringProperty()
    positive = BooleanProperty()
    cue = BooleanProperty()
    needs_cue = BooleanProperty()


class Supersession(_StoredRel):
    """(newer:Memory)-[:SUPERSEDES]->(older:Memory): a new value for the same subject (an entity's
    vid) and slot, said at `at`; `basis` says what was compared, `confidence` how sure. A link set
    by hand (`Memory.supersede`) has subject -1 and slot "*", and retires all the older one said."""

    subject = IntegerProperty()
    slot = StringProperty()
    at = DateTimeProperty()
    basis = StringProperty()
    confidence = FloatProperty()


class KeptApart(_StoredRel):
    """(newer:Memory)-[:NOT_SUPERSEDES]->(older:Memory): the user said the newer one does not
    supersede the older (`Memory.unsupersede`), at `at`; settling from the claims respects it."""

    at = DateTimeProperty()


class Recalled(_StoredRel):
    """(:Memory)-[:RECALLED_FOR]->(:User): how often recall returned the memory and when last
    (graphmem/lifecycle.py), kept off the memory so that counting never re-indexes it;
    `flush` is the id of the last batch that counted (record_accesses.cypher)."""

    accesses = IntegerProperty()
    last_accessed = DateTimeProperty()
    flush = StringProperty()


class Relation(_StoredRel):
    """(:Entity)-[:RELATES]->(:Entity): a subject-verb-object relation, with the uid of the memory
    that stated it."""

    label = StringProperty()
    memory = StringProperty()


# --- nodes ---------------------------------------------------------------------------------

class User(_StoredNode):
    """(:User): one user's memory; everything else is reached from its id."""

    user_id = StringProperty(db_property="id")
    created_at = DateTimeProperty()

    @classmethod
    def get(cls, user: str) -> "User | None":
        return cls.nodes.get_or_none(user_id=check_user(user))

    def memories(self) -> NodeSet:
        return Memory.of(self.user_id)

    def entities(self) -> NodeSet:
        return Entity.of(self.user_id)

    def simplices(self) -> NodeSet:
        return SimplexNode.simplices(self.user_id)

    def sessions(self) -> NodeSet:
        return Session.of(self.user_id)

    def abstracts(self) -> NodeSet:
        return Abstract.of(self.user_id)


class Memory(_StoredNode):
    """(:Memory): one message (a turn), said by `speaker` at `observed_at`. `id` of
    graphmem.Memory.get and list is `uid` here; `session_date` is the session's date as written
    (ISO 8601); `state` the lifecycle state (None: never maintained, active). Only a `complete`
    memory is served: `of` and `get` leave out one an interrupted write left unfinished."""

    user_id = StringProperty()
    uid = StringProperty()
    text = StringProperty()
    restated = StringProperty()
    speaker = StringProperty()
    conversation = StringProperty()
    session = StringProperty()
    session_date = StringProperty()
    message_id = StringProperty()
    source_id = StringProperty()
    position = IntegerProperty()
    observed_at = DateTimeProperty()
    refers_to = DateTimeProperty()
    time_text = StringProperty()
    caption = StringProperty()
    addressee = StringProperty()  # whom its "you" means, when it says you to the other of two speakers
    length = IntegerProperty()
    standing = BooleanProperty()  # a standing instruction; None otherwise
    preference = BooleanProperty()  # a stated preference; None otherwise
    complete = BooleanProperty()
    state = StringProperty()
    state_since = DateTimeProperty()
    embedding = ArrayProperty(FloatProperty())

    mentions = RelationshipTo(_HERE + ".Entity", "MENTIONS", cardinality=Many, model=Mention)
    claims = RelationshipTo(_HERE + ".Entity", "CLAIMS", cardinality=Many, model=Claim)
    in_session = RelationshipTo(_HERE + ".Session", "IN_SESSION", cardinality=AtMostOne)
    sentences = RelationshipTo(_HERE + ".Sentence", "HAS_SENTENCE", cardinality=Many)
    supersedes = RelationshipTo(_HERE + ".Memory", "SUPERSEDES", cardinality=Many, model=Supersession)
    superseded_by = RelationshipFrom(_HERE + ".Memory", "SUPERSEDES", cardinality=Many, model=Supersession)
    kept_apart_from = RelationshipTo(_HERE + ".Memory", "NOT_SUPERSEDES", cardinality=Many, model=KeptApart)
    witnessed = RelationshipFrom(_HERE + ".SimplexNode", "WITNESSED_BY", cardinality=Many)
    abstracts = RelationshipFrom(_HERE + ".Abstract", "SUMMARIZES", cardinality=Many)
    recalled_for = RelationshipTo(_HERE + ".User", "RECALLED_FOR", cardinality=AtMostOne, model=Recalled)

    @classmethod
    def of(cls, user: str) -> NodeSet:
        """The user's complete memories, oldest first, then by uid (as graphmem lists them)."""
        return cls.nodes.filter(user_id=check_user(user), complete=True).order_by("observed_at", "uid")

    @classmethod
    def get(cls, user: str, uid: str) -> "Memory | None":
        return cls.nodes.get_or_none(user_id=check_user(user), uid=uid, complete=True)

    def recalls(self) -> Recalled | None:
        """How often recall returned this memory, and when last (None: never)."""
        manager: Any = self.recalled_for  # neomodel's RelationshipManager, on an instance
        user = manager.single()
        return None if user is None else manager.relationship(user)


class Entity(_StoredNode):
    """(:Entity): a person, place or thing the memories mention, numbered `vid` (the simplex tree's
    vertex); `norm` is its normalised name, unique per user."""

    user_id = StringProperty()
    vid = IntegerProperty()
    name = StringProperty()
    norm = StringProperty()
    kind = StringProperty()
    aliases = ArrayProperty(StringProperty())
    frequency = IntegerProperty()
    first_seen = DateTimeProperty()
    last_seen = DateTimeProperty()
    embedding = ArrayProperty(FloatProperty())

    mentioned_by = RelationshipFrom(_HERE + ".Memory", "MENTIONS", cardinality=Many, model=Mention)
    claimed_by = RelationshipFrom(_HERE + ".Memory", "CLAIMS", cardinality=Many, model=Claim)
    relates = RelationshipTo(_HERE + ".Entity", "RELATES", cardinality=Many, model=Relation)
    related_from = RelationshipFrom(_HERE + ".Entity", "RELATES", cardinality=Many, model=Relation)
    simplex_nodes = RelationshipFrom(_HERE + ".SimplexNode", "LABEL", cardinality=Many)

    @classmethod
    def of(cls, user: str) -> NodeSet:
        return cls.nodes.filter(user_id=check_user(user)).order_by("vid")

    @classmethod
    def named(cls, user: str, name: str) -> "Entity | None":
        """The user's entity by its normalised name (recall also matches the aliases)."""
        return cls.nodes.get_or_none(user_id=check_user(user), norm=normalise(name))


class Session(_StoredNode):
    """(:Session): the memories said together; `date` as written (ISO 8601)."""

    user_id = StringProperty()
    session_id = StringProperty(db_property="id")
    started_at = DateTimeProperty()
    date = StringProperty()

    memories = RelationshipFrom(_HERE + ".Memory", "IN_SESSION", cardinality=Many)

    @classmethod
    def of(cls, user: str) -> NodeSet:
        return cls.nodes.filter(user_id=check_user(user)).order_by("started_at")


class Sentence(_StoredNode):
    """(:Sentence): the `n`th sentence of a memory of several, with its own vector."""

    user_id = StringProperty()
    uid = StringProperty()
    n = IntegerProperty()
    text = StringProperty()
    embedding = ArrayProperty(FloatProperty())

    memory = RelationshipFrom(_HERE + ".Memory", "HAS_SENTENCE", cardinality=AtMostOne)


class SimplexNode(_StoredNode):
    """(:SimplexNode): a node of the simplex tree, the word `path` (ascending vids) ending in
    `vertex` at `depth`. A node with `count` > 0 is a stored simplex, observed `count` times;
    the others are prefixes only. `parent` leads to the root, `label` to the node's entity,
    `next_same_label` along the nodes of one entity at one depth, `witnesses` to the memories
    that observed it. graphmem.Memory.complex(user) answers cofaces, faces and gaps in one
    statement each; reading them node by node through these classes is for exploring."""

    user_id = StringProperty()
    key = StringProperty()
    vertex = IntegerProperty()
    depth = IntegerProperty()
    path = ArrayProperty(IntegerProperty())
    count = IntegerProperty()
    kind = StringProperty()
    meta = JSONProperty()
    first_seen = DateTimeProperty()
    last_seen = DateTimeProperty()

    parent = RelationshipTo(_HERE + ".SimplexNode", "PARENT", cardinality=AtMostOne)
    children = RelationshipFrom(_HERE + ".SimplexNode", "PARENT", cardinality=Many)
    label = RelationshipTo(_HERE + ".Entity", "LABEL", cardinality=ExactlyOne)
    next_same_label = RelationshipTo(_HERE + ".SimplexNode", "NEXT_SAME_LABEL", cardinality=AtMostOne)
    witnesses = RelationshipTo(_HERE + ".Memory", "WITNESSED_BY", cardinality=Many)

    @classmethod
    def simplices(cls, user: str) -> NodeSet:
        """The user's stored simplices, largest first, then the most observed (as graphmem lists
        them)."""
        return cls.nodes.filter(user_id=check_user(user), count__gt=0).order_by("-depth", "-count", "key")

    @property
    def dimension(self) -> int:
        return self.depth - 1

    def entities(self) -> list[Entity]:
        """The simplex's vertices, in `path` order (one query)."""
        found = {e.vid: e for e in Entity.nodes.filter(user_id=self.user_id, vid__in=list(self.path))}
        return [found[vid] for vid in self.path]

    def names(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.entities())


class Abstract(_StoredNode):
    """(:Abstract): an extractive summary of the memories that mention entity `vid` within one
    year's `bucket`; derived state, kept current by graphmem."""

    user_id = StringProperty()
    key = StringProperty()
    vid = IntegerProperty()
    bucket = IntegerProperty()
    text = StringProperty()
    entities = ArrayProperty(StringProperty())
    first_seen = DateTimeProperty()
    last_seen = DateTimeProperty()
    size = IntegerProperty()
    stale = BooleanProperty()

    summarizes = RelationshipTo(_HERE + ".Memory", "SUMMARIZES", cardinality=Many)

    @classmethod
    def of(cls, user: str) -> NodeSet:
        return cls.nodes.filter(user_id=check_user(user)).order_by("vid", "bucket")
