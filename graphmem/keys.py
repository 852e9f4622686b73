"""Keys: the values graphmem looks nodes up by. Every key is bounded and canonical before it
reaches the database, whatever the user wrote: a 100,000-character word, an entity name of
unbroken CJK text or a session id ending in a space is stored under a key of bounded length
with no surrounding whitespace (the full text stays in the node's plain properties). User ids
are not rewritten but checked: they are opaque and exact, so that no two ids can ever read one
memory. Times given as text (the CLI's options, the MCP tools' arguments) are read here too,
and text is checked for what no backend can store (a NUL, a lone surrogate).
"""

from __future__ import annotations

import hashlib
import unicodedata
from datetime import datetime, timezone

from .errors import InputError

# Longer keys keep their first characters and a digest of the whole: unique in practice, and
# far below any index's key limit (FalkorDB's unique constraints fail above 4,096 bytes).
KEY_BYTES = 256
USER_ID_CHARS = 256


def unstorable(text: str) -> str | None:
    """What in `text` no backend can store as written, or None: a NUL character (FalkorDB's
    statement ends at it) or a lone surrogate (it has no UTF-8; JSON's "\\ud800" makes one)."""
    if "\x00" in text:
        return "a NUL character (U+0000)"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"a lone surrogate (U+{ord(text[exc.start]):04X})"
    return None


def check_text(text: str, what: str) -> str:
    """`text` as given, or InputError saying what in it cannot be stored or searched."""
    problem = unstorable(text)
    if problem is not None:
        raise InputError(f"{what} holds {problem}, which cannot be stored or searched")
    return text


def bounded(text: str) -> str:
    """`text` itself when it is short and has no surrounding whitespace; else its first
    characters, stripped, then `#` and a digest of all of it."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= KEY_BYTES and text == text.strip():
        return text
    digest = hashlib.sha256(data).hexdigest()[:32]
    head = data[:KEY_BYTES - len(digest) - 2].decode("utf-8", "ignore").strip()
    return f"{head}#{digest}"


def check_user(user: object) -> str:
    """A user id as given, or InputError saying what is wrong with it: ids are exact, opaque
    strings of at most USER_ID_CHARS characters, in Unicode NFC, without surrounding whitespace
    or control characters (no case folding or compatibility mapping: `Ａlice` is not `Alice`)."""
    if not isinstance(user, str) or not user:
        raise InputError("a user id must be a non-empty string")
    if len(user) > USER_ID_CHARS:
        raise InputError(f"a user id is at most {USER_ID_CHARS} characters; this one has {len(user)}")
    if user != user.strip():
        raise InputError(f"user id {user[:40]!r} begins or ends with whitespace")
    bad = next((c for c in user if unicodedata.category(c) in ("Cc", "Cs")), None)
    if bad is not None:
        raise InputError(f"user id {user[:40]!r} holds the control character U+{ord(bad):04X}")
    if unicodedata.normalize("NFC", user) != user:
        raise InputError(f"user id {user[:40]!r} is not in Unicode NFC; normalise it before use")
    return user


def check_time(value: object, name: str) -> datetime | None:
    """A time given to the library, or None for none: a datetime (UTC when it names no zone);
    anything else is refused, `name` saying where it was given."""
    if value is None:
        return None
    if not isinstance(value, datetime):
        raise InputError(f"{name} must be a datetime, not {value!r}")
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def parse_time(value: str | None, name: str) -> datetime | None:
    """A time given as text (ISO; UTC when it names no zone), or None for none; `name` says
    where it was given, for the error."""
    if value is None or value == "":
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise InputError(f"{name} takes an ISO date or time (2023-05-08, 2023-05-08T13:56+02:00), not {value!r}")
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
