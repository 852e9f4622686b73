"""Work handed to threads. Recall sends the statements that need nothing from each other at
once: the database answers them on its own threads while the caller's thread waits for, or
computes with, the others. Under `--cypher` (a store that records a plan) every task runs in
the calling thread, so that the plan lists the statements in one order."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Union

from .store import Store

# Shared by every recall of the process: its tasks are statements, which wait on the database
# more than they compute, and none waits on another task, so calls that share it cannot block
# each other for good.
_BESIDE = ThreadPoolExecutor(max_workers=4, thread_name_prefix="graphmem-beside")


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
    """Where `store`'s independent statements run: the shared threads, or here under a plan."""
    return Here() if store.plan is not None else _BESIDE
