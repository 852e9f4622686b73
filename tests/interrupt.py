"""Stopping a call after an exact statement, as a process killed there would leave the store."""

from __future__ import annotations

from typing import Callable

import pytest


class Interrupted(Exception):
    pass


def interrupt(driver, call: Callable[[], object], point: int,
              counted: Callable[[str], bool] = lambda query: True) -> None:
    """Run `call` with the statement after its `point`-th counted one failing: that statement and
    the rest of the call never run, except what runs on the way out (a lease given back)."""
    seen = [0]

    def stop(query: str, params: dict) -> None:
        if counted(query):
            seen[0] += 1
            if seen[0] == point + 1:
                raise Interrupted(point)

    driver.tracer = stop
    try:
        with pytest.raises(Interrupted):
            call()
    finally:
        driver.tracer = None
