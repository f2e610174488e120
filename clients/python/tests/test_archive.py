"""Agent archives through the client (export_agent_archive / import_agent_archive) against the real
server: streamed in bounded chunks both ways, a round trip under another id, and the refusals."""
from __future__ import annotations

import asyncio
import io
import secrets
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

from burrow_client import (
    AlreadyExists,
    BadArchive,
    BurrowClient,
    CreateAgentInput,
    CreateAgentSuccess,
    NotFound,
    ProfileKind,
    UpdateProfileDocumentInput,
    UpdateProfileDocumentSuccess,
)
from burrow_client._archive import CHUNK, archive_url

from .conftest import Server


class CountingWriter(io.RawIOBase):
    """A binary sink that records the size of every write."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.writes: List[int] = []

    def writable(self) -> bool:
        return True

    def write(self, chunk: Any) -> int:
        self.writes.append(len(chunk))
        self.data += chunk
        return len(chunk)


class CountingReader(io.RawIOBase):
    """A pipe-like source (no fileno, so the upload goes chunked) that records every read's size."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)
        self.reads: List[int] = []

    def readable(self) -> bool:
        return True

    def read(self, size: Optional[int] = -1) -> bytes:
        self.reads.append(-1 if size is None else size)
        return self._data.read(size)


async def state(client: BurrowClient, agent_id: str) -> Optional[Dict[str, Any]]:
    agent = (await client.agent(id=agent_id)).agent
    if agent is None:
        return None
    profile = [(p.kind.value, p.content, p.revision) for p in agent.profile]
    return {"name": agent.name, "created_at": agent.created_at, "sequence": agent.last_event_sequence, "profile": profile}


def test_archive_url_sits_beside_the_graphql_endpoint() -> None:
    assert archive_url("http://127.0.0.1:4000/graphql", "hatchet", None) == "http://127.0.0.1:4000/agents/hatchet/archive"
    assert archive_url("https://b.example/x/graphql/", "a b", "replace") == "https://b.example/x/agents/a%20b/archive?replace=true"


def test_an_agent_moves_in_chunks_and_replace_is_explicit(server: Server, tmp_path: Path) -> None:
    async def main() -> None:
        async with BurrowClient(server.url, server.token) as client:
            created = (await client.create_agent(input=CreateAgentInput(agent_id="py-arch", name="Py Arch"))).create_agent
            assert isinstance(created, CreateAgentSuccess)
            # Random content that does not compress: the archive is several chunks long.
            for kind in ProfileKind:
                content = secrets.token_hex(24_000)
                updated = (await client.update_profile_document(input=UpdateProfileDocumentInput(agent_id="py-arch", kind=kind, content=content, expected_revision=1))).update_profile_document
                assert isinstance(updated, UpdateProfileDocumentSuccess)
            source = await state(client, "py-arch")

            sink = CountingWriter()
            written = await client.export_agent_archive("py-arch", sink, include_events=True)
            assert written == len(sink.data) > 3 * CHUNK
            assert max(sink.writes) <= CHUNK and len(sink.writes) > 3
            assert bytes(sink.data[:2]) == b"\x1f\x8b"

            path = tmp_path / "py-arch.burrow-agent.gz"
            assert await client.export_agent_archive("py-arch", path, include_events=True) == path.stat().st_size
            assert [p.name for p in tmp_path.iterdir()] == [path.name]

            reader = CountingReader(bytes(sink.data))
            summary = await client.import_agent_archive("py-arch-copy", reader)
            assert max(reader.reads) <= CHUNK and len(reader.reads) > 3
            assert (summary.agent_id, summary.from_agent_id, summary.replaced) == ("py-arch-copy", "py-arch", False)
            assert summary.counts["agents"] == 1 and summary.rows == sum(summary.counts.values())
            assert await state(client, "py-arch-copy") == source

            with pytest.raises(AlreadyExists) as refused:
                await client.import_agent_archive("py-arch", path)
            assert (refused.value.status, refused.value.code, refused.value.kind) == (409, "ALREADY_EXISTS", "request")
            assert await state(client, "py-arch") == source

            replaced = await client.import_agent_archive("py-arch", str(path), replace=True)
            assert (replaced.agent_id, replaced.from_agent_id, replaced.replaced) == ("py-arch", "py-arch", True)
            assert await state(client, "py-arch") == source

            with pytest.raises(BadArchive) as bad:
                await client.import_agent_archive("py-arch-cut", io.BytesIO(bytes(sink.data[: len(sink.data) - 100])))
            assert (bad.value.status, bad.value.code) == (400, "BAD_ARCHIVE")
            assert await state(client, "py-arch-cut") is None

            missing = tmp_path / "missing.gz"
            with pytest.raises(NotFound) as absent:
                await client.export_agent_archive("py-arch-nobody", missing)
            assert (absent.value.status, absent.value.code) == (404, "NOT_FOUND")
            assert not missing.exists()

    asyncio.run(main())
