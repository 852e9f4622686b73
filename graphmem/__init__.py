"""graphmem: graph-database-native memory for LLM agents."""

from .complex import Complex, Observation
from .errors import (BackendUnavailable, ConfigError, GraphmemError, InputError, SimplexTooLarge,
                     TooManyFaces, UnknownEntity, UnknownUser)
from .memory import Memory
from .settings import Settings
from .simplex import Face, Simplex

__all__ = [
    "Memory", "Complex", "Observation", "Simplex", "Face", "Settings",
    "GraphmemError", "ConfigError", "BackendUnavailable", "InputError", "SimplexTooLarge",
    "TooManyFaces", "UnknownUser", "UnknownEntity",
]
__version__ = "0.1.0"
