"""The wire, standard library only: queries and mutations over HTTP (urllib, in a worker thread),
subscriptions over graphql-ws (the graphql-transport-ws protocol, on _websocket.py), with the
runtime's scope headers on both.

Generated code (burrow_client.generated.client.BurrowClient) adds one typed method per
operation on top of this class.
"""
from __future__ import annotations

import asyncio
import http.client
import json
import random
import uuid
import urllib.error
import urllib.request
import warnings
from enum import Enum
from types import TracebackType
from typing import Any, AsyncIterator, Callable, Dict, List, NamedTuple, Optional, Tuple, Type, TypeVar, Union

from ._archive import AgentArchiveImport, ArchiveOut, ArchiveSource, export_blocking, import_blocking
from ._base import BurrowModel, dump
from ._websocket import ConnectionClosed, WebSocket
from .errors import BurrowError, error_for
from .generated.schema_hash import SCHEMA_HASH

#: The response header (and graphql-ws connection_ack field ``schemaHash``) naming the server's schema.
SCHEMA_HASH_HEADER = "burrow-schema-hash"


class Operation(NamedTuple):
    """A generated operation: its name, the SHA-256 the server's trusted documents know it by,
    its text (sent instead when the server does not know the hash), whether it may be sent again
    after a lost answer (queries, and mutations that take an idempotency key) and whether it
    carries an Idempotency-Key (docs/idempotency.md)."""

    name: str
    hash: str
    text: str
    resend: bool = False
    keyed: bool = False


class SchemaMismatchWarning(UserWarning):
    """The server's schema differs from the one this client was generated from."""


SchemaMismatchHandler = Callable[[str, str], None]
T = TypeVar("T", bound="BurrowTransport")


