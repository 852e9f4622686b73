"""`graphmem mcp`: one store served to agents over the Model Context Protocol, with the official
`mcp` SDK, over stdio (a desktop agent starts it) or streamable HTTP (a long-lived server).

Each tool is one call of `Memory`, so the server adds no idea of its own: remember, recall,
gaps, list, get, forget, history, supersede, unsupersede. The models load once, in the
background from the moment the server starts, so the handshake is not kept waiting and no call
after the first pays for them.

Users. A server started for one user (`user=`) serves that user only: a call may leave `user`
out, and naming another is refused. A server started without one serves any user the client
names, and every call must name one. Either way every query is scoped to that user.

Calls run one at a time, on a worker thread (the SDK runs a tool's sync function there): a
`Memory` is one connection and one set of models, and ingest holds a per-user lease anyway.
What `remember` leaves to consolidation (graphmem/consolidation.py), and the accesses `recall`
noted (graphmem/lifecycle.py), are written once the server has been idle for `IDLE_SECONDS`:
an agent's next call does not wait for them, and a server stopped without closing its store
(killed with its agent) loses no access older than that."""

from __future__ import annotations

import errno
import hmac
import logging
import socket
import threading
from typing import Any, Callable

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from . import lifecycle
from .errors import GraphmemError, InputError
from .keys import check_user, parse_time
from .memory import Memory

log = logging.getLogger(__name__)

LOOPBACK = ("127.0.0.1", "localhost", "::1")
IDLE_SECONDS = 2.0  # without a call, after which what `remember` and `recall` left waiting is written
INSTRUCTIONS = (
    "Long-term memory of conversations. Call `remember` with the messages worth keeping as they happen; "
    "call `recall` with a question before answering anything that depends on what was said earlier, and put "
    "its `context` lines in your context. Newer facts supersede older ones (marked 'superseded'). `gaps` "
    "lists what memory lacks around a question, as questions you could ask the user. `forget` erases for good.")


