"""The generated Python client against a real Burrow server (conftest.py starts it)."""
from __future__ import annotations

import asyncio
import hashlib
import re
import warnings
from pathlib import Path
from typing import Any, AsyncIterator, List, Tuple, TypeVar

import pytest

import burrow_client
import burrow_client._base
import burrow_client.transport
from burrow_client import (
    SCHEMA_HASH,
    AgentEventsResult,
    AgentMismatch,
    AlreadyExists,
    BurrowClient,
    BurrowError,
    CreateAgentInput,
    CreateAgentAlreadyExists,
    CreateAgentSuccess,
    CreateApiTokenInput,
    CreateApiTokenSuccess,
    DatabaseUnavailable,
    NotFound,
    PrincipalKind,
    ProfileKind,
    RateLimited,
    RetryableError,
    RevisionConflict,
    SchemaMismatchWarning,
    TrustedDocumentRequired,
    Unauthenticated,
    UpdateProfileDocumentInput,
    UpdateProfileDocumentRevisionConflict,
    UpdateProfileDocumentSuccess,
    raise_for_member,
)

from .conftest import ROOT, Server

T = TypeVar("T")


def operator(server: Server, **options: Any) -> BurrowClient:
    return BurrowClient(server.url, server.token, **options)


async def create_agent(client: BurrowClient, agent_id: str) -> None:
    created = (await client.create_agent(input=CreateAgentInput(agent_id=agent_id, name=agent_id.title()))).create_agent
    assert isinstance(created, CreateAgentSuccess), created


async def agent_token(client: BurrowClient, agent_id: str) -> str:
    result = (await client.create_api_token(input=CreateApiTokenInput(kind=PrincipalKind.AGENT, agent_id=agent_id, name=f"py-{agent_id}"))).create_api_token
    assert isinstance(result, CreateApiTokenSuccess), result
    return result.secret


async def take(stream: AsyncIterator[T], count: int, timeout: float = 15.0) -> List[T]:
    items: List[T] = []

    async def run() -> None:
        async for item in stream:
            items.append(item)
            if len(items) == count:
                return

    try:
        await asyncio.wait_for(run(), timeout)
    finally:
        await stream.aclose()  # type: ignore[attr-defined]
    return items


def test_creates_an_agent_and_reads_it_back(server: Server) -> None:
    async def main() -> None:
        async with operator(server) as client:
            await create_agent(client, "py-ada")
            agent = (await client.agent(id="py-ada")).agent
            assert agent is not None
            assert (agent.agent_id, agent.name, agent.last_event_sequence) == ("py-ada", "Py-Ada", 1)
            assert sorted(p.kind.value for p in agent.profile) == sorted(k.value for k in ProfileKind)
            assert all(p.revision == 1 for p in agent.profile)
            # Creating it again is an error member, not an exception; raise_for_member types it.
            again = (await client.create_agent(input=CreateAgentInput(agent_id="py-ada", name="Other"))).create_agent
            assert isinstance(again, CreateAgentAlreadyExists)
            assert (again.code, again.resource, again.resource_id) == ("ALREADY_EXISTS", "Agent", "py-ada")
            with pytest.raises(AlreadyExists) as raised:
                raise_for_member(again)
            assert (raised.value.code, raised.value.kind, raised.value.payload) == ("ALREADY_EXISTS", "member", again)
            # Nothing changed: the name is still the first one.
            unchanged = (await client.agent(id="py-ada")).agent
            assert unchanged is not None and unchanged.name == "Py-Ada"
            assert (await client.agent(id="py-nobody")).agent is None

    asyncio.run(main())


def test_a_stale_revision_is_a_typed_revision_conflict_and_changes_nothing(server: Server) -> None:
    async def main() -> None:
        async with operator(server) as client:
            await create_agent(client, "py-rev")
            ok = (
                await client.update_profile_document(
                    input=UpdateProfileDocumentInput(agent_id="py-rev", kind=ProfileKind.PREFERENCES, content="Short answers.", expected_revision=1)
                )
            ).update_profile_document
            assert isinstance(ok, UpdateProfileDocumentSuccess)
            assert (ok.document.revision, ok.document.content) == (2, "Short answers.")
            stale = (
                await client.update_profile_document(
                    input=UpdateProfileDocumentInput(agent_id="py-rev", kind=ProfileKind.PREFERENCES, content="Long answers.", expected_revision=1)
                )
            ).update_profile_document
            assert isinstance(stale, UpdateProfileDocumentRevisionConflict)
            assert (stale.code, stale.expected_revision, stale.current_revision, stale.current_content) == ("REVISION_CONFLICT", 1, 2, "Short answers.")
            with pytest.raises(RevisionConflict):
                raise_for_member(stale)
            raise_for_member(ok)  # a success member raises nothing
            document = (await client.profile_document(agent_id="py-rev", kind=ProfileKind.PREFERENCES)).profile_document
            assert document is not None and (document.revision, document.content) == (2, "Short answers.")

    asyncio.run(main())


