/**
 * The Dream diary of one agent: its entries newest first (by entry date, then writing time),
 * 20 at a time with "Show older entries", and a form to append one. Append-only: no edit, no delete.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError, type Api } from '../../api';
import { humanError } from '../../human-error';
import { ConsoleAppendDreamDiaryEntryDocument, ConsoleDreamDiaryDocument, type ConsoleDreamDiaryEntryFragment } from '../../graphql/generated';
import type { AgentSummary } from '../../page-props';
import { when } from './format';

interface Props {
  api: Api;
  agents: AgentSummary[];
  announce: (message: string) => void;
}

export function DreamDiary({ api, agents, announce }: Props) {
  const [chosen, setChosen] = useState('');
  // The first agent until the operator picks another (the list arrives after sign-in).
  const agentId = chosen || agents[0]?.agentId || '';
  const [entries, setEntries] = useState<ConsoleDreamDiaryEntryFragment[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [entryDate, setEntryDate] = useState('');
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A page that arrives after the operator chose another agent is dropped.
  const shown = useRef(agentId);
  shown.current = agentId;

  const load = async (after: string | null) => {
    if (!agentId) return;
    try {
      const page = (await api.request(ConsoleDreamDiaryDocument, { agentId, after })).dreamDiary;
      if (shown.current !== agentId) return;
      const nodes = page.edges.map((e) => e.node);
      setEntries((old) => (after ? [...old, ...nodes] : nodes));
      setCursor(page.pageInfo.endCursor ?? null);
      setMore(page.pageInfo.hasNextPage);
      setLoadError(null);
    } catch (err) {
      setLoadError(describeError(err));
    }
  };
  useEffect(() => void load(null), [api, agentId]);

  const append = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const input = { agentId, body, ...(title.trim() ? { title: title.trim() } : {}), ...(entryDate ? { entryDate } : {}) };
      const r = (await api.request(ConsoleAppendDreamDiaryEntryDocument, { input })).appendDreamDiaryEntry;
      if (r.__typename !== 'AppendDreamDiaryEntrySuccess') return setError(humanError(r));
      setError(null);
      setTitle('');
      setBody('');
      setEntryDate('');
      announce(`Dream diary entry of ${r.entry.entryDate} added for ${agentId}.`);
      await load(null);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel dream-diary" aria-labelledby="dream-diary-h">
      <h2 id="dream-diary-h">Dream diary</h2>
      <p class="hint">Dated notes about an agent for operators: history only, never part of the agent's prompt.</p>
      {agents.length === 0 ? (
        <p>No agent yet: create one on the Agents page.</p>
      ) : (
        <>
          <label for="diary-agent">Agent</label>
          <select id="diary-agent" value={agentId} onChange={(e) => setChosen(e.currentTarget.value)}>
            {agents.map((a) => (
              <option value={a.agentId}>
                {a.name} ({a.agentId})
              </option>
            ))}
          </select>

          <form class="diary-append" onSubmit={(e) => void append(e)}>
            <h3>New entry</h3>
            <label for="diary-date">Day (optional; today in UTC when empty)</label>
            <input id="diary-date" type="date" value={entryDate} onInput={(e) => setEntryDate(e.currentTarget.value)} />
            <label for="diary-title">Title (optional)</label>
            <input id="diary-title" maxLength={240} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
            <label for="diary-body">Entry</label>
            <textarea id="diary-body" required rows={5} maxLength={24000} value={body} onInput={(e) => setBody(e.currentTarget.value)} />
            {error && (
              <p role="alert" class="error">
                {error}
              </p>
            )}
            <button type="submit" disabled={busy}>
              Add entry
            </button>
          </form>

          <h3>Entries, newest first</h3>
          {loadError && (
            <p role="alert" class="error">
              {loadError}
            </p>
          )}
          {entries.length === 0 && !loadError ? (
            <p>No entry yet for {agentId}.</p>
          ) : (
            <ol class="diary-entries">
              {entries.map((entry) => (
                <li data-entry={entry.entryId}>
                  <p class="meta">
                    <time dateTime={entry.entryDate}>{entry.entryDate}</time>
                    {entry.title && ' '}
                    {entry.title && <strong class="diary-title">{entry.title}</strong>} — written {when(entry.createdAt)} by {entry.writtenBy}
                  </p>
                  <p class="diary-body">{entry.body}</p>
                </li>
              ))}
            </ol>
          )}
          {more && (
            <button type="button" class="secondary" onClick={() => void load(cursor)}>
              Show older entries
            </button>
          )}
        </>
      )}
    </section>
  );
}