class MemoryTools:
    """The tools over one `Memory`: plain methods taking and returning JSON-ready values, so
    that the same code answers an MCP client and a test."""

    def __init__(self, mem: Memory, user: str | None = None):
        self.mem = mem
        self.user = check_user(user) if user is not None else None  # a bad id refuses to start, not every call
        self._lock = threading.Lock()
        self._waiting: set[str] = set()  # users whose consolidation `remember` left waiting
        self._idle: threading.Timer | None = None
        self._warm = threading.Thread(target=self._load_models, name="graphmem-models", daemon=True)
        self._warm_error: BaseException | None = None
        self._warm.start()

    def _load_models(self) -> None:
        try:
            self.mem.models.embedder()
            self.mem.models.nlp()
        except BaseException as exc:  # noqa: BLE001 - reported by the first call that needs them
            self._warm_error = exc

    def _models(self) -> None:
        self._warm.join()
        if self._warm_error is not None:
            raise self._warm_error

    def _whose(self, user: str | None) -> str:
        if self.user is not None:
            if user not in (None, "", self.user):
                raise InputError(f"this server serves user {self.user!r} only, not {user!r}")
            return self.user
        if not user:
            raise InputError("name the user whose memory to use (user=...): this server serves any user")
        return user

    def remember(self, messages: str | list[dict[str, Any]], user: str | None = None,
                 conversation: str = "default", at: str | None = None) -> dict[str, Any]:
        whose = self._whose(user)
        moment = parse_time(at, "at")
        self._models()
        summary = self.mem.add(messages, user=whose, conversation=conversation, at=moment)
        self._waiting.add(whose)
        superseded = [{**pair, "text": found.text if (found := self.mem.get(pair["id"], user=whose)) else None}
                      for pair in summary.superseded]
        return {"user": whose, "added": summary.memories_added, "memory_ids": summary.memory_ids,
                "supersessions": summary.supersessions, "superseded": superseded}

    def recall(self, question: str, user: str | None = None, k: int = 10, token_budget: int | None = None,
               as_speaker: str | None = None, include_archived: bool = False) -> dict[str, Any]:
        whose = self._whose(user)
        if not 1 <= k <= 100:
            raise InputError(f"k takes 1 to 100, not {k}")
        self._models()
        got = self.mem.recall(question, user=whose, k=k, token_budget=token_budget, asker=as_speaker,
                              include_archived=include_archived)
        return {"user": whose, "context": [m.context_line() for m in got.memories],
                "memories": [{"id": m.uid, "text": m.text, "speaker": m.speaker, "date": m.session_date,
                              "score": round(m.score, 4), "superseded_at": m.valid_until,
                              "superseded_by": m.superseded_by,
                              "superseded_in_part_at": m.partly_superseded, "standing": m.standing,
                              "preference": m.preference} for m in got.memories],
                "gaps": got.questions()}

    def gaps(self, question: str, user: str | None = None, as_speaker: str | None = None) -> dict[str, Any]:
        whose = self._whose(user)
        self._models()
        found = self.mem.gaps(question, user=whose, asker=as_speaker)
        return {"user": whose, "entities": found.entities,
                "gaps": [{"question": g.question, "hole": g.hole, "kind": g.kind, "entities": list(g.names),
                          "meaning": g.meaning} for g in found.gaps]}

    def list_memories(self, user: str | None = None, conversation: str | None = None, speaker: str | None = None,
                      entity: str | None = None, since: str | None = None, until: str | None = None,
                      limit: int = 50, after: str | None = None, state: str | None = None,
                      superseded: bool | None = None) -> dict[str, Any]:
        whose = self._whose(user)
        if not 1 <= limit <= 1000:
            raise InputError(f"limit takes 1 to 1000, not {limit}")
        page = self.mem.memories(whose, conversation=conversation, speaker=speaker, entity=entity,
                                 since=parse_time(since, "since"), until=parse_time(until, "until"),
                                 limit=limit, after=after, state=state, superseded=superseded)
        return {"user": whose, "memories": [m.to_dict() for m in page],
                "next_after": page[-1].id if len(page) == limit else None}

    def get(self, id: str, user: str | None = None) -> dict[str, Any]:
        whose = self._whose(user)
        found = self.mem.get(id, user=whose)
        if found is None:
            raise InputError(f"no memory {id!r} for user {whose!r}")
        return found.to_dict()

    def forget(self, user: str | None = None, ids: list[str] | None = None, conversation: str | None = None,
               entity: str | None = None, before: str | None = None, everything: bool = False) -> dict[str, Any]:
        whose = self._whose(user)
        done = self.mem.forget(whose, memories=ids, conversation=conversation, entity=entity,
                               before=parse_time(before, "before"), everything=everything)
        return {"user": whose, "forgotten": done.kind, "memories": done.memories, "entities": done.entities,
                "simplices": done.simplices, "missing": done.missing}

    def history(self, id: str, user: str | None = None) -> dict[str, Any]:
        whose = self._whose(user)
        versions = self.mem.history(id, user=whose)
        if not versions:
            raise InputError(f"no memory {id!r} for user {whose!r}")
        return _versions(whose, versions)

    def supersede(self, newer: str, older: str, user: str | None = None) -> dict[str, Any]:
        whose = self._whose(user)
        return _versions(whose, self.mem.supersede(newer, older, user=whose))

    def unsupersede(self, newer: str, older: str, user: str | None = None) -> dict[str, Any]:
        whose = self._whose(user)
        return _versions(whose, self.mem.unsupersede(newer, older, user=whose))

    def call(self, fn: Callable[..., dict[str, Any]], **kwargs: Any) -> dict[str, Any]:
        """One tool call: one at a time, library errors as the tool's error message."""
        with self._lock:
            if self._idle is not None:
                self._idle.cancel()
            try:
                return fn(**kwargs)
            except GraphmemError as exc:
                raise ToolError(str(exc)) from None
            finally:
                if self._waiting or lifecycle.pending_accesses(self.mem.store):
                    self._idle = threading.Timer(IDLE_SECONDS, self._when_idle)
                    self._idle.daemon = True
                    self._idle.start()

    def _when_idle(self) -> None:
        with self._lock:
            for user in sorted(self._waiting):
                try:
                    self.mem.consolidate(user, rebuild=False)
                except GraphmemError as exc:  # derived state: the note of what waits is kept for a later pass
                    log.warning("abstracts of %r not derived: %s", user, exc)
            self._waiting.clear()
            try:
                lifecycle.flush_accesses(self.mem.store)
            except GraphmemError as exc:  # kept in the buffer for the next flush
                log.warning("recall accesses not written yet: %s", exc)


