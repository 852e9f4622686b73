"""Synthetic complexes shaped like conversations, deterministic from a seed.

- Simplex sizes: mostly 2-5 vertices, a geometric tail up to 30 (one turn naming many
  entities, a session simplex).
- Vertex popularity: Zipf-Mandelbrot over a fixed vocabulary, weight 1 / (rank + Q) ** S.
- vids are given in order of first appearance in the stream, so the complex of the first
  n simplices uses vids 1..V(n), and a smaller N is always a prefix of a larger one.
- Queries: a stored simplex picked at random (so popular vertices come up as often as they
  are mentioned), then 1-3 of its vertices, as an agent's question names co-occurring
  entities; their cofaces are never empty.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

SEED = 20251122
VOCABULARY = 60_000
ZIPF_S, ZIPF_Q = 1.05, 3.0
SIZE_P = {1: 0.04, 2: 0.34, 3: 0.26, 4: 0.15, 5: 0.09}  # the rest: a tail 6..30
TAIL_RATIO = 0.72
MAX_SIZE = 30
QUERY_SIZES = {1: 0.3, 2: 0.45, 3: 0.25}


def size_distribution() -> tuple[np.ndarray, np.ndarray]:
    sizes = np.arange(1, MAX_SIZE + 1)
    p = np.zeros(MAX_SIZE)
    for k, v in SIZE_P.items():
        p[k - 1] = v
    tail = TAIL_RATIO ** np.arange(MAX_SIZE - 5)
    p[5:] = (1 - sum(SIZE_P.values())) * tail / tail.sum()
    return sizes, p / p.sum()


@dataclass
class Stream:
    """The first `n` distinct simplices of the seeded stream, as ascending vid tuples."""

    n: int
    seed: int = SEED
    words: list[tuple[int, ...]] = field(default_factory=list)

    def __post_init__(self):
        rng = np.random.default_rng(self.seed)
        ranks = np.arange(1, VOCABULARY + 1)
        weights = 1.0 / (ranks + ZIPF_Q) ** ZIPF_S
        cdf = np.cumsum(weights / weights.sum())
        sizes, size_p = size_distribution()
        vid_of: dict[int, int] = {}
        seen: set[tuple[int, ...]] = set()
        while len(self.words) < self.n:
            chunk = max(1024, 2 * (self.n - len(self.words)))
            drawn_sizes = rng.choice(sizes, size=chunk, p=size_p)
            # oversample ranks, then keep the first k distinct ones per simplex
            draws = np.searchsorted(cdf, rng.random((chunk, 3 * MAX_SIZE)))
            for k, row in zip(drawn_sizes, draws):
                picked = list(dict.fromkeys(row.tolist()))[:k]
                word = tuple(sorted(vid_of.setdefault(r, len(vid_of) + 1) for r in picked))
                if word not in seen:
                    seen.add(word)
                    self.words.append(word)
                    if len(self.words) == self.n:
                        break

    @cached_property
    def vocabulary(self) -> int:
        return max(max(w) for w in self.words)

    def vocabulary_at(self, n: int) -> int:
        return max(max(w) for w in self.words[:n])

    def queries(self, n_stored: int, count: int, seed: int) -> list[tuple[int, ...]]:
        """Cofaces query sets of 1-3 vertices, drawn from the first n_stored simplices."""
        rng = np.random.default_rng(seed)
        ks, kp = list(QUERY_SIZES), list(QUERY_SIZES.values())
        out = []
        while len(out) < count:
            word = self.words[int(rng.integers(n_stored))]
            k = min(int(rng.choice(ks, p=kp)), len(word))
            out.append(tuple(sorted(int(v) for v in rng.choice(word, size=k, replace=False))))
        return out

    def stored_sample(self, n_stored: int, count: int, seed: int, max_size: int | None = None) -> list[tuple[int, ...]]:
        """Stored simplices picked uniformly (find, faces), optionally of at most max_size vertices."""
        rng = np.random.default_rng(seed)
        pool = range(n_stored) if max_size is None else [i for i in range(n_stored) if len(self.words[i]) <= max_size]
        return [self.words[pool[int(i)]] for i in rng.integers(len(pool), size=count)]

    def describe(self, n: int) -> dict:
        words = self.words[:n]
        lengths = np.array([len(w) for w in words])
        freq = np.bincount([v for w in words for v in w])
        return {
            "simplices": n,
            "vertices": int((freq > 0).sum()),
            "mean_size": float(lengths.mean()),
            "size_p50": float(np.percentile(lengths, 50)),
            "size_p99": float(np.percentile(lengths, 99)),
            "max_size": int(lengths.max()),
            "top_vertex_share": float(freq.max() / n),
        }