def _wire(value: Any) -> Any:
    if isinstance(value, BurrowModel):
        return dump(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [_wire(v) for v in value]
    if isinstance(value, dict):
        return {k: _wire(v) for k, v in value.items()}
    return value


class BurrowTransport:
    """Connection settings and the two transports.

    ``scope``, ``session`` and ``conversation`` are the runtime's continuity scope, session and
    conversation: sent as the Burrow-Continuity-Scope, Burrow-Session and Burrow-Conversation
    headers over HTTP and as connectionParams over graphql-ws.
    """

    def __init__(
        self,
        url: str,
        token: str,
        *,
        scope: Optional[str] = None,
        session: Optional[str] = None,
        conversation: Optional[str] = None,
        documents: str = "hash",
        on_schema_mismatch: Union[SchemaMismatchHandler, bool, None] = None,
        timeout: float = 30.0,
        resume_attempts: int = 5,
        retry_attempts: int = 4,
        retry_max_delay: float = 10.0,
    ) -> None:
        if documents not in ("hash", "text"):
            raise ValueError("documents must be 'hash' or 'text'")
        self.url = url
        self.token = token
        self.scope = scope
        self.session = session
        self.conversation = conversation
        self.documents = documents
        self.timeout = timeout
        self.resume_attempts = resume_attempts
        #: Attempts in all of a call that may be resent (1: never resend); see _execute.
        self.retry_attempts = retry_attempts
        self.retry_max_delay = retry_max_delay
        self._on_schema_mismatch = on_schema_mismatch
        self._schema_checked = on_schema_mismatch is False

    # ---- lifecycle ----
    async def aclose(self) -> None:
        """Nothing is held between calls (each request is its own connection); kept for ``async with``."""

    async def __aenter__(self: T) -> T:
        return self

    async def __aexit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        await self.aclose()

    # ---- headers and schema ----
    def headers(self) -> Dict[str, str]:
        headers = {"authorization": f"Bearer {self.token}"}
        if self.scope:
            headers["burrow-continuity-scope"] = self.scope
        if self.session:
            headers["burrow-session"] = self.session
        if self.conversation:
            headers["burrow-conversation"] = self.conversation
        return headers

    def _check_schema(self, server: Any) -> None:
        if self._schema_checked or not isinstance(server, str) or not server:
            return
        self._schema_checked = True
        if server == SCHEMA_HASH:
            return
        if callable(self._on_schema_mismatch):
            self._on_schema_mismatch(SCHEMA_HASH, server)
            return
        warnings.warn(
            f"burrow-client: the server's schema ({server[:12]}…) differs from this client's "
            f"({SCHEMA_HASH[:12]}…); regenerate or upgrade the client",
            SchemaMismatchWarning,
            stacklevel=4,
        )

    def _payload(self, operation: Operation, variables: Dict[str, Any], by_hash: bool) -> Dict[str, Any]:
        wired = {k: _wire(v) for k, v in variables.items() if v is not None}
        if by_hash:
            return {"query": "", "variables": wired, "extensions": {"persistedQuery": {"version": 1, "sha256Hash": operation.hash}}}
        return {"query": operation.text, "variables": wired}

    # ---- HTTP ----
    async def execute(self, query: str, variables: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """Any query or mutation by text (for what the generated methods do not cover)."""
        return await self._post({"query": query, "variables": _wire(variables or {})})

    async def _execute(self, operation: Operation, variables: Dict[str, Any]) -> Dict[str, Any]:
        """One logical call. Resent after DATABASE_UNAVAILABLE (waiting its Retry-After) or a lost
        connection (an exponential, jittered backoff), at most ``retry_attempts`` times in all,
        when the operation allows it; a keyed mutation sends one Idempotency-Key, the same on
        every attempt, so a write that had committed answers its first result instead of writing
        again (docs/idempotency.md)."""
        attempts = max(1, self.retry_attempts) if operation.resend else 1
        # Without resending there is nothing to key: the call is sent exactly as written.
        key = str(uuid.uuid4()) if operation.keyed and self.retry_attempts > 1 else None
        attempt = 1
        while True:
            try:
                return await self._execute_once(operation, variables, key)
            except BurrowError as error:
                if attempt >= attempts or error.code not in ("DATABASE_UNAVAILABLE", "BAD_RESPONSE"):
                    raise
                delay = error.retry_after_seconds if error.retry_after_seconds is not None else self._backoff(attempt)
            except (http.client.HTTPException, OSError):
                # A lost connection or a timeout (urllib's URLError and socket errors are OSErrors).
                if attempt >= attempts:
                    raise
                delay = self._backoff(attempt)
            await asyncio.sleep(min(delay, self.retry_max_delay))
            attempt += 1

    @staticmethod
    def _backoff(attempt: int) -> float:
        ceiling: float = 0.2 * 2.0 ** (attempt - 1)
        return ceiling / 2 + random.random() * ceiling / 2

    async def _execute_once(self, operation: Operation, variables: Dict[str, Any], key: Optional[str]) -> Dict[str, Any]:
        by_hash = self.documents == "hash"
        try:
            return await self._post(self._payload(operation, variables, by_hash), key)
        except BurrowError as error:
            # A server built from other operations does not know the hash: the text is the fallback.
            if by_hash and error.code == "PERSISTED_QUERY_NOT_FOUND":
                return await self._post(self._payload(operation, variables, False), key)
            raise

    async def _post(self, body: Dict[str, Any], idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        status, headers, raw = await asyncio.get_running_loop().run_in_executor(None, self._post_blocking, body, idempotency_key)
        self._check_schema(headers.get(SCHEMA_HASH_HEADER))
        try:
            result = json.loads(raw)
        except ValueError:
            raise BurrowError("BAD_RESPONSE", f"HTTP {status}: {raw[:200]!r}", status=status)
        errors: List[Dict[str, Any]] = result.get("errors") or []
        if errors:
            raise error_for(errors, status=status, retry_after_header=headers.get("retry-after"))
        data: Dict[str, Any] = result.get("data") or {}
        return data

    def _post_blocking(self, body: Dict[str, Any], idempotency_key: Optional[str] = None) -> Tuple[int, Dict[str, str], bytes]:
        headers = {"content-type": "application/json", "accept": "application/graphql-response+json, application/json", **self.headers()}
        if idempotency_key is not None:
            headers["idempotency-key"] = idempotency_key
        request = urllib.request.Request(self.url, data=json.dumps(body).encode(), method="POST", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
        except urllib.error.HTTPError as error:
            # 4xx/5xx still carry a GraphQL answer (errors[] with a code).
            return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()

    # ---- agent archives (HTTP, operators only: docs/agent-archive.md) ----
    async def export_agent_archive(self, agent_id: str, out: ArchiveOut, *, include_events: bool = False) -> int:
        """Downloads agent ``agent_id``'s archive into ``out`` (a path, or a binary file object
        open for writing), streamed in chunks; returns the bytes written. A path is written only
        when the download is complete. ``include_events`` adds the event log."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, export_blocking, self.url, self.token, self.timeout, agent_id, out, include_events)

    async def import_agent_archive(self, agent_id: str, source: ArchiveSource, *, replace: bool = False) -> AgentArchiveImport:
        """Uploads an archive (a path, or a binary file object open for reading), streamed, and
        imports it as agent ``agent_id`` (whatever id it was exported from); ``replace`` replaces
        an existing agent, which is otherwise refused with ``AlreadyExists``."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, import_blocking, self.url, self.token, self.timeout, agent_id, source, replace)

    # ---- graphql-ws ----
    def subscribe(self, query: str, variables: Optional[Dict[str, Any]] = None) -> AsyncIterator[Dict[str, Any]]:
        """Any subscription by text; yields each event's ``data``."""
        return self._over_socket({"query": query, "variables": _wire(variables or {})})

    async def _subscribe(self, operation: Operation, variables: Dict[str, Any], resume: Optional[str]) -> AsyncIterator[Dict[str, Any]]:
        """Yields the subscription's events. With ``resume`` (the root field of an event stream
        that takes ``after`` and delivers ``sequence``), a lost connection reconnects and asks for
        the events after the last one delivered, so none is missed or repeated."""
        variables = dict(variables)
        by_hash = self.documents == "hash"
        failures = 0
        while True:
            try:
                async for data in self._over_socket(self._payload(operation, variables, by_hash)):
                    failures = 0
                    if resume is not None:
                        sequence = (data.get(resume) or {}).get("sequence")
                        if isinstance(sequence, int):
                            variables["after"] = sequence
                    yield data
                return
            except BurrowError as error:
                if by_hash and error.code == "PERSISTED_QUERY_NOT_FOUND":
                    by_hash = False
                    continue
                raise
            except (ConnectionClosed, OSError) as error:
                code = getattr(error, "code", None)
                # 4xxx: the server ended the socket on purpose (token revoked, protocol): no retry.
                if resume is None or failures >= self.resume_attempts or (isinstance(code, int) and 4000 <= code < 5000):
                    raise
                failures += 1
                await asyncio.sleep(min(0.2 * 2**failures, 5.0))

    async def _over_socket(self, payload: Dict[str, Any]) -> AsyncIterator[Dict[str, Any]]:
        url = "ws" + self.url[len("http"):] if self.url.startswith("http") else self.url
        socket = await WebSocket.connect(url, subprotocol="graphql-transport-ws", timeout=self.timeout)
        try:
            await socket.send(json.dumps({"type": "connection_init", "payload": self.headers()}))
            while True:
                message = json.loads(await asyncio.wait_for(socket.recv(), self.timeout))
                if message.get("type") == "ping":
                    await socket.send(json.dumps({"type": "pong"}))
                elif message.get("type") == "connection_ack":
                    self._check_schema((message.get("payload") or {}).get("schemaHash"))
                    break
            await socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
            finished = False
            try:
                while True:
                    message = json.loads(await socket.recv())
                    kind = message.get("type")
                    if kind == "ping":
                        await socket.send(json.dumps({"type": "pong"}))
                    elif kind == "next":
                        result = message.get("payload") or {}
                        if result.get("errors"):
                            raise error_for(result["errors"])
                        yield result.get("data") or {}
                    elif kind == "error":
                        finished = True
                        raise error_for(message.get("payload") or [])
                    elif kind == "complete":
                        finished = True
                        return
            finally:
                if not finished:
                    try:
                        await socket.send(json.dumps({"id": "1", "type": "complete"}))
                    except (ConnectionClosed, OSError):
                        pass
        finally:
            await socket.close()
