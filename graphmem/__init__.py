"""graphmem: graph-database-native memory for LLM agents."""

from .complex import Complex, Observation
from .errors import (BackendUnavailable, ConfigError, GraphmemError, InputError, SimplexTooLarge,
                     TooManyFaces, UnknownEntity, UnknownUser)
from .ingest import IngestSummary, Turn
from .memory import Memory
from .recall import Gaps, Recalled, Recollection
from .settings import Settings
from .simplex import Face, Simplex

__all__ = [
    "Memory", "Settings",
    "IngestSummary", "Turn", "Recollection", "Recalled", "Gaps",
    "Complex", "Observation", "Simplex", "Face",
    "GraphmemError", "ConfigError", "BackendUnavailable", "InputError", "SimplexTooLarge",
    "TooManyFaces", "UnknownUser", "UnknownEntity",
]
__version__ = "0.1.0"
