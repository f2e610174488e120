"""Run by test/e2e/client-python.test.ts with the installed burrow-client: retries without
duplicates (docs/idempotency.md). Writes go through PROXY_URL, a proxy the test plans to lose
answers (drop one after the server committed it, answer 503 DATABASE_UNAVAILABLE); setup and the
counts go straight to GRAPHQL_URL. Prints one JSON object of what it saw; the test asserts its
exact values. Usage: python client-python-retries.py GRAPHQL_URL PROXY_URL (operator token in
BURROW_TOKEN)."""
import asyncio
import json
import os
import sys
from typing import Any, Dict

from burrow_client import (
    AppendConversationEntryInput,
    BrainSaveInput,
    BrainUpdateInput,
    BurrowClient,
    CreateAgentInput,
    CreateApiTokenInput,
    PrincipalKind,
)

URL, PROXY = sys.argv[1], sys.argv[2]


async def main() -> Dict[str, Any]:
    seen: Dict[str, Any] = {}
    async with BurrowClient(URL, os.environ["BURROW_TOKEN"]) as operator:
        await operator.create_agent(input=CreateAgentInput(agent_id="py-retry", name="Py Retry"))
        token = (await operator.create_api_token(input=CreateApiTokenInput(kind=PrincipalKind.AGENT, name="py-retry", agent_id="py-retry"))).create_api_token
        secret = getattr(token, "secret")
        async with BurrowClient(PROXY, secret, scope="proj", session="py-session") as agent:
            # 1. The answer is lost after the commit (the proxy drops it): resent with the same key.
            saved = (await agent.brain_save(input=BrainSaveInput(title="Py lost answer", content="once"))).brain_save
            memory_id = getattr(saved, "memory").memory_id
            seen["saved"] = type(saved).__name__
            # 2. 503 DATABASE_UNAVAILABLE (Retry-After: 1), then a lost answer: resent twice, one entry.
            appended = (await agent.append_conversation_entry(input=AppendConversationEntryInput(payload='{"n": 1}', role="user"))).append_conversation_entry
            seen["appendedPosition"] = getattr(appended, "entry").position
            # 3. A mutation without a key is not resent: the lost answer is the caller's to handle.
            try:
                await agent.brain_update(input=BrainUpdateInput(memory_id=memory_id, expected_revision=1, content="v2"))
                seen["update"] = "answered"
            except OSError as error:
                seen["update"] = type(error).__name__
        memories = (await operator.brain_memories(agent_id="py-retry", first=50)).brain_memories
        seen["memories"] = [(edge.node.title, edge.node.revision) for edge in memories.edges]
        originals = (await operator.conversation_originals(session_id="py-session", agent_id="py-retry")).conversation_originals
        seen["entries"] = len(originals.edges)
    return seen


print(json.dumps(asyncio.run(main())))
