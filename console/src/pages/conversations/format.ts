/** What the Conversations page shows of a session and an original, in words. */
import type { ConsoleConversationArchiveFragment, ConsoleConversationOriginalFragment, ConsoleConversationSessionFragment } from '../../graphql/generated';

export type Session = ConsoleConversationSessionFragment;
export type Original = ConsoleConversationOriginalFragment;
export type Archive = ConsoleConversationArchiveFragment;

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "OPERATOR:ops" / "AGENT:hatchet": who did it, as the API's events name principals. */
export const actor = (a: { kind: string; principalId: string } | null) => (a ? `${a.kind}:${a.principalId}` : 'unknown');

/** A session's counts in one line, the same in the list and the detail. */
export const countsOf = (s: Session) =>
  `${plural(s.activeCount, 'message')} in the active history, ${plural(s.originalCount, 'original')} (${s.archivedCount} archived), ${plural(s.archiveGenerations, 'archive generation')}`;

/**
 * The readable text of a payload: its `content` or `text` string when it has one (the common
 * model-API shapes), else the JSON text itself. The originals view always shows the exact text.
 */
export function payloadText(payload: string): string {
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value === 'string') return value;
    if (value && typeof value === 'object') {
      const { content, text } = value as { content?: unknown; text?: unknown };
      if (typeof content === 'string') return content;
      if (typeof text === 'string') return text;
    }
  } catch {
    // Stored byte for byte, but always JSON; fall back to the text itself regardless.
  }
  return payload;
}

/** Where an original lives now: the active history, or the archive generation a reset or compaction moved it to. */
export const placeOf = (o: Original) => (o.archiveGeneration === null ? 'active' : `archived in generation ${o.archiveGeneration}`);

export const spanOf = (a: Archive) =>
  a.firstPosition === null ? 'no originals' : a.firstPosition === a.lastPosition ? `position ${a.firstPosition}` : `positions ${a.firstPosition}–${a.lastPosition}`;