def test_request_errors_raise_their_code_class(server: Server) -> None:
    async def main() -> None:
        async with BurrowClient(server.url, "brw_not-a-token") as stranger:
            with pytest.raises(Unauthenticated) as unauthenticated:
                await stranger.viewer()
            assert (unauthenticated.value.code, unauthenticated.value.status, unauthenticated.value.retryable) == ("UNAUTHENTICATED", 401, False)
        async with operator(server) as client:
            await create_agent(client, "py-own")
            await create_agent(client, "py-other")
            async with BurrowClient(server.url, await agent_token(client, "py-own")) as agent:
                assert (await agent.viewer()).viewer.agent_id == "py-own"
                with pytest.raises(AgentMismatch):
                    await agent.agent(id="py-other")
                with pytest.raises(AgentMismatch):
                    await take(agent.agent_events(agent_id="py-other"), 1)
            with pytest.raises(NotFound) as missing:
                await take(client.agent_events(agent_id="py-ghost"), 1)
            assert (missing.value.code, missing.value.kind, missing.value.status) == ("NOT_FOUND", "member", None)

    asyncio.run(main())


def test_sends_the_runtime_scope_headers(server: Server) -> None:
    async def main() -> None:
        async with operator(server) as client:
            await create_agent(client, "py-scope")
            token = await agent_token(client, "py-scope")
        async with BurrowClient(server.url, token, scope="proj-a", session="sess-1", conversation="conv-9") as agent:
            viewer = (await agent.viewer()).viewer
            assert (viewer.principal, viewer.agent_id, viewer.project, viewer.session_id, viewer.conversation_id) == (
                PrincipalKind.AGENT,
                "py-scope",
                "proj-a",
                "sess-1",
                "conv-9",
            )
        async with BurrowClient(server.url, token) as unscoped:
            viewer = (await unscoped.viewer()).viewer
            assert (viewer.project, viewer.session_id, viewer.conversation_id) == (None, None, None)
        # The server runs only trusted documents for agents: the generated methods send hashes it
        # knows (every agent call in these tests); the same operation as text is refused.
        async with BurrowClient(server.url, token, documents="text") as by_text:
            with pytest.raises(TrustedDocumentRequired) as refused:
                await by_text.viewer()
            assert (refused.value.code, refused.value.status) == ("TRUSTED_DOCUMENT_REQUIRED", 403)

    asyncio.run(main())


def test_a_subscription_receives_a_live_event(server: Server) -> None:
    async def main() -> None:
        async with operator(server) as client:
            await create_agent(client, "py-live")
            received: List[AgentEventsResult] = []
            subscribed = asyncio.Event()

            async def listen() -> None:
                stream = client.agent_events(agent_id="py-live", after=1)
                # The replay after 1 is empty: the first item is the live event.
                async for event in stream:
                    received.append(event)
                    break
                await stream.aclose()  # type: ignore[attr-defined]

            listener = asyncio.create_task(listen())
            await asyncio.sleep(1.0)  # let the socket subscribe before the write
            subscribed.set()
            ok = (
                await client.update_profile_document(
                    input=UpdateProfileDocumentInput(agent_id="py-live", kind=ProfileKind.SOUL, content="Curious.", expected_revision=1)
                )
            ).update_profile_document
            assert isinstance(ok, UpdateProfileDocumentSuccess)
            await asyncio.wait_for(listener, 15)
            assert len(received) == 1
            event = received[0].agent_events
            assert (event.sequence, event.agent_id, event.subject_id) == (2, "py-live", "postgres:agent_profile_documents/py-live/SOUL")

    asyncio.run(main())


def test_resumes_after_a_given_sequence(server: Server) -> None:
    async def main() -> None:
        async with operator(server) as client:
            await create_agent(client, "py-resume")
            for revision, content in enumerate(["one", "two", "three"], start=1):
                await client.update_profile_document(
                    input=UpdateProfileDocumentInput(agent_id="py-resume", kind=ProfileKind.RULES, content=content, expected_revision=revision)
                )
            everything = await take(client.agent_events(agent_id="py-resume", after=0), 4)
            assert [e.agent_events.sequence for e in everything] == [1, 2, 3, 4]
            rest = await take(client.agent_events(agent_id="py-resume", after=2), 2)
            assert [e.agent_events.sequence for e in rest] == [3, 4]
            assert [e.agent_events.payload for e in rest] == [e.agent_events.payload for e in everything[2:]]

    asyncio.run(main())


