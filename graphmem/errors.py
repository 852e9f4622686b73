"""One error root; each subclass carries the data a caller needs to act on it."""

from __future__ import annotations


class GraphmemError(Exception):
    """Root of every error graphmem raises on purpose."""


class ConfigError(GraphmemError):
    """A setting or URI is malformed."""


class BackendUnavailable(GraphmemError):
    """The database cannot be reached or started."""


class InputError(GraphmemError, ValueError):
    """Bad input from a caller, with where it came from when known."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None):
        self.source, self.line, self.detail = source, line, message
        where = f"{source}:{line}: " if source and line else f"{source}: " if source else ""
        super().__init__(where + message)


class SimplexTooLarge(InputError):
    def __init__(self, size: int, limit: int):
        self.size, self.limit = size, limit
        super().__init__(
            f"a simplex of {size} vertices exceeds max_simplex_size={limit}; "
            f"raise it with GRAPHMEM_MAX_SIMPLEX_SIZE or Settings(max_simplex_size=...)"
        )


class TooManyFaces(InputError):
    def __init__(self, count: int, limit: int):
        self.count, self.limit = count, limit
        super().__init__(
            f"enumerating {count} faces exceeds max_faces={limit}; pass max_dim=..., "
            f"or raise GRAPHMEM_MAX_FACES / Settings(max_faces=...)"
        )


class UnknownUser(GraphmemError, LookupError):
    def __init__(self, user: str):
        self.user = user
        super().__init__(f"unknown user {user!r}: nothing has been stored for this user yet")


class UnknownEntity(GraphmemError, LookupError):
    def __init__(self, user: str, names: list):
        self.user, self.names = user, names
        shown = ", ".join(repr(n) for n in names)
        super().__init__(f"user {user!r} has no entity named {shown}")
