/**
 * Compact a span of the active history into a summary (compactConversation), after a
 * confirmation. The operator writes the summary as text; it is stored as the JSON payload
 * {"content": text}, the shape the history shows as text. The replaced originals move into a new
 * archive generation: nothing is erased.
 */
import { useState } from 'preact/hooks';
import { describeError, type Api } from '../../api';
import { ConsoleCompactConversationDocument } from '../../graphql/generated';
import { humanError } from '../../human-error';
import { ConfirmDialog } from '../tokens/ConfirmDialog';
import { plural, spanOf } from './format';

interface Props {
  api: Api;
  agentId: string;
  sessionId: string;
  onDone: (message: string) => void;
}

export function CompactForm({ api, agentId, sessionId, onDone }: Props) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [summary, setSummary] = useState('');
  const [role, setRole] = useState('system');
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const compact = async () => {
    setBusy(true);
    try {
      const input = { agentId, sessionId, fromPosition: Number(from), toPosition: Number(to), summary: JSON.stringify({ content: summary }), role: role.trim() || null };
      const r = (await api.request(ConsoleCompactConversationDocument, { input })).compactConversation;
      if (r.__typename !== 'CompactConversationSuccess') return setError(humanError(r));
      const { archive, summary: entry } = r.compaction;
      setAsking(false);
      setFrom('');
      setTo('');
      setSummary('');
      onDone(
        `Compacted ${plural(archive.entryCount, 'original')} (${spanOf(archive)}) into archive generation ${archive.generation}; the summary is position ${entry.position}, in their place.`,
      );
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <form
        class="compact-form"
        aria-labelledby="compact-h"
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          setAsking(true);
        }}
      >
        <h3 id="compact-h">Compact part of the active history</h3>
        <p class="hint">Positions as the active history shows them (#n); an earlier summary may be part of the span.</p>
        <div class="cols compact-span">
          <div>
            <label for="compact-from">From position</label>
            <input id="compact-from" type="number" min={1} required value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
          </div>
          <div>
            <label for="compact-to">To position</label>
            <input id="compact-to" type="number" min={1} required value={to} onInput={(e) => setTo(e.currentTarget.value)} />
          </div>
          <div>
            <label for="compact-role">Summary role</label>
            <input id="compact-role" value={role} maxLength={64} onInput={(e) => setRole(e.currentTarget.value)} />
          </div>
        </div>
        <label for="compact-summary">Summary</label>
        <textarea id="compact-summary" rows={3} required value={summary} onInput={(e) => setSummary(e.currentTarget.value)} />
        <div class="toolbar">
          <button type="submit">Compact…</button>
        </div>
      </form>
      {asking && (
        <ConfirmDialog
          title={`Compact positions ${from}–${to} of session ${sessionId}?`}
          confirmLabel="Compact"
          busy={busy}
          error={error}
          onCancel={() => setAsking(false)}
          onConfirm={() => void compact()}
        >
          <p>
            The active entries from position {from} to {to} move into a new archive generation (nothing is erased, the originals stay readable), and the summary takes their place
            in the active history.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
