/**
 * Brains, as the operator workflow describes it: choose the Agent owner first; search; New memory
 * (title, content, one source reference per line); open a memory to edit or delete it; on a
 * revision conflict, Reload memory shows the newer content beside the draft and the retry is
 * deliberate; bulk deletion of selected records or the current page (never the whole archive),
 * each item independent, with per-item results and Reload conflicts. The list shows its totals
 * ("11–20 of 143"), sorts and filters by ownership; an open memory shows its ids, times and
 * revision history (diff, Restore). From 1100 px the list and the editor stand side by side.
 */
import { useEffect, useState } from 'preact/hooks';
import { hashParam } from '../hash-route';
import {
  ConsoleBrainMemoriesDocument,
  ConsoleBrainReadDocument,
  ConsoleDeleteBrainMemoriesDocument,
  type BrainDeletionStatus,
  type BrainMemorySort,
  type BrainOwnershipFilter,
} from '../graphql/generated';
import type { PageProps } from '../page-props';
import '../styles/brains.css';
import { DeletionResults } from './brains/DeletionResults';
import { deletionSentence, ErrorMessage, handledHere, memoryError, local, shownFromThrown, type ShownError } from './brains/errors';
import { draftOf, focusEditor, type DeletionRow, type Editor, type Memory } from './brains/memory';
import { MemoryEditor } from './brains/MemoryEditor';
import { when } from './brains/when';

export const PAGE_SIZE = 10;
const MIN_QUERY = 3;

