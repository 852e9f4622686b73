"""One ingest at a time into one user, across processes and on every backend: a lease on the
user's node (cypher/lock_user.cypher), renewed as batches go by. Concurrent ingests into one
user then give the graph a sequential run gives."""

from __future__ import annotations

import logging
import time
import uuid
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


class UserLease:
    """Held: `unfinished` says whether the last holder left the user half-written, `catalog`
    names the entity catalogue it left (None: unknown)."""

    def __init__(self, store: Store, user: str):
        self.store, self.user, self.token = store, user, uuid.uuid4().hex
        self.unfinished, self.catalog, self._held = True, None, False
        self._taken = float("-inf")  # time.monotonic() of the last take

    def _take(self) -> bool:
        now, taken = to_epoch(None), time.monotonic()
        row = self.store.run("lock_user", user_id=self.user, token=self.token, now=now, until=now + LEASE_SECONDS)[0]
        if row["held"] and not self._held:
            self.unfinished, self.catalog, self._held = bool(row["unfinished"]), row["catalog"], True
        if row["held"]:
            self._taken = taken
        return bool(row["held"])

    def settle(self, catalog: str | None) -> None:
        """Everything written is complete; the entity catalogue is now the one named `catalog`."""
        self.store.run("settle_user", user_id=self.user, catalog=catalog)

    def __enter__(self) -> "UserLease":
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