def test_resumes_by_itself_when_the_connection_drops(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """The socket breaks after each event: the client reconnects asking for what came after the
    last sequence it delivered, so the stream has no gap and no repeat."""
    real = burrow_client.transport.BurrowTransport._over_socket
    opened: List[Any] = []

    async def flaky(self: burrow_client.transport.BurrowTransport, payload: Any) -> AsyncIterator[Any]:
        opened.append(payload["variables"].get("after"))
        async for data in real(self, payload):
            yield data
            raise ConnectionResetError("the network dropped")

    async def main() -> None:
        async with operator(server) as client:
            await create_agent(client, "py-drop")
            for revision in (1, 2):
                await client.update_profile_document(
                    input=UpdateProfileDocumentInput(agent_id="py-drop", kind=ProfileKind.RULES, content=f"v{revision}", expected_revision=revision)
                )
            monkeypatch.setattr(burrow_client.transport.BurrowTransport, "_over_socket", flaky)
            events = await take(client.agent_events(agent_id="py-drop", after=0), 3)
            assert [e.agent_events.sequence for e in events] == [1, 2, 3]
            assert opened == [0, 1, 2]

    asyncio.run(main())


def test_rate_limited_is_retryable_with_the_servers_advice(server: Server) -> None:
    async def main() -> None:
        async with operator(server) as client:
            await create_agent(client, "py-busy")
            token = await agent_token(client, "py-busy")
        async with BurrowClient(server.url, token) as agent:
            results = await asyncio.gather(*(agent.viewer() for _ in range(150)), return_exceptions=True)
        refused = [r for r in results if isinstance(r, BaseException)]
        assert refused, "150 requests never exceeded the burst of 60"
        assert all(isinstance(r, RateLimited) for r in refused), refused
        first = refused[0]
        assert isinstance(first, RateLimited) and isinstance(first, RetryableError)
        assert (first.code, first.status, first.retryable, first.retry_after_seconds) == ("RATE_LIMITED", 429, True, 1.0)
        assert issubclass(DatabaseUnavailable, RetryableError) and DatabaseUnavailable.retryable

    asyncio.run(main())


def test_schema_hash_matches_the_server_and_a_mismatch_warns_once(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    assert SCHEMA_HASH == hashlib.sha256((ROOT / "schema.graphql").read_bytes()).hexdigest()
    assert burrow_client.SCHEMA_HASH_HEADER == "burrow-schema-hash"

    async def main() -> None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            async with operator(server) as client:
                await client.viewer()
                await take(client.agent_events(agent_id="py-ada", after=0), 1)
            assert [w for w in caught if issubclass(w.category, SchemaMismatchWarning)] == []
            # A client generated from another schema: what an older or newer install looks like.
            monkeypatch.setattr(burrow_client.transport, "SCHEMA_HASH", "f" * 64)
            async with operator(server) as client:
                await client.viewer()
                await client.viewer()
            mismatches = [w for w in caught if issubclass(w.category, SchemaMismatchWarning)]
            assert len(mismatches) == 1
            assert f"server's schema ({SCHEMA_HASH[:12]}…) differs from this client's (ffffffffffff…)" in str(mismatches[0].message)
        seen: List[Tuple[str, str]] = []
        async with operator(server, on_schema_mismatch=lambda client, server_hash: seen.append((client, server_hash))) as client:
            await take(client.agent_events(agent_id="py-ada", after=0), 1)  # over graphql-ws: the connection_ack
            await client.viewer()
        assert seen == [("f" * 64, SCHEMA_HASH)]

    asyncio.run(main())


def test_generated_files_name_every_operation_document() -> None:
    operations = (ROOT / "clients" / "typescript" / "operations").glob("*.graphql")
    names = sorted(
        name
        for path in operations
        for name in re.findall(r"^(?:query|mutation|subscription)\s+(\w+)", path.read_text(), re.M)
    )
    generated = Path(burrow_client.__file__).parent / "generated" / "client.py"
    text = generated.read_text()
    missing = [n for n in names if f'name="{n}"' not in text]
    assert names and missing == []
    assert isinstance(burrow_client.BurrowError("X", "y"), Exception) and BurrowError is burrow_client.errors.BurrowError


def test_models_refuse_unknown_fields() -> None:
    # An input with a keyword it does not have fails loudly instead of dropping it (the agent
    # would otherwise get a generated id): the field is agent_id.
    with pytest.raises(TypeError, match="unexpected keyword argument 'id'"):
        CreateAgentInput(id="py-typo", name="Typo")  # type: ignore[call-arg]
    assert burrow_client._base.dump(CreateAgentInput(agent_id="py-ok", name="Ok")) == {"agentId": "py-ok", "name": "Ok"}
    # An answer with a field the model does not know is refused the same way.
    with pytest.raises(burrow_client.ResponseShapeError, match="unknown field"):
        burrow_client._base.parse(burrow_client.ViewerResult, {"viewer": {"principal": "OPERATOR", "surprise": 1}})


def test_result_classes_have_short_names() -> None:
    assert CreateAgentSuccess.__name__ == "CreateAgentSuccess"
    assert burrow_client.AppendDreamDiaryEntrySuccess.__name__ == "AppendDreamDiaryEntrySuccess"
    longest = max((name for name in dir(burrow_client) if name[0].isupper()), key=len)
    assert len(longest) <= 60, longest
