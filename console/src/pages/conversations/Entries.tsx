/**
 * A session's entries two ways. The active history (conversationHistory) is what a runtime
 * continues from: each compaction summary stands where the span it replaced was, marked as a
 * summary, and can show the originals it stands for (conversationOriginals(generation)) in
 * place. The originals (conversationOriginals) are the evidence: every entry ever appended, in
 * position order, active or archived, with its exact JSON text.
 */
import { useState } from 'preact/hooks';
import type { Api } from '../../api';
import { ConsoleConversationHistoryDocument, ConsoleConversationOriginalsDocument } from '../../graphql/generated';
import { when } from '../operations/format';
import { payloadText, placeOf, plural, spanOf, type Archive, type Original } from './format';
import { usePaged } from './paged';

interface Props {
  api: Api;
  agentId: string;
  sessionId: string;
  /** Changes after a write, so the lists are read again. */
  version: number;
}

const originalsOf = (api: Api, agentId: string, sessionId: string, generation: number | null) => (after: string | null) =>
  api.request(ConsoleConversationOriginalsDocument, { agentId, sessionId, generation, after }).then((d) => d.conversationOriginals);

function MoreButton({ more, label, onMore }: { more: boolean; label: string; onMore: () => Promise<void> }) {
  return more ? (
    <button type="button" class="secondary" onClick={() => void onMore()}>
      {label}
    </button>
  ) : null;
}

function Failure({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" class="error">
      {error}
    </p>
  ) : null;
}

/** The head of one entry: its position, role and time. */
function EntryHead({ entry }: { entry: Original }) {
  return (
    <p class="meta entry-head">
      <span class="entry-position">#{entry.position}</span> {entry.role ?? 'no role'} · <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time>
    </p>
  );
}

/** The originals a summary stands for, read when asked for and shown under it. */
function Replaced({ api, agentId, sessionId, generation }: { api: Api; agentId: string; sessionId: string; generation: number }) {
  const list = usePaged(`${agentId}/${sessionId}/${generation}`, originalsOf(api, agentId, sessionId, generation));
  return (
    <div class="replaced">
      <Failure error={list.error} />
      {list.items && (
        <ol class="entries" aria-label={`Originals of generation ${generation}`}>
          {list.items.map((o) => (
            <li data-position={o.position}>
              <EntryHead entry={o} />
              <p class="entry-text">{payloadText(o.payload)}</p>
            </li>
          ))}
        </ol>
      )}
      <MoreButton more={list.more} label="Show more replaced originals" onMore={list.loadMore} />
    </div>
  );
}

function SummaryEntry({ api, agentId, sessionId, entry, archive }: { api: Api; agentId: string; sessionId: string; entry: Original; archive: Archive | undefined }) {
  const [open, setOpen] = useState(false);
  const generation = entry.summarizesGeneration!;
  const id = `replaced-${entry.entryId}`;
  return (
    <li class="summary" data-position={entry.position}>
      <p class="summary-label">
        Compaction summary of generation {generation}
        {archive && ` (${spanOf(archive)}, ${plural(archive.entryCount, 'original')})`}
      </p>
      <EntryHead entry={entry} />
      <p class="entry-text">{payloadText(entry.payload)}</p>
      <button type="button" class="secondary" aria-expanded={open} aria-controls={open ? id : undefined} onClick={() => setOpen(!open)}>
        {open ? 'Hide' : 'Show'} the originals it replaced
      </button>
      {open && (
        <div id={id}>
          <Replaced api={api} agentId={agentId} sessionId={sessionId} generation={generation} />
        </div>
      )}
    </li>
  );
}

export function HistoryList({ api, agentId, sessionId, version, archives }: Props & { archives: Archive[] }) {
  const list = usePaged(`${agentId}/${sessionId}/${version}`, (after) =>
    api.request(ConsoleConversationHistoryDocument, { agentId, sessionId, after }).then((d) => d.conversationHistory),
  );
  const byGeneration = new Map(archives.map((a) => [a.generation, a]));
  return (
    <>
      <Failure error={list.error} />
      {list.items?.length === 0 && <p class="hint">The active history is empty (a reset moves every entry into an archive generation).</p>}
      {list.items && list.items.length > 0 && (
        <ol class="entries history-entries" aria-label="Active history">
          {list.items.map((entry) =>
            entry.summarizesGeneration !== null ? (
              <SummaryEntry api={api} agentId={agentId} sessionId={sessionId} entry={entry} archive={byGeneration.get(entry.summarizesGeneration)} />
            ) : (
              <li data-position={entry.position}>
                <EntryHead entry={entry} />
                <p class="entry-text">{payloadText(entry.payload)}</p>
              </li>
            ),
          )}
        </ol>
      )}
      <MoreButton more={list.more} label="Show more of the history" onMore={list.loadMore} />
    </>
  );
}

export function OriginalsList({ api, agentId, sessionId, version }: Props) {
  const list = usePaged(`${agentId}/${sessionId}/${version}`, originalsOf(api, agentId, sessionId, null));
  return (
    <>
      <Failure error={list.error} />
      {list.items?.length === 0 && <p class="hint">No originals.</p>}
      {list.items && list.items.length > 0 && (
        <ol class="entries original-entries" aria-label="Originals">
          {list.items.map((o) => (
            <li data-position={o.position} class={o.archiveGeneration === null ? undefined : 'archived'}>
              <EntryHead entry={o} />
              <p class="meta">
                <span data-place>{placeOf(o)}</span>
                {o.summarizesGeneration !== null && `, the summary of generation ${o.summarizesGeneration}`} · <code>{o.reference}</code>
              </p>
              <pre class="payload">{o.payload}</pre>
            </li>
          ))}
        </ol>
      )}
      <MoreButton more={list.more} label="Show more originals" onMore={list.loadMore} />
    </>
  );
}
