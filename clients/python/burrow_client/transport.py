"""The wire: queries and mutations over HTTP (httpx), subscriptions over graphql-ws
(the graphql-transport-ws protocol, via websockets), with the runtime's scope headers on both.

Generated code (burrow_client.generated.client.BurrowClient) adds one typed method per
operation on top of this class.
"""
from __future__ import annotations

import asyncio
import json
import warnings
from enum import Enum
from types import TracebackType
from typing import Any, AsyncIterator, Callable, Dict, List, NamedTuple, Optional, Type, TypeVar, Union

import httpx
from websockets.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Subprotocol

from ._base import BurrowModel, dump
from .errors import BurrowError, error_for
from .generated.schema_hash import SCHEMA_HASH

#: The response header (and graphql-ws connection_ack field ``schemaHash``) naming the server's schema.
SCHEMA_HASH_HEADER = "burrow-schema-hash"


class Operation(NamedTuple):
    """A generated operation: its name, the SHA-256 the server's trusted documents know it by,
    and its text (sent instead when the server does not know the hash)."""

    name: str
    hash: str
    text: str


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
        http: Optional[httpx.AsyncClient] = None,
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
        self._on_schema_mismatch = on_schema_mismatch
        self._schema_checked = on_schema_mismatch is False
        self._http = http or httpx.AsyncClient(timeout=timeout)
        self._owns_http = http is None

    # ---- lifecycle ----
    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

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
        by_hash = self.documents == "hash"
        try:
            return await self._post(self._payload(operation, variables, by_hash))
        except BurrowError as error:
            # A server built from other operations does not know the hash: the text is the fallback.
            if by_hash and error.code == "PERSISTED_QUERY_NOT_FOUND":
                return await self._post(self._payload(operation, variables, False))
            raise

    async def _post(self, body: Dict[str, Any]) -> Dict[str, Any]:
        response = await self._http.post(
            self.url,
            json=body,
            headers={"accept": "application/graphql-response+json, application/json", **self.headers()},
        )
        self._check_schema(response.headers.get(SCHEMA_HASH_HEADER))
        try:
            result = response.json()
        except ValueError:
            raise BurrowError("BAD_RESPONSE", f"HTTP {response.status_code}: {response.text[:200]}", status=response.status_code)
        errors: List[Dict[str, Any]] = result.get("errors") or []
        if errors:
            raise error_for(errors, status=response.status_code, retry_after_header=response.headers.get("retry-after"))
        data: Dict[str, Any] = result.get("data") or {}
        return data

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
                closed = getattr(error, "rcvd", None)
                # 4xxx: the server ended the socket on purpose (token revoked, protocol): no retry.
                if resume is None or failures >= self.resume_attempts or (closed is not None and 4000 <= closed.code < 5000):
                    raise
                failures += 1
                await asyncio.sleep(min(0.2 * 2**failures, 5.0))

    async def _over_socket(self, payload: Dict[str, Any]) -> AsyncIterator[Dict[str, Any]]:
        url = "ws" + self.url[len("http"):] if self.url.startswith("http") else self.url
        async with connect(
            url,
            subprotocols=[Subprotocol("graphql-transport-ws")],
            open_timeout=self.timeout,
            max_size=64 * 1024 * 1024,
        ) as socket:
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
                    except ConnectionClosed:
                        pass
