/**
 * The revision history of the open memory: every revision newest first (who, when, what), the
 * chosen one's line diff against the current revision, and Restore. A restore is an ordinary
 * revision-checked update with the old title, content and source references: it expects the
 * revision the operator read, so a memory another writer changed meanwhile is not overwritten
 * (the editor shows its usual conflict panel).
 */
import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../../api';
import { diffLines } from '../../diff';
import { ConsoleBrainRevisionsDocument, ConsoleBrainUpdateDocument, type ConsoleBrainRevisionsQuery } from '../../graphql/generated';
import { handledHere, memoryError, shownFromThrown, type ShownError } from './errors';
import type { Memory } from './memory';
import { when } from './when';

type Revision = NonNullable<ConsoleBrainRevisionsQuery['brainRead']>['revisions'][number];

export interface HistoryProps {
  api: Api;
  agentId: string;
  memory: Memory;
  /** The revision the editor read: a restore expects it. */
  expectedRevision: number;
  busy: boolean;
  setError: (error: ShownError | null) => void;
  announce: (message: string) => void;
  onRestored: (memory: Memory) => Promise<void>;
  onConflict: (currentRevision: number) => void;
}

export function History({ api, agentId, memory, expectedRevision, busy, setError, announce, onRestored, onConflict }: HistoryProps) {
  const [revisions, setRevisions] = useState<Revision[] | null>(null);
  const [chosen, setChosen] = useState<number | null>(null);

  useEffect(() => {
    let live = true;
    setRevisions(null);
    void api
      .request(ConsoleBrainRevisionsDocument, { agentId, id: memory.id })
      .then((d) => {
        if (!live) return;
        const list = d.brainRead?.revisions ?? [];
        setRevisions(list);
        // The previous revision is what an operator most often compares with.
        setChosen(list.find((r) => r.revision < memory.revision)?.revision ?? memory.revision);
      })
      .catch((e: unknown) => live && setError(shownFromThrown(e)));
    return () => {
      live = false;
    };
  }, [memory.id, memory.revision]);

  const picked = revisions?.find((r) => r.revision === chosen) ?? null;

  async function restore(r: Revision) {
    setError(null);
    const data = await api.request(ConsoleBrainUpdateDocument, {
      input: { agentId, memoryId: memory.id, expectedRevision, title: r.title, content: r.content, sourceRefs: r.sourceRefs },
    });
    const result = data.brainUpdate;
    if (result.__typename === 'RevisionConflict') {
      onConflict(result.currentRevision);
      return announce(`Not restored: another writer changed this memory to revision ${result.currentRevision}.`);
    }
    if (result.__typename !== 'BrainUpdateSuccess') return setError(memoryError({ code: result.code }));
    // After the list reloads, which announces its page: this is the news.
    await onRestored(result.memory);
    announce(`Restored revision ${r.revision} as revision ${result.memory.revision}.`);
  }

  return (
    <section aria-labelledby="history-h" class="history">
      <h3 id="history-h">Revision history</h3>
      {revisions === null ? (
        <p class="hint">Loading revisions…</p>
      ) : (
        <>
          <ol class="revision-list" aria-label={`${revisions.length} revisions, newest first`}>
            {revisions.map((r) => (
              <li key={r.revision}>
                <button type="button" class="link" aria-pressed={r.revision === chosen} onClick={() => setChosen(r.revision)}>
                  Revision {r.revision}
                </button>{' '}
                <span class="meta">
                  {r.action.toLowerCase()} by {r.actor.kind.toLowerCase()} {r.actor.principalId}, <time dateTime={r.createdAt}>{when(r.createdAt)}</time>
                  {r.revision === memory.revision ? ' · current' : ''}
                </span>
              </li>
            ))}
          </ol>
          {picked && picked.revision !== memory.revision && (
            <div class="revision-diff">
              <p class="hint">
                What restoring revision {picked.revision} would change in the current revision {memory.revision} (− current, + revision {picked.revision}):
              </p>
              {picked.title !== memory.title && (
                <p class="diff" aria-label="Title change">
                  <del>- {memory.title}</del>
                  <ins>+ {picked.title}</ins>
                </p>
              )}
              <div class="diff" role="region" aria-label={`What restoring revision ${picked.revision} would change`}>
                {diffLines(memory.content, picked.content).map((line) =>
                  line.kind === 'added' ? <ins>+ {line.text}</ins> : line.kind === 'removed' ? <del>- {line.text}</del> : <span> {line.text}</span>,
                )}
              </div>
              <button type="button" disabled={busy} onClick={handledHere(() => restore(picked), setError)}>
                Restore revision {picked.revision}
              </button>
            </div>
          )}
          {picked && picked.revision === memory.revision && <p class="hint">Revision {picked.revision} is the current one. Choose an older revision to compare or restore it.</p>}
        </>
      )}
    </section>
  );
}
