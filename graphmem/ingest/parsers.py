"""An ingest's parse in worker processes, where the embedding leaves the cores to it.

spaCy holds the GIL while it parses, so threads parse one at a time; processes parse side by
side. Where the embedding runs on a GPU, or in bfloat16 on AMX tiles with one torch thread
(pipeline.embed_threads), the parse is what an ingest waits for, and each batch is split among
worker processes (bench/README.md, "The parse in worker processes"). Elsewhere the embedding
wants every core, and the parse runs in one thread beside it.

The workers are plain interpreters running `serve` (`python -c "... serve()"`), not
multiprocessing's: those import the caller's main script again, and a script without an
`if __name__ == "__main__"` guard would run twice, writes and all. A worker reads the settings,
then batches, pickled on its stdin, and writes each batch's extractions on its stdout; it ends
when its stdin closes, so none outlives the process that started it. Only this module's own
children are read from: the pickles never cross a trust boundary.
"""

from __future__ import annotations

import atexit
import importlib.metadata
import json
import logging
import os
import pickle
import subprocess
import sys
import threading
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, Callable, Sequence

from .plan import extract_batch

if TYPE_CHECKING:
    from ..models import Models
    from ..settings import Settings
    from .extract import Extraction
    from .formats import Turn

log = logging.getLogger(__name__)

Parse = Callable[[Sequence["Turn"], Sequence[str]], "list[Extraction]"]

# At most this many workers by default (`parse_processes` -1): with four, the parse no longer held
# an ingest up on a 16-core machine (bench/README.md), and each worker holds a spaCy pipeline.
MOST = 4
# A core per worker is not enough: the embedding, the database server and the writes need theirs.
CORES_PER_WORKER = 4
# What a spaCy pipeline that runs on torch requires.
TORCH_PIPELINES = ("spacy-transformers", "spacy-curated-transformers")


