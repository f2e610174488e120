/**
 * Search every session of the agent, archived sessions and archived originals included
 * (conversationSearch: a case-insensitive substring of the stored JSON text), newest first; each
 * hit names its session and position and opens that session.
 */
import { useState } from 'preact/hooks';
import type { Api } from '../../api';
import { ConsoleConversationSearchDocument } from '../../graphql/generated';
import { when } from '../operations/format';
import { payloadText, placeOf } from './format';
import { usePaged } from './paged';

const MIN_QUERY = 3;

interface Props {
  api: Api;
  agentId: string;
  announce: (message: string) => void;
  onOpen: (sessionId: string) => void;
}

export function Search({ api, agentId, announce, onOpen }: Props) {
  const [text, setText] = useState('');
  // The query searched, with a counter so the same words searched again read again.
  const [asked, setAsked] = useState<{ query: string; n: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const hits = usePaged(asked ? `${agentId}/${asked.n}` : null, async (after) => {
    const page = (await api.request(ConsoleConversationSearchDocument, { agentId, query: asked!.query, after })).conversationSearch;
    if (!after) announce(`${page.edges.length} ${page.edges.length === 1 ? 'hit' : 'hits'} for “${asked!.query}”${page.pageInfo.hasNextPage ? '; more below' : ''}.`);
    return page;
  });

  const search = (e: Event) => {
    e.preventDefault();
    const query = text.trim();
    if (query.length < MIN_QUERY) return setProblem(`Search needs at least ${MIN_QUERY} characters.`);
    setProblem(null);
    setAsked({ query, n: (asked?.n ?? 0) + 1 });
  };

  return (
    <section class="panel conversation-search" aria-labelledby="conversation-search-h">
      <h2 id="conversation-search-h">Search every session of {agentId}</h2>
      <form class="row" onSubmit={search}>
        <label for="conversation-query">Search text (at least {MIN_QUERY} characters)</label>
        <input id="conversation-query" type="search" value={text} maxLength={200} onInput={(e) => setText(e.currentTarget.value)} />
        <button type="submit">Search</button>
      </form>
      <p class="hint">Matches the stored JSON text of every original, archived ones and archived sessions included.</p>
      {(problem ?? hits.error) && (
        <p role="alert" class="error">
          {problem ?? hits.error}
        </p>
      )}
      {asked && hits.items?.length === 0 && <p class="hint">Nothing matches “{asked.query}”.</p>}
      {hits.items && hits.items.length > 0 && (
        <ol class="entries search-hits" aria-label={`Hits for ${asked!.query}`}>
          {hits.items.map((o) => (
            <li data-hit={`${o.sessionId}/${o.position}`}>
              <p class="meta">
                <button type="button" class="link" onClick={() => onOpen(o.sessionId)}>
                  Open session {o.sessionId}
                </button>{' '}
                #{o.position} · {o.role ?? 'no role'} · {placeOf(o)} · <time dateTime={o.createdAt}>{when(o.createdAt)}</time>
              </p>
              <p class="entry-text">{payloadText(o.payload)}</p>
            </li>
          ))}
        </ol>
      )}
      {hits.more && (
        <button type="button" class="secondary" onClick={() => void hits.loadMore()}>
          Show more hits
        </button>
      )}
    </section>
  );
}
