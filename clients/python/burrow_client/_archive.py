"""Agent archives over HTTP (docs/agent-archive.md): ``GET /agents/{id}/archive`` downloads one
agent as a gzip file, ``POST /agents/{id}/archive`` uploads one and imports it as agent ``{id}``.
Operators only. Not GraphQL: the endpoints live beside the GraphQL endpoint on the same server,
answer refusals as ``{"error":{"code","message"}}`` with their HTTP status, and stream both ways,
so neither direction holds an archive in memory (a file of any size moves in 64 KiB chunks).

Blocking urllib, run by BurrowTransport in a worker thread like every other request.
"""
from __future__ import annotations

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


class BadArchive(BurrowError):
    """BAD_ARCHIVE (HTTP 400): the upload is not an intact archive (does not decompress, cut short,
    changed after export, a row of another agent, a table or column this server does not know).
    Nothing was written."""


class ArchiveTooLarge(BurrowError):
    """TOO_LARGE (HTTP 413): the upload is over the server's BURROW_ARCHIVE_MAX_BYTES. Nothing was written."""


# Codes only the archive endpoints answer with; every other code (ALREADY_EXISTS, NOT_FOUND,
# FORBIDDEN, UNAUTHENTICATED, RATE_LIMITED, …) raises the class generated for it from docs/errors.md.
_ARCHIVE_CODES: Dict[str, type] = {"BAD_ARCHIVE": BadArchive, "TOO_LARGE": ArchiveTooLarge}


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


def _refusal(error: urllib.error.HTTPError) -> BurrowError:
    raw = error.read()
    try:
        body = json.loads(raw)
        code, message = str(body["error"]["code"]), str(body["error"]["message"])
    except (ValueError, KeyError, TypeError):
        return BurrowError("HTTP_ERROR", f"HTTP {error.code}: {raw[:200]!r}", status=error.code)
    retry_after = error.headers.get("retry-after")
    if code in _ARCHIVE_CODES:
        refused: BurrowError = _ARCHIVE_CODES[code](code, message, status=error.code)
        return refused
    # The typed class for the code, with retry_after_seconds for RATE_LIMITED / DATABASE_UNAVAILABLE.
    typed = error_for([{"message": message, "extensions": {"code": code}}], status=error.code, retry_after_header=retry_after)
    # A refused request, even where the class's code is a result union member in GraphQL (AlreadyExists, NotFound).
    typed.kind = "request"
    return typed


def _open(request: urllib.request.Request, timeout: float) -> Any:
    try:
        return urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as error:
        with error:
            raise _refusal(error) from None


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
    headers = {"authorization": f"Bearer {token}", "content-type": "application/gzip", "accept": "application/json"}
    length = _length(source)
    # urllib sends a file object in 8 KiB blocks as it reads it: with Content-Length when the size
    # is known, else with Transfer-Encoding: chunked (urllib's choice for a body without a length).
    if length is not None:
        headers["content-length"] = str(length)
    request = urllib.request.Request(archive_url(url, agent_id, "replace" if replace else None), data=source, method="POST", headers=headers)
    with _open(request, timeout) as response:
        answer = json.loads(response.read())
    return AgentArchiveImport(
        agent_id=answer["agentId"],
        from_agent_id=answer["fromAgentId"],
        replaced=answer["replaced"],
        counts=dict(answer["counts"]),
        rows=answer["rows"],
    )

