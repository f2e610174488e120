"""Agent archives over HTTP (docs/agent-archive.md): ``GET /agents/{id}/archive`` downloads one
agent as a gzip file, ``POST /agents/{id}/archive`` uploads one and imports it as agent ``{id}``.
Operators only. Not GraphQL: the endpoints live beside the GraphQL endpoint on the same server,
answer refusals as ``{"error":{"code","message"}}`` with their HTTP status, and stream both ways,
so neither direction holds an archive in memory (a file of any size moves in 64 KiB chunks).

Blocking calls (urllib for the download, http.client for the upload), run by BurrowTransport in
a worker thread like every other request.
"""
from __future__ import annotations

import http.client
import json
import os
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Dict, Optional, Protocol, Union

from .errors import BurrowError, error_for

CHUNK = 64 * 1024


class Writable(Protocol):
    """A binary file object open for writing (open(..., "wb"), io.BytesIO, a socket file, …)."""

    def write(self, data: bytes, /) -> Any: ...


class Readable(Protocol):
    """A binary file object open for reading (open(..., "rb"), io.BytesIO, a pipe, …)."""

    def read(self, size: int = ..., /) -> bytes: ...


#: Where an export goes: a path, or a binary file object.
ArchiveOut = Union[str, "os.PathLike[str]", Writable]
#: Where an import comes from: a path, or a binary file object.
ArchiveSource = Union[str, "os.PathLike[str]", Readable]


@dataclass(frozen=True)
class AgentArchiveImport:
    """What an import answers: the agent it wrote, the agent the archive was exported from, whether
    an existing agent was replaced, and the rows written (per table and in all)."""

    agent_id: str
    from_agent_id: str
    replaced: bool
    counts: Dict[str, int]
    rows: int


def archive_url(graphql_url: str, agent_id: str, flag: Optional[str]) -> str:
    """The archive endpoint beside the GraphQL endpoint: http://host:port/graphql → …/agents/{id}/archive."""
    parts = urllib.parse.urlsplit(graphql_url)
    base = parts.path.rstrip("/")
    base = base[: -len("/graphql")] if base.endswith("/graphql") else base
    path = f"{base}/agents/{urllib.parse.quote(agent_id, safe='')}/archive"
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, f"{flag}=true" if flag else "", ""))


def _refusal(status: int, headers: Any, raw: bytes) -> BurrowError:
    try:
        body = json.loads(raw)
        code, message = str(body["error"]["code"]), str(body["error"]["message"])
    except (ValueError, KeyError, TypeError):
        return BurrowError("HTTP_ERROR", f"HTTP {status}: {raw[:200]!r}", status=status)
    # The class generated for the code from docs/errors.md (BadArchive, LimitExceeded, AlreadyExists, …),
    # with retry_after_seconds for RATE_LIMITED / DATABASE_UNAVAILABLE.
    typed = error_for([{"message": message, "extensions": {"code": code}}], status=status, retry_after_header=headers.get("retry-after"))
    # A refused request, even where the class's code is a result union member in GraphQL (AlreadyExists, NotFound).
    typed.kind = "request"
    return typed


def _open(request: urllib.request.Request, timeout: float) -> Any:
    try:
        return urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as error:
        with error:
            raise _refusal(error.code, error.headers, error.read()) from None


def export_blocking(url: str, token: str, timeout: float, agent_id: str, out: ArchiveOut, include_events: bool) -> int:
    request = urllib.request.Request(
        archive_url(url, agent_id, "includeEvents" if include_events else None),
        headers={"authorization": f"Bearer {token}", "accept": "application/gzip"},
    )
    with _open(request, timeout) as response:
        if not isinstance(out, (str, os.PathLike)):
            return _copy(response, out)
        # A path: written beside it and renamed when complete, so a failed or cut-short download
        # never leaves a file that looks like an archive (the server cuts the body short on failure).
        # mkstemp's mode (0600) stays: the file is all of an agent's data.
        target = os.fspath(out)
        fd, partial = tempfile.mkstemp(prefix=".burrow-archive-", dir=os.path.dirname(os.path.abspath(target)))
        try:
            with os.fdopen(fd, "wb") as file:
                written = _copy(response, file)
            os.replace(partial, target)
            return written
        except BaseException:
            os.unlink(partial)
            raise


def _copy(response: Any, file: Writable) -> int:
    written = 0
    while True:
        chunk = response.read(CHUNK)
        if not chunk:
            return written
        file.write(chunk)
        written += len(chunk)


def _length(source: Readable) -> Optional[int]:
    """What is left of a regular file (so the server can refuse an oversized one before it is
    sent); None for a pipe, socket or buffer, which then goes chunked."""
    try:
        size = os.fstat(getattr(source, "fileno")()).st_size
        return max(size - int(getattr(source, "tell")()), 0)
    except (AttributeError, OSError, ValueError):
        return None


def import_blocking(url: str, token: str, timeout: float, agent_id: str, source: ArchiveSource, replace: bool) -> AgentArchiveImport:
    if not isinstance(source, (str, os.PathLike)):
        return _upload(url, token, timeout, agent_id, source, replace)
    with open(os.fspath(source), "rb") as file:
        return _upload(url, token, timeout, agent_id, file, replace)


def _upload(url: str, token: str, timeout: float, agent_id: str, source: Readable, replace: bool) -> AgentArchiveImport:
    # http.client rather than urllib: when the server refuses before it has read the whole body
    # (TOO_LARGE, or 401/403 on a large file) it answers and closes, and urllib would report only
    # the broken pipe. Here the sending stops at that point and the answer is read.
    target = urllib.parse.urlsplit(archive_url(url, agent_id, "replace" if replace else None))
    length = _length(source)
    connection_class = http.client.HTTPSConnection if target.scheme == "https" else http.client.HTTPConnection
    connection = connection_class(target.netloc, timeout=timeout)
    try:
        connection.putrequest("POST", f"{target.path}?{target.query}" if target.query else target.path, skip_accept_encoding=True)
        connection.putheader("authorization", f"Bearer {token}")
        connection.putheader("content-type", "application/gzip")
        connection.putheader("accept", "application/json")
        # With Content-Length when the size is known (the server refuses an oversized file before
        # reading it), else Transfer-Encoding: chunked; either way CHUNK bytes at a time.
        connection.putheader(*(("content-length", str(length)) if length is not None else ("transfer-encoding", "chunked")))
        connection.endheaders()
        try:
            while True:
                chunk = source.read(CHUNK)
                if not chunk:
                    break
                connection.send(chunk if length is not None else b"%X\r\n%s\r\n" % (len(chunk), chunk))
            if length is None:
                connection.send(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError) as cut:
            # The server stopped reading: its answer says why, if it got one out.
            try:
                response = connection.getresponse()
            except (OSError, http.client.HTTPException):
                raise cut from None
        else:
            response = connection.getresponse()
        raw = response.read()
    finally:
        connection.close()
    if response.status >= 300:
        raise _refusal(response.status, response.headers, raw)
    answer = json.loads(raw)
    return AgentArchiveImport(
        agent_id=answer["agentId"],
        from_agent_id=answer["fromAgentId"],
        replaced=answer["replaced"],
        counts=dict(answer["counts"]),
        rows=answer["rows"],
    )