export function BrainsPage({ api, agents, announce }: PageProps) {
  // Opened from an agent's page (#/brains?agent=…): that owner is chosen.
  const [agentId, setAgentId] = useState(() => hashParam('agent') ?? '');
  const [query, setQuery] = useState('');
  const [activeQuery, setActiveQuery] = useState<string | null>(null);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [memories, setMemories] = useState<Memory[]>([]);
  const [hasNext, setHasNext] = useState(false);
  const [endCursor, setEndCursor] = useState<string | null>(null);
  const [selected, setSelected] = useState<Map<string, number>>(new Map());
  const [confirming, setConfirming] = useState(false);
  const [results, setResults] = useState<DeletionRow[] | null>(null);
  const [editor, setEditor] = useState<Editor | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [busy, setBusy] = useState(false);
  const [sort, setSort] = useState<BrainMemorySort>('UPDATED_AT_DESC');
  const [ownership, setOwnership] = useState<BrainOwnershipFilter | ''>('');
  const [total, setTotal] = useState<number | null>(null);

  async function load(owner: string, q: string | null, after: string | null, stack: (string | null)[], order = sort, owned = ownership) {
    setBusy(true);
    setError(null);
    try {
      const data = await api.request(ConsoleBrainMemoriesDocument, { agentId: owner, query: q, sort: order, ownership: owned || null, first: PAGE_SIZE, after });
      const page = data.brainMemories.edges.map((e) => e.node);
      setMemories(page);
      setTotal(data.brainMemories.totalCount);
      setHasNext(data.brainMemories.pageInfo.hasNextPage);
      setEndCursor(data.brainMemories.pageInfo.endCursor ?? null);
      setCursors(stack);
      announce(
        `${page.length} ${page.length === 1 ? 'memory' : 'memories'} on page ${stack.length}${q ? ` matching “${q}”` : ''}${data.brainMemories.pageInfo.hasNextPage ? '; more on the next page' : ''}.`,
      );
    } catch (e) {
      setError(shownFromThrown(e));
    } finally {
      setBusy(false);
    }
  }

  /** A new order or filter starts again at the first page (a cursor belongs to one order and filter). */
  const reorder = (order: BrainMemorySort, owned: BrainOwnershipFilter | '') => {
    setSort(order);
    setOwnership(owned);
    setSelected(new Map());
    setResults(null);
    void load(agentId, activeQuery, null, [null], order, owned);
  };

  useEffect(() => {
    setSelected(new Map());
    setResults(null);
    setEditor(null);
    setConfirming(false);
    setMemories([]);
    setActiveQuery(null);
    setQuery('');
    if (agentId) void load(agentId, null, null, [null]);
  }, [agentId]);

  const search = (e: Event) => {
    e.preventDefault();
    const q = query.trim();
    if (q && q.length < MIN_QUERY) return setError(local(`Search needs at least ${MIN_QUERY} characters (or none, for the newest memories).`));
    setActiveQuery(q || null);
    setSelected(new Map());
    setResults(null);
    void load(agentId, q || null, null, [null]);
  };
  const reloadPage = () => load(agentId, activeQuery, cursors[cursors.length - 1], cursors);

  const toggle = (m: Memory, on: boolean) => {
    const next = new Map(selected);
    if (on) next.set(m.id, m.revision);
    else next.delete(m.id);
    setSelected(next);
    setConfirming(false);
  };
  const selectPage = () => {
    const next = new Map(selected);
    for (const m of memories) next.set(m.id, m.revision);
    setSelected(next);
    announce(`Selected the ${memories.length} memories on this page (not the whole archive). ${next.size} selected.`);
  };

  async function deleteSelected() {
    setConfirming(false);
    setBusy(true);
    const items = [...selected].map(([id, expectedRevision]) => ({ memoryId: id, expectedRevision }));
    const titles = new Map(memories.map((m) => [m.id, m.title]));
    try {
      const data = await api.request(ConsoleDeleteBrainMemoriesDocument, { agentId, items });
      const result = data.brainRemoveMany;
      if (result.__typename !== 'BrainRemoveManySuccess') return setError(memoryError({ code: result.code }));
      // The API's per-item message is developer text; the row says it in words (see deletionSentence).
      const rows = result.results.map((r) => ({
        id: r.id,
        title: titles.get(r.id) ?? r.id,
        status: r.status,
        message: deletionSentence(r.status, r.currentRevision ?? null, selected.get(r.id) ?? null),
        currentRevision: r.currentRevision ?? null,
      }));
      setResults(rows);
      const done = new Set(rows.filter((r) => r.status === 'DELETED' || r.status === 'NOT_FOUND').map((r) => r.id));
      setMemories(memories.filter((m) => !done.has(m.id)));
      setTotal((t) => (t === null ? t : t - rows.filter((r) => r.status === 'DELETED').length));
      setSelected(new Map([...selected].filter(([id]) => !done.has(id))));
      const count = (s: BrainDeletionStatus) => rows.filter((r) => r.status === s).length;
      announce(
        `Deletion results: ${count('DELETED')} deleted, ${count('REVISION_CONFLICT')} revision conflicts, ${count('NOT_FOUND')} not found, ${count('FORBIDDEN')} forbidden.`,
      );
    } catch (e) {
      setError(shownFromThrown(e));
    } finally {
      setBusy(false);
    }
  }

  /** Reads each conflicting memory again: the list shows its newer content, and its selection now names the current revision. */
  async function reloadConflicts() {
    if (!results) return;
    const conflicts = results.filter((r) => r.status === 'REVISION_CONFLICT');
    const fresh = await Promise.all(conflicts.map((r) => api.request(ConsoleBrainReadDocument, { agentId, id: r.id }).then((d) => d.brainRead)));
    const byId = new Map(fresh.filter((m): m is Memory => m !== null).map((m) => [m.id, m]));
    setMemories(memories.map((m) => byId.get(m.id) ?? m).filter((m) => !conflicts.some((c) => c.id === m.id) || byId.has(m.id)));
    const next = new Map(selected);
    for (const c of conflicts) {
      const m = byId.get(c.id);
      if (m) next.set(m.id, m.revision);
      else next.delete(c.id);
    }
    setSelected(next);
    setResults(
      results.map((r) =>
        byId.has(r.id) && r.status === 'REVISION_CONFLICT'
          ? { ...r, message: `Reloaded: now revision ${byId.get(r.id)!.revision}, “${byId.get(r.id)!.title}”. Review it; it stays selected for a deliberate retry.` }
          : r,
      ),
    );
    announce(`Reloaded ${byId.size} conflicting ${byId.size === 1 ? 'memory' : 'memories'}; review them before deleting again.`);
  }

  async function open(id: string) {
    setError(null);
    const data = await api.request(ConsoleBrainReadDocument, { agentId, id });
    if (!data.brainRead) return setError(memoryError({ code: 'NOT_FOUND' }));
    setEditor({ mode: 'edit', memory: data.brainRead, draft: draftOf(data.brainRead), expectedRevision: data.brainRead.revision, conflict: null, newer: null });
    focusEditor();
  }

  const ownerChosen = agentId !== '';

  return (
    <div class="brains">
      <div class={editor ? 'brains-work with-editor' : 'brains-work'}>
        <div class="brains-list">
          <div class="panel owner-panel">
            <label for="owner">Agent owner</label>
            <select id="owner" value={agentId} onChange={(e) => setAgentId(e.currentTarget.value)}>
              <option value="">Choose the agent owner…</option>
              {agents.map((a) => (
                <option value={a.agentId}>
                  {a.name} ({a.agentId})
                </option>
              ))}
            </select>
            {!ownerChosen && <p class="hint">Choose the agent owner before searching or writing: every memory belongs to exactly one agent.</p>}
          </div>
          {ownerChosen && (
            <>
              <section aria-labelledby="search-h" class="panel">
                <h2 id="search-h">Search memories of {agentId}</h2>
                <form onSubmit={search} class="row">
                  <label for="brain-query">Search title and content</label>
                  <input id="brain-query" type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} aria-describedby="brain-query-hint" />
                  <button type="submit" disabled={busy}>
                    Search
                  </button>
                  <button type="button" class="secondary" onClick={() => (setEditor({ mode: 'new', draft: { title: '', content: '', sources: '' } }), focusEditor())}>
                    New memory
                  </button>
                </form>
                <p id="brain-query-hint" class="hint">
                  Case-insensitive substring, at least {MIN_QUERY} characters; empty lists the newest. Search before writing a new memory.
                </p>
                <div class="row list-controls">
                  <label for="brain-sort">Sort</label>
                  <select id="brain-sort" value={sort} disabled={busy} onChange={(e) => reorder(e.currentTarget.value as BrainMemorySort, ownership)}>
                    <option value="UPDATED_AT_DESC">Recently updated</option>
                    <option value="CREATED_AT_DESC">Newest created</option>
                    <option value="TITLE_ASC">Title A–Z</option>
                  </select>
                  <label for="brain-ownership">Owned by</label>
                  <select id="brain-ownership" value={ownership} disabled={busy} onChange={(e) => reorder(sort, e.currentTarget.value as BrainOwnershipFilter | '')}>
                    <option value="">Anyone</option>
                    <option value="OPERATOR">Operators</option>
                    <option value="AGENT">The agent</option>
                  </select>
                </div>
                <ErrorMessage error={error} />

                <div class="row toolbar">
                  {/* Not while a page loads: it would select the memories about to be replaced. */}
                  <button type="button" class="secondary" onClick={selectPage} disabled={memories.length === 0 || busy}>
                    Select page
                  </button>
                  <button type="button" class="secondary" onClick={() => setSelected(new Map())} disabled={selected.size === 0}>
                    Clear selection
                  </button>
                  <button type="button" class="danger" onClick={() => setConfirming(true)} disabled={selected.size === 0 || busy}>
                    Delete selected memories ({selected.size})
                  </button>
                </div>
                <p class="hint">Select page selects only the memories shown on this page, never the whole archive. Each deletion is independent, not atomic.</p>
                {confirming && (
                  <div class="confirm" role="group" aria-labelledby="confirm-h">
                    <p id="confirm-h">
                      Delete {selected.size} selected {selected.size === 1 ? 'memory' : 'memories'}? Each is removed on its own; a memory changed by another writer since you read
                      it is not deleted.
                    </p>
                    <button type="button" class="danger" onClick={handledHere(deleteSelected, (e) => setError(e))}>
                      Confirm delete
                    </button>
                    <button type="button" class="secondary" onClick={() => setConfirming(false)}>
                      Cancel
                    </button>
                  </div>
                )}

                <ul class="memories" aria-label={`Memories, page ${cursors.length}`}>
                  {memories.map((m) => (
                    <li key={m.id} class={editor?.mode === 'edit' && editor.memory.id === m.id ? 'current' : undefined}>
                      <input
                        type="checkbox"
                        id={`sel-${m.id}`}
                        checked={selected.has(m.id)}
                        onChange={(e) => toggle(m, e.currentTarget.checked)}
                        aria-label={`Select ${m.title}`}
                      />
                      <div>
                        <button type="button" class="link" onClick={handledHere(() => open(m.id), setError)}>
                          {m.title}
                        </button>
                        <p class="snippet">{m.content.slice(0, 160)}</p>
                        <p class="meta">
                          revision {m.revision} · {m.ownership === 'OPERATOR' ? 'operator-owned' : 'agent-owned'} · updated <time dateTime={m.updatedAt}>{when(m.updatedAt)}</time>{' '}
                          · created <time dateTime={m.createdAt}>{when(m.createdAt)}</time> · id <code>{m.id}</code>
                          {m.labels.map((l) => (
                            <span class="label">{l}</span>
                          ))}
                        </p>
                      </div>
                    </li>
                  ))}
                </ul>
                {memories.length === 0 && !busy && <p>No memories{activeQuery ? ` match “${activeQuery}”` : ''}.</p>}
                <nav class="row" aria-label="Pages">
                  <button
                    type="button"
                    class="secondary"
                    disabled={cursors.length < 2 || busy}
                    onClick={handledHere(() => load(agentId, activeQuery, cursors[cursors.length - 2], cursors.slice(0, -1)), setError)}
                  >
                    Previous page
                  </button>
                  <span class="totals" aria-live="off">
                    {total === null || memories.length === 0
                      ? `Page ${cursors.length}`
                      : `${(cursors.length - 1) * PAGE_SIZE + 1}–${(cursors.length - 1) * PAGE_SIZE + memories.length} of ${total}`}
                  </span>
                  <button
                    type="button"
                    class="secondary"
                    disabled={!hasNext || busy}
                    onClick={handledHere(() => load(agentId, activeQuery, endCursor, [...cursors, endCursor]), setError)}
                  >
                    Next page
                  </button>
                </nav>
              </section>

              {results && <DeletionResults results={results} onReloadConflicts={handledHere(reloadConflicts, setError)} />}
            </>
          )}
        </div>

        {ownerChosen && editor && (
          <div class="brains-editor">
            <MemoryEditor
              api={api}
              agentId={agentId}
              editor={editor}
              setEditor={setEditor}
              busy={busy}
              setBusy={setBusy}
              setError={setError}
              announce={announce}
              reloadPage={reloadPage}
            />
          </div>
        )}
      </div>
    </div>
  );
}