def _versions(user: str, versions: list) -> dict[str, Any]:
    return {"user": user, "versions": [{"id": v.uid, "text": v.text, "speaker": v.speaker, "said_at": v.said_at,
                                        "valid_until": v.valid_until, "current": v.current} for v in versions]}


def build(tools: MemoryTools) -> MCPServer:
    """The MCP server over `tools`; each tool's description is what the agent reads."""
    server: MCPServer = MCPServer("graphmem", instructions=INSTRUCTIONS, log_level="WARNING")
    scope = (f"Serves user {tools.user!r}; `user` may be left out." if tools.user
             else "`user`: whose memory (required: this server serves any user).")
    read = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
    adds = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
    erases = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)

    def remember(messages: str | list[dict[str, Any]], user: str | None = None, conversation: str = "default",
                 at: str | None = None) -> dict[str, Any]:
        return tools.call(tools.remember, messages=messages, user=user, conversation=conversation, at=at)

    def recall(question: str, user: str | None = None, k: int = 10, token_budget: int | None = None,
               as_speaker: str | None = None, include_archived: bool = False) -> dict[str, Any]:
        return tools.call(tools.recall, question=question, user=user, k=k, token_budget=token_budget,
                          as_speaker=as_speaker, include_archived=include_archived)

    def gaps(question: str, user: str | None = None, as_speaker: str | None = None) -> dict[str, Any]:
        return tools.call(tools.gaps, question=question, user=user, as_speaker=as_speaker)

    def list_memories(user: str | None = None, conversation: str | None = None, speaker: str | None = None,
                      entity: str | None = None, since: str | None = None, until: str | None = None,
                      limit: int = 50, after: str | None = None, state: str | None = None,
                      superseded: bool | None = None) -> dict[str, Any]:
        return tools.call(tools.list_memories, user=user, conversation=conversation, speaker=speaker, entity=entity,
                          since=since, until=until, limit=limit, after=after, state=state, superseded=superseded)

    def get(id: str, user: str | None = None) -> dict[str, Any]:
        return tools.call(tools.get, id=id, user=user)

    def forget(user: str | None = None, ids: list[str] | None = None, conversation: str | None = None,
               entity: str | None = None, before: str | None = None, everything: bool = False) -> dict[str, Any]:
        return tools.call(tools.forget, user=user, ids=ids, conversation=conversation, entity=entity,
                          before=before, everything=everything)

    def history(id: str, user: str | None = None) -> dict[str, Any]:
        return tools.call(tools.history, id=id, user=user)

    def supersede(newer: str, older: str, user: str | None = None) -> dict[str, Any]:
        return tools.call(tools.supersede, newer=newer, older=older, user=user)

    def unsupersede(newer: str, older: str, user: str | None = None) -> dict[str, Any]:
        return tools.call(tools.unsupersede, newer=newer, older=older, user=user)

    server.add_tool(remember, description=(
        "Store messages in long-term memory, recallable when this returns. `messages`: one string (said by the "
        "user), or chat messages as {role, content} (OpenAI or Anthropic format; `name` is the speaker, `id` "
        "and a time are kept). Messages already stored (same id, else same text) are not added twice. "
        "`conversation` groups them; `at`: ISO time of messages that carry none (default now). `superseded` "
        "names the older memories they superseded ({id, text, by}): `unsupersede` one that still holds. " + scope),
        annotations=adds)
    server.add_tool(recall, description=(
        "The memories worth putting in context for `question` (a question, or a phrase naming what to find: "
        "'standup time' asks how it stands now), best first: `context` (one line each, to paste "
        "into the prompt; an outdated fact is marked 'superseded DATE', and a standing instruction of the user's "
        "and a preference they stated that apply come first, marked 'Standing instruction:' and 'Stated "
        "preference:'), `memories` (ids, dates, scores) and "
        "`gaps` (questions to ask the user about what memory lacks). `k`: how many; `token_budget`: trim to fit; "
        "`as_speaker`: who asks, whose 'I' and 'my' the question means; `include_archived`: also search the "
        "memories left out as archived (not used for long). " + scope), annotations=read)
    server.add_tool(gaps, description=(
        "What memory lacks around `question`, best first, each phrased as a question the agent could ask: "
        "names it does not know, entities never seen together (hole: true), and entities seen together only "
        "inside a larger observation (hole: false). " + scope), annotations=read)
    server.add_tool(list_memories, name="list", description=(
        "A page of stored memories, oldest first, filtered by conversation, speaker, entity, since/until (ISO) "
        "and `state` (active, warm, cold or archived: archived ones recall leaves out); `superseded`: true for "
        "only the memories a newer one superseded (an outdated fact), false for only the others. Pass `next_after` back "
        "as `after` for the next page (an id that is no memory of the user's is refused). " + scope),
        annotations=read)
    server.add_tool(get, description="One stored memory by its id. " + scope, annotations=read)
    server.add_tool(forget, description=(
        "Erase memories for good, with everything only they justified: exactly one of `ids`, `conversation`, "
        "`entity` (those mentioning it), `before` (ISO time) or `everything`. `missing` names the ids that are "
        "no memory of the user (never stored, or erased already). " + scope), annotations=erases)
    server.add_tool(history, description=(
        "The versions of the fact a memory states, oldest first: when each was said and until when it held "
        "(superseded by a newer value for the same subject and attribute). " + scope), annotations=read)
    server.add_tool(supersede, description=(
        "Record that memory `newer` supersedes memory `older`: the user gave a new value for what the older one "
        "said (a changed deadline, budget or plan) and memory did not link them. Recall then gives the newer "
        "first and marks the older 'superseded'. Returns the older one's versions. " + scope), annotations=adds)
    server.add_tool(unsupersede, description=(
        "Record that memory `newer` does not supersede memory `older` (both still hold: memory linked them "
        "wrongly). Memories added later leave it so. Returns the older one's versions. " + scope),
        annotations=adds)
    return server


