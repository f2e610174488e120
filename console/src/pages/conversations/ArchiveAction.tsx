/**
 * Archive or unarchive one session, after a confirmation (archiveConversationSession,
 * unarchiveConversationSession). One button whose label follows the state, so focus returns to
 * it when the dialog closes and the next action is under the keyboard.
 */
import { useState } from 'preact/hooks';
import { describeError, type Api } from '../../api';
import { ConsoleArchiveConversationSessionDocument, ConsoleUnarchiveConversationSessionDocument } from '../../graphql/generated';
import { humanError } from '../../human-error';
import { ConfirmDialog } from '../tokens/ConfirmDialog';
import type { Session } from './format';

interface Props {
  api: Api;
  agentId: string;
  session: Session;
  onDone: (session: Session, message: string) => void;
}

export function ArchiveAction({ api, agentId, session, onDone }: Props) {
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { sessionId, archived } = session;

  const act = async () => {
    setBusy(true);
    try {
      if (archived) {
        const r = (await api.request(ConsoleUnarchiveConversationSessionDocument, { input: { agentId, sessionId } })).unarchiveConversationSession;
        if (r.__typename !== 'UnarchiveConversationSessionSuccess') return setError(humanError(r));
        setAsking(false);
        onDone(r.session, `Session ${sessionId} unarchived: it accepts appends, compactions and resets again.`);
      } else {
        const input = { agentId, sessionId, ...(reason.trim() ? { reason: reason.trim() } : {}) };
        const r = (await api.request(ConsoleArchiveConversationSessionDocument, { input })).archiveConversationSession;
        if (r.__typename !== 'ArchiveConversationSessionSuccess') return setError(humanError(r));
        setAsking(false);
        setReason('');
        onDone(r.session, `Session ${sessionId} archived: its originals stay readable and searchable; it refuses appends, compactions and resets until unarchived.`);
      }
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" class="secondary" onClick={() => (setError(null), setAsking(true))}>
        {archived ? 'Unarchive session' : 'Archive session'}
      </button>
      {asking && (
        <ConfirmDialog
          title={`${archived ? 'Unarchive' : 'Archive'} session ${sessionId}?`}
          confirmLabel={archived ? 'Unarchive session' : 'Archive session'}
          busy={busy}
          error={error}
          onCancel={() => setAsking(false)}
          onConfirm={() => void act()}
        >
          {archived ? (
            <p>The session returns to the default session list and accepts appends, compactions and resets again.</p>
          ) : (
            <>
              <p>
                Nothing is erased: its {session.originalCount} originals stay readable and searchable. The session leaves the default session list and refuses appends, compactions
                and resets until it is unarchived.
              </p>
              <label for="archive-reason">Reason (optional, up to 2,000 characters)</label>
              <input id="archive-reason" value={reason} maxLength={2000} onInput={(e) => setReason(e.currentTarget.value)} />
            </>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
