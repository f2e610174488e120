/**
 * The memory editor: a new memory, or an open one to save or delete. On a revision conflict,
 * Reload memory shows the newer content beside the draft, and the retry is deliberate.
 */
import { useState } from 'preact/hooks';
import type { Api } from '../../api';
import { ConsoleBrainReadDocument, ConsoleBrainRemoveDocument, ConsoleBrainSaveDocument, ConsoleBrainUpdateDocument } from '../../graphql/generated';
import { ConfirmDialog } from './ConfirmDialog';
import { handledHere, memoryError, shownFromThrown, type ShownError } from './errors';
import { History } from './History';
import { LegacyDetails } from './LegacyDetails';
import { when } from './when';
import { draftOf, sourcesOf, type Draft, type Editor } from './memory';

export interface MemoryEditorProps {
  api: Api;
  agentId: string;
  editor: Editor;
  setEditor: (editor: Editor | null) => void;
  busy: boolean;
  setBusy: (busy: boolean) => void;
  setError: (error: ShownError | null) => void;
  announce: (message: string) => void;
  /** After a save or a deletion: the list shows the current page again. */
  reloadPage: () => Promise<void>;
}

export function MemoryEditor({ api, agentId, editor, setEditor, busy, setBusy, setError, announce, reloadPage }: MemoryEditorProps) {
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  async function save() {
    setBusy(true);
    setError(null);
    const { draft } = editor;
    try {
      if (editor.mode === 'new') {
        const data = await api.request(ConsoleBrainSaveDocument, { input: { agentId, title: draft.title, content: draft.content, sourceRefs: sourcesOf(draft.sources) } });
        const r = data.brainSave;
        if (r.__typename !== 'BrainSaveSuccess') return setError(memoryError({ code: r.code }));
        setEditor({ mode: 'edit', memory: r.memory, draft: draftOf(r.memory), expectedRevision: r.memory.revision, conflict: null, newer: null });
        announce(`Saved “${r.memory.title}” (revision ${r.memory.revision}, operator-owned).`);
      } else {
        const data = await api.request(ConsoleBrainUpdateDocument, {
          input: {
            agentId,
            memoryId: editor.memory.id,
            expectedRevision: editor.expectedRevision,
            title: draft.title,
            content: draft.content,
            sourceRefs: sourcesOf(draft.sources),
          },
        });
        const r = data.brainUpdate;
        if (r.__typename === 'RevisionConflict') {
          setEditor({ ...editor, conflict: { currentRevision: r.currentRevision, action: 'save' }, newer: null });
          return announce(`Not saved: another writer changed this memory to revision ${r.currentRevision}. Select Reload memory.`);
        }
        if (r.__typename !== 'BrainUpdateSuccess') return setError(memoryError({ code: r.code }));
        setEditor({ mode: 'edit', memory: r.memory, draft: draftOf(r.memory), expectedRevision: r.memory.revision, conflict: null, newer: null });
        announce(`Saved “${r.memory.title}” (revision ${r.memory.revision}).`);
      }
      await reloadPage();
    } catch (e) {
      setError(shownFromThrown(e));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    if (editor.mode !== 'edit') return;
    setConfirmingDelete(false);
    setBusy(true);
    try {
      const data = await api.request(ConsoleBrainRemoveDocument, { input: { agentId, memoryId: editor.memory.id, expectedRevision: editor.expectedRevision } });
      const r = data.brainRemove;
      if (r.__typename === 'RevisionConflict') {
        setEditor({ ...editor, conflict: { currentRevision: r.currentRevision, action: 'delete' }, newer: null });
        return announce(`Not deleted: another writer changed this memory to revision ${r.currentRevision}. Select Reload memory.`);
      }
      if (r.__typename !== 'BrainRemoveSuccess') return setError(memoryError({ code: r.code }));
      setEditor(null);
      // The editor and its Delete button are gone: keyboard users continue from the search field.
      requestAnimationFrame(() => document.getElementById('brain-query')?.focus());
      await reloadPage();
      announce(`Deleted “${editor.memory.title}”.`);
    } catch (e) {
      setError(shownFromThrown(e));
    } finally {
      setBusy(false);
    }
  }

  /** Keeps the draft, shows the newer content beside it, and makes the next save expect the newer revision. */
  async function reloadMemory() {
    if (editor.mode !== 'edit') return;
    const data = await api.request(ConsoleBrainReadDocument, { agentId, id: editor.memory.id });
    if (!data.brainRead) {
      setEditor(null);
      return setError(memoryError({ code: 'NOT_FOUND' }));
    }
    setEditor({ ...editor, memory: data.brainRead, expectedRevision: data.brainRead.revision, conflict: null, newer: data.brainRead });
    announce(`Reloaded revision ${data.brainRead.revision}. Compare it with your draft, then save or delete again deliberately.`);
  }

  const setDraft = (patch: Partial<Draft>) => setEditor({ ...editor, draft: { ...editor.draft, ...patch } } as Editor);

  return (
    <section aria-labelledby="editor-h" class="panel editor">
      <h2 id="editor-h">{editor.mode === 'new' ? 'New memory' : `Memory: ${editor.memory.title}`}</h2>
      {editor.mode === 'edit' && (
        <>
          <p class="meta">
            Revision {editor.memory.revision} ·{' '}
            {editor.memory.ownership === 'OPERATOR' ? 'operator-owned: agents cannot update or remove it' : 'agent-owned: saving here makes it operator-owned'}
          </p>
          <dl class="facts">
            <dt>Id</dt>
            <dd>
              <code>{editor.memory.id}</code>
            </dd>
            <dt>Created</dt>
            <dd>
              <time dateTime={editor.memory.createdAt}>{when(editor.memory.createdAt)}</time> by {editor.memory.createdBy.kind.toLowerCase()} {editor.memory.createdBy.principalId}
            </dd>
            <dt>Updated</dt>
            <dd>
              <time dateTime={editor.memory.updatedAt}>{when(editor.memory.updatedAt)}</time> by {editor.memory.updatedBy.kind.toLowerCase()} {editor.memory.updatedBy.principalId}
            </dd>
          </dl>
        </>
      )}
      {editor.mode === 'edit' && editor.conflict && (
        <div role="alert" class="conflict">
          <p>
            Another writer changed this memory: you read revision {editor.expectedRevision}, it is now revision {editor.conflict.currentRevision}. Nothing was{' '}
            {editor.conflict.action === 'save' ? 'saved' : editor.conflict.action === 'restore' ? 'restored' : 'deleted'}; a stale revision never overwrites newer work.{' '}
            <small class="error-code">Code: REVISION_CONFLICT</small>
          </p>
          <button type="button" onClick={handledHere(reloadMemory, setError)}>
            Reload memory
          </button>
        </div>
      )}
      <div class={editor.mode === 'edit' && editor.newer ? 'compare' : undefined}>
        <form
          aria-label={editor.mode === 'edit' && editor.newer ? 'Your draft' : 'Memory'}
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          {editor.mode === 'edit' && editor.newer && <h3>Your draft</h3>}
          <label for="mem-title">Title</label>
          <input id="mem-title" value={editor.draft.title} onInput={(e) => setDraft({ title: e.currentTarget.value })} required maxLength={240} />
          <label for="mem-content">Content</label>
          <textarea id="mem-content" rows={8} value={editor.draft.content} onInput={(e) => setDraft({ content: e.currentTarget.value })} required />
          <label for="mem-sources">Source references (optional, one per line)</label>
          <textarea id="mem-sources" rows={3} value={editor.draft.sources} onInput={(e) => setDraft({ sources: e.currentTarget.value })} />
          <div class="row">
            <button type="submit" disabled={busy}>
              {editor.mode === 'new' ? 'Save memory' : 'Save changes'}
            </button>
            {editor.mode === 'edit' && (
              <button type="button" class="danger" onClick={() => setConfirmingDelete(true)} disabled={busy}>
                Delete memory
              </button>
            )}
            <button type="button" class="secondary" onClick={() => setEditor(null)}>
              Close
            </button>
          </div>
          {editor.mode === 'edit' && confirmingDelete && (
            <ConfirmDialog
              title={`Delete “${editor.memory.title}”?`}
              body={`Revision ${editor.expectedRevision} is removed from the agent's memories; its revisions stay in the history. If another writer changed it since you read it, nothing is deleted.`}
              confirmLabel="Confirm delete"
              onConfirm={handledHere(remove, setError)}
              onCancel={() => (setConfirmingDelete(false), announce('Not deleted.'))}
            />
          )}
        </form>
        {editor.mode === 'edit' && editor.newer && (
          <section aria-labelledby="newer-h" class="newer">
            <h3 id="newer-h">Current revision {editor.newer.revision}</h3>
            <p class="meta">
              written by {editor.newer.updatedBy.kind.toLowerCase()} {editor.newer.updatedBy.principalId} at {editor.newer.updatedAt}
            </p>
            <dl>
              <dt>Title</dt>
              <dd>{editor.newer.title}</dd>
              <dt>Content</dt>
              <dd class="pre">{editor.newer.content}</dd>
              <dt>Source references</dt>
              <dd>{editor.newer.sourceRefs.length ? editor.newer.sourceRefs.join('\n') : 'none'}</dd>
            </dl>
            <button type="button" class="secondary" onClick={() => setEditor({ ...editor, draft: draftOf(editor.newer!), newer: null })}>
              Use this version
            </button>
          </section>
        )}
      </div>
      {editor.mode === 'edit' && (
        <History
          api={api}
          agentId={agentId}
          memory={editor.memory}
          expectedRevision={editor.expectedRevision}
          busy={busy}
          setError={setError}
          announce={announce}
          onConflict={(currentRevision) => setEditor({ ...editor, conflict: { currentRevision, action: 'restore' }, newer: null })}
          onRestored={async (memory) => {
            setEditor({ mode: 'edit', memory, draft: draftOf(memory), expectedRevision: memory.revision, conflict: null, newer: null });
            await reloadPage();
          }}
        />
      )}
      {editor.mode === 'edit' && editor.memory.legacyMigration && <LegacyDetails memory={editor.memory} />}
    </section>
  );
}
