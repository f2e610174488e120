/**
 * Conversations: choose the agent owner, then its sessions with their counts and archive
 * generations; open one beside the list (from 1100 px) to read its active history, with each
 * compaction summary where the compaction happened, and its originals, the evidence; search
 * every session; archive, unarchive or compact a session after a confirmation.
 */
import { useState } from 'preact/hooks';
import { ConsoleConversationSessionsDocument, type ConversationSessionArchiveFilter } from '../graphql/generated';
import { hashParam } from '../hash-route';
import type { PageProps } from '../page-props';
import { usePaged } from './conversations/paged';
import { Search } from './conversations/Search';
import { SessionDetail } from './conversations/SessionDetail';
import { SessionList } from './conversations/SessionList';

export function ConversationsPage({ api, agents, agentsMore, announce }: PageProps) {
  // An agent's page links here with `?agent=<id>`: that owner is chosen.
  const [agentId, setAgentId] = useState(() => hashParam('agent') ?? '');
  const [filter, setFilter] = useState<ConversationSessionArchiveFilter>('INCLUDE');
  const [openId, setOpenId] = useState<string | null>(null);
  const sessions = usePaged(agentId ? `${agentId}/${filter}` : null, (after) =>
    api.request(ConsoleConversationSessionsDocument, { agentId, archived: filter, after }).then((d) => d.conversationSessions),
  );
  // The session already open is not opened again: focus still goes to it.
  const open = (sessionId: string) => (sessionId === openId ? document.getElementById('session-h')?.focus() : setOpenId(sessionId));

  return (
    <div class="conversations">
      <div class="panel">
        <label for="conversation-owner">Agent owner</label>
        {/* Another agent closes the open session in the same change: no read of it under the new agent. */}
        <select id="conversation-owner" value={agentId} onChange={(e) => (setOpenId(null), setAgentId(e.currentTarget.value))}>
          <option value="">Choose the agent owner…</option>
          {agents.map((a) => (
            <option value={a.agentId}>
              {a.name} ({a.agentId})
            </option>
          ))}
        </select>
        {!agentId && <p class="hint">Every session belongs to exactly one agent: choose it to see its sessions.</p>}
        {agentsMore && <p class="hint">The console lists the newest 100 agents.</p>}
      </div>
      {agentId && (
        <div class={openId ? 'conversations-work with-detail' : 'conversations-work'}>
          <div class="conversations-list">
            <Search key={agentId} api={api} agentId={agentId} announce={announce} onOpen={open} />
            <SessionList agentId={agentId} sessions={sessions} filter={filter} onFilter={setFilter} openId={openId} onOpen={open} />
          </div>
          {openId && (
            <div class="conversations-detail">
              <SessionDetail api={api} agentId={agentId} sessionId={openId} announce={announce} onChanged={() => void sessions.reload()} />
            </div>
          )}
        </div>
      )}
    </div>
  );
}
