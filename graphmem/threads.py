"""Work handed to threads. Recall sends the statements that need nothing from each other at
once: the database answers them on its own threads while the caller's thread waits for, or
computes with, the others. Under `--cypher` (a store that records a plan), and inside
`one_after_another()`, every task runs in the calling thread: the plan lists the statements in
one order, and a benchmark or a test can compare the two ways."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Union

from .store import Store

# Shared by every recall of the process: its tasks are statements, which wait on the database
# more than they compute, and none waits on another task, so calls that share it cannot block
# each other for good.
_BESIDE = ThreadPoolExecutor(max_workers=4, thread_name_prefix="graphmem-beside")
_here_only = 0  # how many one_after_another() blocks are open, in any thread


class Here:
    """An executor that runs each task at once, in the calling thread."""

    def __enter__(self) -> "Here":
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        done: Future = Future()
        try:
            done.set_result(fn(*args))
        except BaseException as exc:  # noqa: BLE001 - re-raised by result(), as a thread's would be
            done.set_exception(exc)
        return done


def beside(store: Store) -> Union[Here, ThreadPoolExecutor]:
    """Where `store`'s independent statements run: the shared threads, or here under a plan or
    inside `one_after_another()`."""
    return Here() if store.plan is not None or _here_only else _BESIDE


@contextmanager
def one_after_another() -> Iterator[None]:
    """Within the block, every task of the process runs in its caller's thread."""
    global _here_only
    _here_only += 1
    try:
        yield
    finally:
        _here_only -= 1
