"""Chat transcripts in, memory out.

Every file is read and validated before anything is written. Then, batch by batch, turns are
parsed, restated, their mentions resolved to canonical entities, embedded (`plan`), and written
with idempotent statements (`write`): memories, sessions and mentions, term postings,
embeddings, relations, then one `turn` simplex per turn witnessed by its memory; each session's
entity set is a `session` simplex at the end. Running it twice, or again after an interruption,
leaves the same graph. `pipeline` runs the stages; `summary` says what they did."""

from .formats import FORMATS, Turn, read_transcript
from .pipeline import Progress, Source, ingest, read_sources
from .summary import IngestSummary

__all__ = ["ingest", "read_sources", "IngestSummary", "Turn", "read_transcript", "FORMATS", "Progress", "Source"]
