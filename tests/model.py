"""A plain-Python model of a simplicial complex with observed (stored) simplices only."""

from __future__ import annotations

from itertools import combinations


class ComplexModel:
    def __init__(self):
        self.stored: dict[frozenset, int] = {}

    def insert(self, vertices) -> None:
        key = frozenset(vertices)
        self.stored[key] = self.stored.get(key, 0) + 1

    def remove(self, vertices, cofaces: bool = False) -> int:
        key = frozenset(vertices)
        doomed = [s for s in self.stored if key <= s] if cofaces else [key] if key in self.stored else []
        for s in doomed:
            del self.stored[s]
        return len(doomed)

    def find(self, vertices) -> int | None:
        return self.stored.get(frozenset(vertices))

    def cofaces(self, vertices) -> set[frozenset]:
        key = frozenset(vertices)
        return {s for s in self.stored if key <= s}

    def faces(self, vertices) -> dict[frozenset, bool]:
        items = sorted(set(vertices))
        return {frozenset(c): frozenset(c) in self.stored
                for k in range(1, len(items) + 1) for c in combinations(items, k)}

    def gaps(self, vertices, min_dim: int = 1) -> set[frozenset]:
        return {f for f, stored in self.faces(vertices).items()
                if len(f) >= min_dim + 1 and not stored and self.cofaces(f)}