def processes_for(setting: int, embedding_frees_cores: bool, cores: int) -> int:
    """Worker processes for the parse: `setting` where it is 0 or more, else (-1) by where the
    embedding runs. A single worker would only move the parse, so -1 gives none, or two and up."""
    if setting >= 0:
        return setting
    n = min(MOST, cores // CORES_PER_WORKER) if embedding_frees_cores else 0
    return n if n >= 2 else 0


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def batch_parser(models: "Models", processes: int) -> Parse:
    """What parses an ingest's batch: `processes` workers, or (0) the calling thread."""
    if processes <= 0:
        return partial(extract_batch, models)
    return partial(_pool(models.settings, processes).parse, models)


class Workers:
    """`n` worker processes for one set of settings, shared by the ingests of this process: one
    batch at a time is split among them. A worker that fails, or a parse interrupted (its
    answers would be read as the next batch's), ends them: the rest of that ingest is parsed
    in the calling thread (said in the log), and the next ingest starts new workers."""

    def __init__(self, settings: "Settings", n: int):
        self.settings = settings
        self.lock = threading.Lock()
        self.procs: list[subprocess.Popen] = []
        try:
            for _ in range(n):
                self.procs.append(_start(settings))
        except OSError as exc:
            self._break(f"cannot start a parse worker: {exc}")

    @property
    def broken(self) -> bool:
        """Whether the workers are gone (failed, interrupted or closed): the thread parses."""
        return not self.procs

    def parse(self, models: "Models", turns: Sequence["Turn"], speakers: Sequence[str]) -> list["Extraction"]:
        with self.lock:
            if not self.broken:
                try:
                    out, failure = self._split(list(turns), list(speakers))
                except (OSError, EOFError, pickle.UnpicklingError) as exc:
                    self._break(f"a parse worker failed ({exc!r})")
                except BaseException:
                    self._break("a parse was interrupted")
                    raise
                else:
                    if failure is not None:
                        raise failure  # what extraction raised, as the calling thread would have
                    return out
        return extract_batch(models, list(turns), list(speakers))

    def _split(self, turns: list["Turn"], speakers: list[str]) -> tuple[list["Extraction"], BaseException | None]:
        """The batch's extractions, and the first error a worker's extraction raised."""
        chunks = [c for c in _chunks(turns, len(self.procs)) if c]
        for proc, chunk in zip(self.procs, chunks):
            _send(proc.stdin, (chunk, speakers))
        out: list[Extraction] = []
        failure: BaseException | None = None
        for proc, _ in zip(self.procs, chunks):  # every answer is read, so none is left for the next batch
            status, value = pickle.load(proc.stdout)  # type: ignore[arg-type]
            if status == "ok":
                out.extend(value)
            elif failure is None:
                failure = value
        return out, failure

    def _break(self, why: str) -> None:
        log.warning("%s; the parse goes on in one thread", why)
        self.close()

    def close(self) -> None:
        """Ends the workers; this pool parses in the calling thread from now on, and the next
        ingest that wants workers starts new ones."""
        with _POOLS_LOCK:
            for key, pool in list(_POOLS.items()):
                if pool is self:
                    del _POOLS[key]
        for proc in self.procs:
            try:
                proc.stdin.close()  # type: ignore[union-attr]
            except OSError:
                pass
        for proc in self.procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.procs = []


def _chunks(turns: list["Turn"], n: int) -> list[list["Turn"]]:
    """`turns` in `n` consecutive runs of about equal text: a parse's time goes with its length,
    and a chat's messages range from a word to pages."""
    total = sum(len(t.text) for t in turns) or 1
    out: list[list[Turn]] = [[] for _ in range(n)]
    done = 0
    for turn in turns:
        out[min(n - 1, done * n // total)].append(turn)
        done += len(turn.text)
    return out


_POOLS: dict[tuple[tuple[str, ...], int], Workers] = {}
_POOLS_LOCK = threading.RLock()  # a pool that fails as it starts closes itself inside _pool


def _pool(settings: "Settings", n: int) -> Workers:
    key = (tuple(settings.spacy_models), n)  # all a worker's parse depends on
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            pool = Workers(settings, n)
            if not pool.broken:  # one that could not start is not kept: the next ingest tries anew
                _POOLS[key] = pool
        return pool


@atexit.register
def _close_all() -> None:
    for pool in list(_POOLS.values()):
        pool.close()
    _POOLS.clear()


def _start(settings: "Settings") -> subprocess.Popen:
    # the child imports this graphmem, wherever it was imported from (a checkout on sys.path too),
    # and not one in its working directory (-P, from Python 3.11)
    here = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)}
    safe = ["-P"] if sys.version_info >= (3, 11) else []
    proc = subprocess.Popen([sys.executable, *safe, "-c", "from graphmem.ingest.parsers import serve; serve()"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    _send(proc.stdin, settings)  # it loads spaCy while the caller goes on
    return proc


def _send(stream: IO[bytes] | None, value: object) -> None:
    assert stream is not None
    pickle.dump(value, stream, protocol=pickle.HIGHEST_PROTOCOL)
    stream.flush()


def needs_torch(names: Sequence[str]) -> bool:
    """Whether any of these spaCy pipelines (packages or folders) runs on torch: a transformer
    pipeline, whose package or meta.json requires spacy-transformers or its curated successor."""
    for name in names:
        folder = Path(name).expanduser()
        if folder.is_dir():
            metas = [m for m in (folder / "meta.json", *folder.glob("*/meta.json")) if m.is_file()]
            required = [r for m in metas for r in json.loads(m.read_text()).get("requirements", [])]
        else:
            try:
                required = importlib.metadata.requires(name) or []
            except importlib.metadata.PackageNotFoundError:
                continue
        if any(r.lower().replace("_", "-").startswith(TORCH_PIPELINES) for r in required):
            return True
    return False


def serve() -> None:
    """A worker's loop: the settings, then (turns, speakers) after (turns, speakers) until stdin
    ends, each answered with ("ok", extractions) or ("error", what extraction raised)."""
    from ..models import Models

    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # what a library prints must not reach the answers
    source = sys.stdin.buffer
    try:
        models = Models(pickle.load(source))
    except EOFError:
        return
    if not needs_torch(models.settings.spacy_models):
        # thinc imports torch wherever it is installed; a pipeline that does not run on it parses
        # the same without, and the worker starts in half the time and memory (bench/README.md)
        sys.modules.setdefault("torch", None)  # type: ignore[arg-type]
    unloaded: Exception | None = None
    try:
        models.nlp()
    except Exception as exc:  # no pipeline installed: each batch is answered with why, as in the caller
        unloaded = exc
    while True:
        try:
            turns, speakers = pickle.load(source)
        except EOFError:
            return
        try:
            if unloaded is not None:
                raise unloaded
            answer: tuple[str, object] = ("ok", extract_batch(models, turns, speakers))
        except Exception as exc:
            answer = ("error", exc)
        try:
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # an exception that does not pickle: its words do
            raised = answer[1]
            data = pickle.dumps(("error", RuntimeError(f"{type(raised).__name__}: {raised}")))
        out.write(data)
        out.flush()