class BearerToken:
    """ASGI middleware: every request carries `Authorization: Bearer TOKEN`, else 401."""

    def __init__(self, app: Any, token: str):
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")]})
                await send({"type": "http.response.body", "body": b"graphmem: a bearer token is required\n"})
                return
        await self.app(scope, receive, send)


def check_binding(host: str, token: str | None) -> None:
    """Bound anywhere but this machine, the server answers only to a token."""
    if host not in LOOPBACK and not token:
        raise InputError(f"serving on {host} lets other machines reach this memory: give a token "
                         f"(--token or GRAPHMEM_MCP_TOKEN), or bind 127.0.0.1")


def listen(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to `host`:`port` (every address the name has, as asyncio binds them), for
    uvicorn to serve on: a port in use is refused in one line, before anything loads."""
    if not 0 <= port <= 65535:
        raise InputError(f"port takes 0 to 65535, not {port}")
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise InputError(f"cannot listen on {host}: {exc.strerror}") from None
    bound: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(addresses):
            sock = socket.socket(family, kind, proto)
            bound.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
    except OSError as exc:
        for sock in bound:
            sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise InputError(f"port {port} on {host} is in use") from None
        raise InputError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None
    return bound


def check_port(host: str, port: int) -> None:
    """Refused unless `host`:`port` is free to listen on (the CLI asks before it opens the store)."""
    for sock in listen(host, port):
        sock.close()


def serve(mem: Memory, *, user: str | None = None, transport: str = "stdio", host: str = "127.0.0.1",
          port: int = 8000, path: str = "/mcp", token: str | None = None,
          ready: Callable[[str], None] | None = None) -> None:
    """Serve `mem` until the client (stdio) or a signal (HTTP) ends it."""
    if transport not in ("stdio", "http"):
        raise InputError(f"transport is stdio or http, not {transport!r}")
    if transport == "stdio":
        build(MemoryTools(mem, user)).run("stdio")
        return
    check_binding(host, token)
    sockets = listen(host, port)  # bound here: uvicorn binding itself would exit the process on a port in use
    try:
        _serve_http(build(MemoryTools(mem, user)), sockets, host=host, port=port, path=path, token=token,
                    ready=ready)
    finally:
        for sock in sockets:
            sock.close()


def _serve_http(server: MCPServer, sockets: list[socket.socket], *, host: str, port: int, path: str,
                token: str | None, ready: Callable[[str], None] | None) -> None:
    import anyio
    import uvicorn

    app: Any = server.streamable_http_app(streamable_http_path=path, host=host)
    if token:
        app = BearerToken(app, token)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    http = uvicorn.Server(config)

    async def run() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(http.serve, sockets)
            while not http.started:  # said once the sockets listen
                await anyio.sleep(0.02)
            if ready is not None:
                ready(f"http://{host}:{port}{path}")

    anyio.run(run)
