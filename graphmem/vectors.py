"""Unit vectors: cosines are dot products of vectors of length one. A vector of length zero (an
imported memory may carry one) has no direction: `unit` gives None for it, `units` leaves it
zero, so it is near nothing. A vector goes to a statement as a `Vector`."""

from __future__ import annotations

from typing import Sequence

import numpy as np


class Vector(list[float]):
    """An embedding as a statement's parameter: a list of floats to every driver, which the
    FalkorDB driver writes in the nine significant digits that hold a float32 exactly instead of
    the seventeen of a double (FalkorDB stores vectors as float32): most of what ingest sends is
    vectors, as text."""


def as_param(vector: Sequence[float] | np.ndarray) -> Vector:
    """The vector's float32 values, as a statement's parameter."""
    return Vector(np.asarray(vector, dtype=np.float32).tolist())


def unit(vector: Sequence[float] | np.ndarray) -> np.ndarray | None:
    """The vector scaled to length one (float32), or None when it has no length."""
    v = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else None


def units(matrix: np.ndarray) -> np.ndarray:
    """Each row scaled to length one; a row of zeros stays zero."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)
