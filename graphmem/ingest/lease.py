"""One ingest at a time into one user, across processes and on every backend: a lease on the
user's node (cypher/lock_user.cypher), renewed as batches go by. Concurrent ingests into one
user then give the graph a sequential run gives.

A holder that died (killed, crashed) frees the user when its lease runs out; a taker on the
holder's machine asks whether the holder's process still runs, and takes a dead one's lease at
once, so that the ingest after a crash does not wait for it."""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from pathlib import Path
from types import TracebackType

from ..errors import GraphmemError
from ..simplex import to_epoch
from ..store import Store

log = logging.getLogger(__name__)

LEASE_SECONDS = 120.0  # renewed as batches go by; a holder that died frees the user after this long
# A renewal sooner than this after the last take is skipped: the lease still runs for
# LEASE_SECONDS - RENEW_AFTER at least, so no other holder can have taken it (one message
# added to memory would otherwise take the lease three times)
RENEW_AFTER = 30.0
WAIT_SECONDS = 900.0  # how long an ingest waits for another one into the same user


def _machine() -> str:
    """This machine as a lease's holder names it: the host, and on Linux the boot and the process
    namespace, so that two containers that share a host name never judge each other's processes."""
    parts = [socket.gethostname()]
    for read in (lambda: Path("/proc/sys/kernel/random/boot_id").read_text().strip(),
                 lambda: str(os.stat("/proc/self/ns/pid").st_ino)):
        try:
            parts.append(read())
        except OSError:
            pass
    return "|".join(parts)


MACHINE = _machine()
# The tokens of the leases this process holds or is taking: a lease this process's pid holds
# under another token was left by a holder that ended without giving it back
_LIVE: set[str] = set()
_LIVE_LOCK = threading.Lock()


def _holder() -> str:
    return f"{MACHINE}#{os.getpid()}"


def _gone(holder: str | None, token: str | None) -> bool:
    """Whether the lease `token` that `holder` took is known to be held by no one: its holder ran
    on this machine and its process has ended (or is this one, which no longer holds it). A
    reused pid only makes a dead holder look alive: the lease then runs out as before."""
    if holder is None or token is None or os.name != "posix":  # os.kill(pid, 0) is no probe on Windows
        return False
    machine, _, pid = holder.rpartition("#")
    if machine != MACHINE or not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        with _LIVE_LOCK:
            return token not in _LIVE
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # it runs, as another user
        return False
    return False


class UserLease:
    """Held: `unfinished` says whether the last holder left the user half-written, `catalog`
    names the entity catalogue it left (None: unknown)."""

    def __init__(self, store: Store, user: str):
        self.store, self.user, self.token = store, user, uuid.uuid4().hex
        self.unfinished, self.catalog, self._held = True, None, False
        self._taken = float("-inf")  # time.monotonic() of the last take

    def _take(self) -> bool:
        now, taken = to_epoch(None), time.monotonic()
        row = self._lock(now, stale=None)
        if not row["held"] and _gone(row.get("holder"), row.get("token")):
            log.warning("the ingest that held user %r ended without giving it back; taking it over", self.user)
            row = self._lock(now, stale=row["token"])
        if row["held"] and not self._held:
            self.unfinished, self.catalog, self._held = bool(row["unfinished"]), row["catalog"], True
        if row["held"]:
            self._taken = taken
        return bool(row["held"])

    def _lock(self, now: float, stale: str | None) -> dict:
        return self.store.run("lock_user", user_id=self.user, token=self.token, now=now, until=now + LEASE_SECONDS,
                              holder=_holder(), stale=stale)[0]

    def settle(self, catalog: str | None) -> None:
        """Everything written is complete; the entity catalogue is now the one named `catalog`."""
        self.store.run("settle_user", user_id=self.user, catalog=catalog)

    def __enter__(self) -> "UserLease":
        with _LIVE_LOCK:  # before the lease is taken: no other thread may judge it left behind
            _LIVE.add(self.token)
        try:
            return self._wait()
        except BaseException:
            self._forget()
            raise

    def _wait(self) -> "UserLease":
        started, pause, said = time.monotonic(), 0.05, False
        while not self._take():
            waited = time.monotonic() - started
            if waited > WAIT_SECONDS:
                raise GraphmemError(f"another ingest into user {self.user!r} has held it for over {WAIT_SECONDS:.0f}s; "
                                    f"try again when it is done")
            if not said:
                log.info("waiting for another ingest into user %r to finish", self.user)
                said = True
            time.sleep(pause)
            pause = min(pause * 2, 1.0)
        return self

    def renew(self) -> None:
        if time.monotonic() - self._taken < RENEW_AFTER:
            return
        if not self._take():
            raise GraphmemError(f"the ingest into user {self.user!r} lost its lease (it went {LEASE_SECONDS:.0f}s "
                                f"without a batch and another ingest took over); run it again")

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        try:
            self.store.run("unlock_user", user_id=self.user, token=self.token)
        except GraphmemError as exc:  # the lease runs out by itself; the ingest's own error matters more
            log.warning("could not give back the ingest lease of user %r: %s", self.user, exc)
        finally:
            self._forget()

    def _forget(self) -> None:
        with _LIVE_LOCK:
            _LIVE.discard(self.token)
