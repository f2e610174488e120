/** The Brains page's shared shapes: a memory, the editor's draft and state, a bulk-deletion result row. */
import type { BrainDeletionStatus, ConsoleMemoryFragment } from '../../graphql/generated';

export type Memory = ConsoleMemoryFragment;
export interface Draft {
  title: string;
  content: string;
  sources: string;
}
export type Editor =
  | { mode: 'new'; draft: Draft }
  | {
      mode: 'edit';
      memory: Memory;
      draft: Draft;
      expectedRevision: number;
      conflict: { currentRevision: number; action: 'save' | 'delete' | 'restore' } | null;
      newer: Memory | null;
    };
export interface DeletionRow {
  id: string;
  title: string;
  status: BrainDeletionStatus;
  message: string;
  currentRevision: number | null;
}

/** Keyboard users land in the form they just opened (beside the list on a wide screen, below it on a narrow one). */
export const focusEditor = () => requestAnimationFrame(() => document.getElementById('mem-title')?.focus());
export const draftOf = (m: Memory): Draft => ({ title: m.title, content: m.content, sources: m.sourceRefs.join('\n') });
export const sourcesOf = (text: string) =>
  text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
