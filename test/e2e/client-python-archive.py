"""Run by test/e2e/client-python.test.ts with the installed burrow-client: agent archives through
the Python client against the shipped server. Prints one JSON object of what it saw; the test
asserts its exact values. Usage: python client-python-archive.py GRAPHQL_URL WORK_DIR (operator
token in BURROW_TOKEN)."""
import asyncio
import io
import json
import os
import sys
from typing import Any, Dict, Optional

from burrow_client import (
    BurrowClient,
    BurrowError,
    CreateAgentInput,
    CreateApiTokenInput,
    PrincipalKind,
    ProfileKind,
    UpdateProfileDocumentInput,
)

URL, WORK = sys.argv[1], sys.argv[2]


class Unseekable(io.RawIOBase):
    """A pipe-like source: no fileno, no size, so the upload goes chunked."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        return self._data.read(min(size, 1000) if size and size > 0 else 1000)


async def refusal(call: Any) -> Dict[str, Any]:
    try:
        await call
    except BurrowError as error:
        return {"class": type(error).__name__, "status": error.status, "code": error.code}
    except Exception as error:
        return {"class": type(error).__name__, "message": str(error)}
    return {"class": None}


async def state(burrow: BurrowClient, agent_id: str) -> Optional[Dict[str, Any]]:
    agent = (await burrow.agent(id=agent_id)).agent
    if agent is None:
        return None
    return {
        "name": agent.name,
        "createdAt": agent.created_at,
        "lastEventSequence": agent.last_event_sequence,
        "profile": [[p.kind.value, p.content, p.revision] for p in agent.profile],
    }


def summary(answer: Any) -> Dict[str, Any]:
    return {"agentId": answer.agent_id, "fromAgentId": answer.from_agent_id, "replaced": answer.replaced, "counts": answer.counts, "rows": answer.rows}


async def main() -> None:
    seen: Dict[str, Any] = {}
    async with BurrowClient(URL, os.environ["BURROW_TOKEN"]) as burrow:
        await burrow.create_agent(input=CreateAgentInput(agent_id="py-src", name="Py Source"))
        preferences = UpdateProfileDocumentInput(agent_id="py-src", kind=ProfileKind.PREFERENCES, content="Short answers.", expected_revision=1)
        await burrow.update_profile_document(input=preferences)
        source = await state(burrow, "py-src")
        seen["source"] = source

        # Export to a path (with the event log) and into a file object (without).
        path = os.path.join(WORK, "py-src.burrow-agent.gz")
        written = await burrow.export_agent_archive("py-src", path, include_events=True)
        seen["pathExport"] = {"written": written, "size": os.path.getsize(path), "gzip": open(path, "rb").read(2) == b"\x1f\x8b"}
        buffer = io.BytesIO()
        written = await burrow.export_agent_archive("py-src", buffer)
        without_events = buffer.getvalue()
        seen["bufferExport"] = {"written": written, "size": len(without_events), "gzip": without_events[:2] == b"\x1f\x8b"}
        seen["leftoverFiles"] = sorted(os.listdir(WORK))

        # Import from the path (a known length) under another id: the same agent.
        seen["import"] = summary(await burrow.import_agent_archive("py-copy", path))
        seen["copySameAsSource"] = await state(burrow, "py-copy") == source

        # Change the copy, then a second import without replace is refused and changes nothing.
        changed = UpdateProfileDocumentInput(agent_id="py-copy", kind=ProfileKind.PREFERENCES, content="Changed in the copy.", expected_revision=2)
        await burrow.update_profile_document(input=changed)
        before = await state(burrow, "py-copy")
        seen["alreadyExists"] = await refusal(burrow.import_agent_archive("py-copy", Unseekable(without_events)))
        seen["unchangedAfterRefusal"] = await state(burrow, "py-copy") == before
        seen["copyChanged"] = before != source

        # replace=True from a chunked upload (no length): the copy reads as the source again.
        seen["replace"] = summary(await burrow.import_agent_archive("py-copy", Unseekable(without_events), replace=True))
        seen["replacedSameAsSource"] = await state(burrow, "py-copy") == source

        # Refusals, each with its class, status and code, and nothing written.
        missing = os.path.join(WORK, "nobody.burrow-agent.gz")
        seen["notFound"] = await refusal(burrow.export_agent_archive("py-nobody", missing))
        seen["notFoundLeftFile"] = os.path.exists(missing)
        seen["badArchive"] = await refusal(burrow.import_agent_archive("py-bad", io.BytesIO(without_events[: len(without_events) // 2])))
        seen["badArchiveAgent"] = await state(burrow, "py-bad")
        seen["badRequest"] = await refusal(burrow.import_agent_archive("Not An Id", io.BytesIO(without_events)))
        # Over BURROW_ARCHIVE_MAX_BYTES (the test's server: 64 KiB), with a known length and chunked.
        big = os.path.join(WORK, "big.gz")
        with open(big, "wb") as file:
            file.write(os.urandom(4 * 1024 * 1024))
        seen["tooLargeKnownLength"] = await refusal(burrow.import_agent_archive("py-big", big))
        seen["tooLargeChunked"] = await refusal(burrow.import_agent_archive("py-big", Unseekable(os.urandom(4 * 1024 * 1024))))
        seen["tooLargeAgent"] = await state(burrow, "py-big")
        token = (await burrow.create_api_token(input=CreateApiTokenInput(kind=PrincipalKind.AGENT, name="py-archive", agent_id="py-src"))).create_api_token
        secret = getattr(token, "secret")

    async with BurrowClient(URL, secret) as agent:
        seen["agentTokenExport"] = await refusal(agent.export_agent_archive("py-src", io.BytesIO()))
        seen["agentTokenImport"] = await refusal(agent.import_agent_archive("py-other", io.BytesIO(without_events)))
    async with BurrowClient(URL, "brw_not_a_token") as stranger:
        seen["unauthenticated"] = await refusal(stranger.export_agent_archive("py-src", io.BytesIO()))
    print(json.dumps(seen, sort_keys=True))


asyncio.run(main())
