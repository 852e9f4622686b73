"""Supersession: a newer memory that gives a new value for what an older one claimed about the
same subject supersedes it ("I live in Paris." in January, "I moved to Berlin." in June).

Nothing is deleted: `(:Memory)-[:SUPERSEDES {subject, slot, at, basis, confidence}]->(:Memory)`
records that the older memory held from when it was said until `at`, when the newer one was
said. The relationships are derived from the memories' claims (`(:Memory)-[:CLAIMS]->(:Entity)`,
extracted at ingest by graphmem/ingest/claims.py) and settled per (subject, slot) from all the
claims the store holds for it, in the order they were said: so a conversation ingested out of
order, an edited message and a forgotten memory all leave the chain as if the memories had been
said in order and the forgotten ones never had. Recall reads the present by default (the current
version first, the older below it, marked) and the past when asked (graphmem/recall/versions.py);
`history` shows a memory's versions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import AbstractSet, Callable, Iterable

from .errors import InputError
from .simplex import from_epoch
from .store import Store

Key = tuple[int, str]  # (subject vid, slot)
# The slot of a link set by hand (`by_hand`): on no claim's key, so settling from the claims
# never removes it, and it retires all the older memory said.
ANY = "*"


@dataclass(frozen=True)
class Claim:
    """What one turn says of someone: a value (or a yes or a no) for one slot of one subject."""

    subject: str  # the name of the person the claim is about (an entity's name, as the mention says it)
    kind: str  # that mention's kind (PERSON, PROPN, ...)
    slot: str
    qualifiers: tuple[str, ...]
    value: str
    positive: bool = True
    cue: bool = False  # the turn says something changed
    needs_cue: bool = False  # retires an older claim only when it says so (plans, preferences, unowned things)

    def compatible(self, other: "Claim") -> bool:
        """The same slot, and qualifiers that agree: none on either side, or one side's all on
        the other ("the launch budget" and "the budget for the launch"); "the time" alone is no
        "repeat load time"."""
        a, b = set(self.qualifiers), set(other.qualifiers)
        return self.slot == other.slot and (a == b or bool(a) and bool(b) and (a <= b or b <= a))

    def confidence(self) -> float:
        base = 0.7 if self.slot.startswith(("state:", "count:")) else 0.8
        return round(min(0.95, base + (0.15 if self.cue else 0.0)), 2)


# A dose as claims write it (the canonical units of ingest.claims.DOSE_UNITS): "75 mcg". A thing's
# dose is replaced by another amount, not by what else changed of it ("switched my levothyroxine to
# a different generic maker, same dose").
DOSE_VALUE = re.compile(r"\d[\d.,]* (mg|mcg|g|ml|iu|unit)")
# A thing's state (`state:deadline`; `state:metformin`, its dose): what its ending may retire.
STATE = "state:"
# The slots of things on a calendar (graphmem/ingest/claims.py names a thing's state by its head
# noun's stem): one is often named by that noun alone ("our meeting", "my appointment") where
# it was said with its qualifiers ("the client meeting"), or the other way round. Other things
# so named are other things as often: "the time" is no "repeat load time", "my hours" no "my
# work hours".
SCHEDULED = frozenset(f"state:{noun}" for noun in (
    "meet", "appointment", "session", "call", "interview", "class", "lesson", "reception", "ceremony", "party",
    "exam", "deadlin", "launch", "checkup", "standup", "shift"))
# A thing done (`does:coffee`, `does:jenkin`: a yes or a no, no value); a no says it ended, and so
# retires a claim whose value names it ("our CI runs on Jenkins", then "we ditched Jenkins").
DOES = "does:"
# A named thing's release (`version:react`): like a thing on a calendar, a new one is often said
# without the environment the older one named ("we're on PostgreSQL 12 in production", then "the
# Postgres 16 migration finished").
VERSION = "version:"
UNVALUED = (DOES, "likes:")
# Such a link is surer than a state's new value (0.7) and less sure than an attribute's (0.8).
ENDED_CONFIDENCE = 0.75


def supersedes(newer: Claim, older: Claim, loosely: bool = False) -> bool:
    """Whether `newer`, said after `older`, retires it: same slot, compatible qualifiers, and a
    different value or polarity (a no retires only the yes of the same value, or of any value
    when it names none: "I'm single" ends every partner; a yes retires any no, for what ended is
    then followed by what holds: "we broke up", then "I'm seeing Leah"). `loosely`: qualifiers on one side only
    are compatible too (when that holds is `chain`'s to say: a thing on a calendar)."""
    compatible = newer.compatible(older) or loosely and newer.slot == older.slot \
        and not (newer.qualifiers and older.qualifiers)
    if not compatible or (newer.needs_cue and not newer.cue):
        return False
    if not newer.positive:
        return older.positive and (not newer.value or newer.value == older.value)
    if not older.positive:
        return True
    return older.value != newer.value and not _dose_and_no_number(older.value, newer.value) \
        and not (newer.slot.startswith(VERSION) and _one_release(older.value, newer.value))


def _one_release(a: str, b: str) -> bool:
    """Whether two releases are one said more or less precisely ("3.11" and "3.11.2")."""
    a_parts, b_parts = a.split("."), b.split(".")
    shared = min(len(a_parts), len(b_parts))
    return a_parts[:shared] == b_parts[:shared]


def _dose_and_no_number(a: str, b: str) -> bool:
    """Whether one value is a dose and the other no amount at all (a maker, a form): two
    attributes. A bare number after a dose is a dose said without its unit ("bumped my
    sertraline up to 100")."""
    return any(DOSE_VALUE.fullmatch(x) is not None and not any(c.isdigit() for c in y)
               for x, y in ((a, b), (b, a)))


def settle(store: Store, user: str, keys: Iterable[Key]) -> int:
    """Write the SUPERSEDES relationships of these (subject, slot) keys anew from their claims
    (idempotent); the number written. A thing said to have ended ("we ditched Jenkins",
    `does:jenkin`, a no) retires what named it as a value ("our CI runs on Jenkins", `state:ci`)
    or gave its dose ("I'm on metformin 500mg", `state:metformin`) on that one's key (`names`):
    the keys of claims that name a thing so ended are settled with it."""
    keys = set(keys)
    if not keys:
        return 0
    ended = {(subject, slot[len(DOES):]) for subject, slot in keys if slot.startswith(DOES)}
    if ended:
        keys |= {(r["subject"], r["slot"]) for r in store.run("claims_naming", user_id=user, names=[
            {"subject": subject, "stem": thing} for subject, thing in sorted(ended)])
            if any((r["subject"], thing) in ended for thing in _things_named(r["slot"], r["value"]))}
    groups = _claims(store, user, keys)
    naming = {(subject, DOES + thing) for (subject, slot), claims in groups.items() if not slot.startswith(UNVALUED)
              for _, claim in claims if claim.positive for thing in _things_named(slot, claim.value)}
    endings: dict[tuple[int, str], list[dict]] = {}
    for (subject, slot), claims in (groups | _claims(store, user, naming - keys)).items():
        if (subject, slot) in naming:
            endings[(subject, slot[len(DOES):])] = [row for row, claim in claims if not claim.positive]
    uids = sorted({row["uid"] for claims in groups.values() for row, _ in claims}
                  | {row["uid"] for rows in endings.values() for row in rows})
    apart = {(r["newer"], r["older"]) for r in store.run("kept_apart", user_id=user, uids=uids)} if uids else set()
    edges = [edge for key, claims in groups.items()
             for edge in chain(key, claims, apart, [(row, thing) for (subject, thing), rows in endings.items()
                                                    if subject == key[0] for row in rows])]
    store.run("unsupersede", user_id=user, keys=[{"subject": subject, "slot": slot} for subject, slot in sorted(keys)])
    return int(store.run("supersede", user_id=user, edges=edges)[0]["edges"] or 0) if edges else 0


def _claims(store: Store, user: str, keys: set[Key]) -> dict[Key, list[tuple[dict, Claim]]]:
    """The claims of these keys, by key, each with its row (the memory, when it was said)."""
    groups: dict[Key, list[tuple[dict, Claim]]] = {}
    params = [{"subject": subject, "slot": slot} for subject, slot in sorted(keys)]
    for row in store.run("claims_of", user_id=user, keys=params) if params else []:
        claim = Claim("", "", row["slot"], tuple(row["qualifiers"] or ()), row["value"] or "",
                      bool(row["positive"]), bool(row["cue"]), bool(row["needs_cue"]))
        groups.setdefault((row["subject"], row["slot"]), []).append((row, claim))
    return groups


def names(slot: str, value: str, thing: str) -> bool:
    """Whether a claim of `slot` with `value` names `thing` (a `does:` slot's stem), so that the
    thing's ending retires it: its value names it ("our CI runs on Jenkins"), or it is the thing's
    dose ("I'm on metformin 500mg", `state:metformin`: "my doctor took me off metformin")."""
    return thing in _things_named(slot, value)


def _things_named(slot: str, value: str) -> set[str]:
    """The things (`does:` stems) a claim names: its value's, and the thing whose dose it gives."""
    dosed = slot.removeprefix(STATE) if slot.startswith(STATE) and DOSE_VALUE.fullmatch(value) else ""
    return {thing for thing in (named(value), dosed) if thing}


def named(value: str) -> str:
    """The thing a claim's value names, as a `does:` slot names it: the stem of its last word
    ("github actions" -> action); '' for none."""
    words = re.findall(r"[^\W\d_]+", value)
    return stem(words[-1]) if words else ""


def stem(word: str) -> str:
    """The key a slot names a thing by: one for a verb and its -ing noun (smoke, smoking -> smok;
    run, running -> run), and for a noun and its plural (cats -> cat)."""
    word = word.lower()
    if word.endswith("ing") and len(word) > 5:
        word = word[:-3]
        if len(word) > 2 and word[-1] == word[-2] and word[-1] not in "aeiouls":
            word = word[:-1]
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    return word


def chain(key: Key, claims: list[tuple[dict, Claim]],
          apart: AbstractSet[tuple[str, str]] = frozenset(),
          endings: Iterable[tuple[dict, str]] = ()) -> list[dict]:
    """The supersessions among one key's claims: in the order they were said, each claim retires
    the current claims it conflicts with (`supersedes`) and becomes current itself; a claim that
    agrees with the current ones joins them (said again, nothing changes), and so does one the
    user kept apart from them (`apart`: (newer uid, older uid) pairs, `by_hand`). `endings`:
    (row, thing) of claims that a thing ended ("we ditched Jenkins"): each retires the current
    claims that name the thing (`names`), which stay current all the same (the thing's next value
    retires them too: "our CI is on GitHub Actions now"), for an ending is no value of this key."""
    said: list[tuple[dict, Claim | str]] = [*claims, *endings]
    said.sort(key=lambda rc: (rc[0]["at"] is None, rc[0]["at"] or 0.0, rc[0]["position"] or 0, rc[0]["uid"],
                              rc[0]["n"]))
    current: list[tuple[dict, Claim]] = []
    edges: dict[tuple[str, str], dict] = {}
    for row, claim in said:
        others = [(r, c) for r, c in current if r["uid"] != row["uid"] and (row["uid"], r["uid"]) not in apart]
        if isinstance(claim, str):  # a thing that ended
            for old, c in others:
                if c.positive and names(key[1], c.value, claim):
                    edges.setdefault((row["uid"], old["uid"]), _edge(key, row, old, f"{key[1]}: {c.value} ended",
                                                                     ENDED_CONFIDENCE))
            continue
        retired = [(r, c) for r, c in others if supersedes(claim, c)]
        if not retired and claim.cue and (claim.slot in SCHEDULED or claim.slot.startswith(VERSION)):
            # a change said of a thing on a calendar without its qualifiers ("the client moved our
            # meeting to Thursday" after "the client meeting is Tuesday"), or with them of one said
            # without: the slot's one current thing, when it holds only one
            near = [(r, c) for r, c in others if not (claim.qualifiers and c.qualifiers)]
            if len({c.qualifiers for _, c in near}) == 1:
                retired = [(r, c) for r, c in near if supersedes(claim, c, loosely=True)]
        for old, _ in retired:
            edges[(row["uid"], old["uid"])] = _edge(key, row, old, key[1], claim.confidence())
        current = [rc for rc in current if rc not in retired] + [(row, claim)]
    return list(edges.values())


def _edge(key: Key, newer: dict, older: dict, basis: str, confidence: float) -> dict:
    return {"newer": newer["uid"], "older": older["uid"], "subject": key[0], "slot": key[1], "at": newer["at"],
            "basis": basis, "confidence": confidence}


def check_pair(store: Store, user: str, newer: str, older: str) -> None:
    """That `newer` and `older` are two of the user's complete memories, the newer said after the
    older (or at the same time, later in its conversation), as a link set by hand needs them."""
    if newer == older:
        raise InputError(f"memory {newer!r} cannot supersede itself")
    said = {r["uid"]: (r["at"] if r["at"] is not None else float("inf"), r["position"] or 0)
            for r in store.run("supersession_pair", user_id=user, uids=[newer, older])}
    for uid in (newer, older):
        if uid not in said:
            raise InputError(f"no memory {uid!r} for user {user!r}")
    if said[newer] < said[older]:
        raise InputError(f"memory {newer!r} was said before memory {older!r}: give the newer one first")


def by_hand(store: Store, user: str, newer: str, older: str, supersede: bool, now: float) -> None:
    """Set by hand whether memory `newer` supersedes memory `older` (`supersede`), whatever the
    claims say: a link read wrongly is undone ("I work for my father" after "I work at Acme"), and
    one no claim reads is made ("the new sprint deadline of April 5" after "a deadline of April
    1"). A link made so retires all the older one said; one undone stays undone when later
    memories settle the claims again. Then the keys both claim are settled again (`settle`), so
    their claims stand or fall as if the user had said so from the start. Idempotent."""
    check_pair(store, user, newer, older)
    store.run("supersede_by_hand" if supersede else "keep_apart", user_id=user, newer=newer, older=older, now=now)
    settle(store, user, keys_of(store, user, [newer, older]))


def keys_of(store: Store, user: str, uids: list[str]) -> list[Key]:
    """The (subject, slot) keys the given memories claim something about."""
    return [(r["subject"], r["slot"]) for r in store.run("claim_keys", user_id=user, uids=uids)] if uids else []


def rekey(store: Store, user: str, prefix: str, rename: Callable[[str], str]) -> int:
    """Bring `user`'s claims whose slot starts with `prefix` to this version's slots (`rename`
    of the slot an older version stored) and settle the versions of every such slot anew, so
    claims that now share a slot retire each other as if said today; the number of keys
    renamed. Idempotent, and safe to run again after a crash: every key under `prefix` is
    settled whether or not this run renamed it."""
    keys = [(r["subject"], r["slot"]) for r in store.run("claim_slots", user_id=user, prefix=prefix)]
    renames = [{"subject": subject, "old": slot, "new": rename(slot)} for subject, slot in keys if rename(slot) != slot]
    if renames:
        store.run("rekey_claims", user_id=user, renames=renames)
    settle(store, user, [(subject, rename(slot)) for subject, slot in keys])
    return len(renames)


@dataclass
class Version:
    """One version of a fact: a memory, when it was said, and until when it held."""

    uid: str
    text: str
    speaker: str | None
    said_at: str | None  # ISO time
    valid_until: str | None  # when a newer memory superseded it (None: it still holds)
    superseded_by: list[dict] = field(default_factory=list)  # {uid, at, basis, confidence, key}
    supersedes: list[str] = field(default_factory=list)

    @property
    def current(self) -> bool:
        return self.valid_until is None


def slot_of(key: str) -> str:
    """The slot of a `subject|slot` key."""
    return key.split("|", 1)[1]


def all_retired(claimed: Iterable[str], retired: Iterable[str]) -> bool:
    """Whether a memory that claims the keys `claimed` (`subject|slot`) is superseded, given the
    keys of the supersessions that point at it: every key it claims has a newer value (a memory
    with no claim read, any)."""
    claimed, retired = set(claimed), set(retired)
    # an edge with no key (None, or '' where the statement could not return a null) retires it all
    return bool(retired) and (None in retired or "" in retired or claimed <= retired)


@dataclass
class Validity:
    """What recall needs to know of a memory's versions. A memory can say several things ("I
    moved to Berlin and I work at Google now"); it is superseded when every (subject, slot) key
    it claims has a newer value, and only in part while some still hold: a new employer leaves
    where it says Robin lives standing."""

    superseded_by: list[dict]  # {uid, at, basis, confidence, key}, earliest first
    supersedes: list[str]
    ends: list[tuple[str, str]]  # (uid, key): the versions that hold now, at the end of each of its chains
    claimed: frozenset[str] = frozenset()  # the keys it claims, `subject|slot`
    at: float | None = None  # when it was said (epoch seconds)
    later: list[tuple[str, str, float | None]] = field(default_factory=list)  # (uid, key, said at) of each newer version on its chains

    @property
    def current(self) -> list[str]:
        """The versions that stand in for it now: none while it holds, even in part."""
        return self.current_on(None)

    @property
    def claimed_slots(self) -> set[str]:
        """The slots of what it said."""
        return {slot_of(key) for key in self.claimed}

    @property
    def retired_slots(self) -> set[str]:
        """The slots of what it said that a newer memory gave a new value for."""
        return {slot_of(s["key"]) for s in self.superseded_by if s["key"]}

    def current_on(self, slots: Iterable[str] | None) -> list[str]:
        """The versions that stand in for it on what it said of these slots (None: on all it
        said, and only when all of it was retired)."""
        if slots is None:
            return sorted({uid for uid, _ in self.ends}) if self.valid_until is not None else []
        wanted = set(slots)
        return sorted({uid for uid, key in self.ends if slot_of(key) in wanted or slot_of(key) == ANY})

    def retired(self, keys: frozenset[str] | None = None) -> float | None:
        """When the last of its claims on `keys` (default: all it claims) got a newer value;
        None while one of them still holds. A memory with no claim read, or a link that names
        no key, is retired by any link."""
        keys = self.claimed if keys is None else self.claimed & keys
        edges = [s for s in self.superseded_by if s["at"] is not None and (not keys or s["key"] in keys)]
        keyless = [s["at"] for s in self.superseded_by if s["at"] is not None and s["key"] is None]
        if keyless or not keys:  # a link made by hand, or one to a memory with no claim read
            return min(keyless or [s["at"] for s in edges], default=None)
        earliest: dict[str, float] = {}
        for s in edges:
            earliest[s["key"]] = min(s["at"], earliest.get(s["key"], s["at"]))
        return max(earliest.values()) if all_retired(keys, earliest) else None

    @property
    def valid_until(self) -> float | None:
        return self.retired()

    def then(self, when: float) -> Validity:
        """Its versions as they stood at `when`: the links made by then, and at the end of each
        chain the version said last by then."""
        links = [s for s in self.superseded_by if s["at"] is not None and s["at"] <= when]
        last: dict[str, tuple[float, str]] = {}
        for uid, key, at in self.later:
            if at is not None and at <= when and (at, uid) > last.get(key, (float("-inf"), "")):
                last[key] = (at, uid)
        return Validity(links, self.supersedes, sorted((uid, key) for key, (_, uid) in last.items()),
                        self.claimed, self.at, self.later)

    @property
    def partly_until(self) -> float | None:
        """When a newer memory first gave a new value for one of its claims while the others
        still hold (None when none did, or when all of them were retired)."""
        if self.valid_until is not None:
            return None
        return min((s["at"] for s in self.superseded_by if s["at"] is not None), default=None)


def _keyed(key: str | None) -> str | None:
    """A link's `subject|slot` key; None for one set by hand (`ANY`), which retires it all."""
    return None if not key or slot_of(key) == ANY else key


def validity(store: Store, user: str, uids: list[str]) -> dict[str, Validity]:
    """Each given memory's place among its versions (only those with any)."""
    out = {}
    for row in store.run("memory_versions", user_id=user, uids=uids) if uids else []:
        newer = sorted(({"uid": n[0], "at": n[1], "basis": n[2], "confidence": n[3], "key": _keyed(n[4])}
                        for n in row["newer"] if n), key=lambda s: (s["at"] or 0.0, s["uid"]))
        if newer or row["older"]:
            out[row["uid"]] = Validity(newer, sorted(row["older"]), sorted(map(tuple, row["current"])),
                                       frozenset(row["claimed"] or ()), row["at"],
                                       [tuple(x) for x in row["later"] if x])
    return out


def superseded_by(store: Store, user: str, uids: list[str]) -> list[dict[str, str]]:
    """The older memories the given ones supersede: `{"id": older, "by": newer}`, the newer ones
    in the order given (the older ones of each by id)."""
    known = validity(store, user, list(dict.fromkeys(uids)))
    return [{"id": older, "by": uid} for uid in dict.fromkeys(uids) if uid in known for older in known[uid].supersedes]


def history(store: Store, user: str, uid: str) -> list[Version]:
    """The versions of what memory `uid` said, oldest first: it and every memory linked to it by
    supersession on what it claims, each with when it was said and until when it held (what
    it said of these things; a version that also said something else may still hold for that).
    Empty for an unknown id."""
    rows = store.run("memory_history", user_id=user, uid=uid)
    keys = frozenset(rows[0]["keys"] or ()) if rows else frozenset()
    known = validity(store, user, [r["uid"] for r in rows])
    out = []
    for r in rows:
        v = known.get(r["uid"])
        retired = v.retired(keys or None) if v else None
        until = from_epoch(retired) if retired is not None else None
        said = from_epoch(r["at"])
        out.append(Version(r["uid"], r["text"], r["speaker"], said.isoformat() if said else r["session_date"],
                           until.isoformat() if until else None,
                           [s for s in v.superseded_by if not keys or s["key"] in keys or s["key"] is None]
                           if v else [],
                           v.supersedes if v else []))
    return out
