/**
 * The chosen agent's sessions, newest first, each with its counts and archive state; the
 * session id opens it beside the list. The filter is the API's (conversationSessions(archived)).
 */
import type { ConversationSessionArchiveFilter } from '../../graphql/generated';
import { when } from '../operations/format';
import type { Paged } from './paged';
import type { Session } from './format';

interface Props {
  agentId: string;
  sessions: Paged<Session>;
  filter: ConversationSessionArchiveFilter;
  onFilter: (filter: ConversationSessionArchiveFilter) => void;
  openId: string | null;
  onOpen: (sessionId: string) => void;
}

const FILTERS: { value: ConversationSessionArchiveFilter; label: string }[] = [
  { value: 'INCLUDE', label: 'Every session' },
  { value: 'EXCLUDE', label: 'Not archived' },
  { value: 'ONLY', label: 'Archived only' },
];

const EMPTY: Record<ConversationSessionArchiveFilter, string> = {
  INCLUDE: "No session yet: a runtime's first append starts one.",
  EXCLUDE: 'No open session: every session of this agent is archived.',
  ONLY: 'No session is archived.',
};

export function SessionList({ agentId, sessions, filter, onFilter, openId, onOpen }: Props) {
  const { items, more, error, loadMore } = sessions;
  return (
    <section class="panel session-list" aria-labelledby="sessions-h">
      <h2 id="sessions-h">Sessions of {agentId}</h2>
      <div class="row">
        <label for="session-filter">Show</label>
        <select id="session-filter" value={filter} onChange={(e) => onFilter(e.currentTarget.value as ConversationSessionArchiveFilter)}>
          {FILTERS.map((f) => (
            <option value={f.value}>{f.label}</option>
          ))}
        </select>
      </div>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {items && items.length === 0 && <p class="hint">{EMPTY[filter]}</p>}
      {items && items.length > 0 && (
        <div class="scroll">
          <table>
            <caption class="visually-hidden">Sessions, newest first, with their counts and archive state</caption>
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">Active messages</th>
                <th scope="col">Originals</th>
                <th scope="col">Archive generations</th>
                <th scope="col">Last activity</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {items.map((s) => (
                <tr data-session={s.sessionId} class={s.sessionId === openId ? 'open' : undefined}>
                  <th scope="row">
                    <button type="button" class="link" aria-current={s.sessionId === openId ? 'true' : undefined} onClick={() => onOpen(s.sessionId)}>
                      {s.sessionId}
                    </button>
                  </th>
                  <td>{s.activeCount}</td>
                  <td>
                    {s.originalCount}
                    {s.archivedCount > 0 && <span class="meta"> ({s.archivedCount} archived)</span>}
                  </td>
                  <td>{s.archiveGenerations}</td>
                  <td>{when(s.lastActivityAt)}</td>
                  <td data-state>{s.archived ? 'archived' : 'open'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {more && (
        <button type="button" class="secondary" onClick={() => void loadMore()}>
          Show more sessions
        </button>
      )}
    </section>
  );
}
