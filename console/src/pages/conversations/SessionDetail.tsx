/**
 * One session beside the list: its counts, archive state and archive generations, the archive
 * and compaction actions with their results, and its entries as the active history (summaries
 * in place) or as every original.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError, type Api } from '../../api';
import { ConsoleConversationSessionDocument } from '../../graphql/generated';
import { when } from '../operations/format';
import { ArchiveAction } from './ArchiveAction';
import { CompactForm } from './CompactForm';
import { HistoryList, OriginalsList } from './Entries';
import { actor, countsOf, spanOf, type Session } from './format';

interface Props {
  api: Api;
  agentId: string;
  sessionId: string;
  announce: (message: string) => void;
  /** The session changed (archive state, counts): the list reads it again. */
  onChanged: () => void;
}

type View = 'history' | 'originals';

export function SessionDetail({ api, agentId, sessionId, announce, onChanged }: Props) {
  const [session, setSession] = useState<Session | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const [view, setView] = useState<View>('history');
  const [version, setVersion] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);

  const load = async () => {
    try {
      const data = await api.request(ConsoleConversationSessionDocument, { agentId, sessionId });
      setSession(data.conversationSession);
      setError(data.conversationSession ? null : `Session ${sessionId} no longer exists for ${agentId}.`);
    } catch (e) {
      setError(describeError(e));
    }
  };
  useEffect(() => {
    setSession(null);
    setResult(null);
    setView('history');
    void load();
    // Opening a session moves focus to it, so a keyboard or screen-reader user lands on what opened.
    heading.current?.focus();
  }, [agentId, sessionId]);

  const done = (message: string, fresh?: Session) => {
    setResult(message);
    announce(message);
    if (fresh) setSession(fresh);
    else void load();
    setVersion((v) => v + 1);
    onChanged();
  };

  return (
    <section class="panel session-detail" aria-labelledby="session-h">
      <h2 id="session-h" tabIndex={-1} ref={heading}>
        Session {sessionId}
      </h2>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {session && (
        <>
          <dl class="facts">
            <dt>Counts</dt>
            <dd data-counts>{countsOf(session)}</dd>
            <dt>State</dt>
            <dd data-state>
              {session.archived
                ? `archived ${when(session.archivedAt!)} by ${actor(session.archivedBy)}${session.archiveReason ? `: ${session.archiveReason}` : ''}`
                : 'open: accepts appends, compactions and resets'}
            </dd>
            <dt>First activity</dt>
            <dd>{when(session.firstActivityAt)}</dd>
            <dt>Last activity</dt>
            <dd>{when(session.lastActivityAt)}</dd>
            {session.project && (
              <>
                <dt>Continuity scope</dt>
                <dd>{session.project}</dd>
              </>
            )}
          </dl>
          <div class="toolbar">
            <ArchiveAction api={api} agentId={agentId} session={session} onDone={(fresh, message) => done(message, fresh)} />
          </div>
          <p class="result" data-result>
            {result}
          </p>
          {session.archives.length > 0 && (
            <>
              <h3>Archive generations</h3>
              <ol class="generations">
                {session.archives.map((a) => (
                  <li data-generation={a.generation} value={a.generation}>
                    Generation {a.generation}: {a.kind === 'COMPACTION' ? 'compaction' : 'reset'}, {spanOf(a)} ({a.entryCount}), {when(a.archivedAt)} by {actor(a.archivedBy)}
                    {a.reason && a.kind === 'RESET' ? `: ${a.reason}` : ''}
                  </li>
                ))}
              </ol>
            </>
          )}
          {!session.archived && <CompactForm api={api} agentId={agentId} sessionId={sessionId} onDone={(message) => done(message)} />}
          <div class="row view-switch" role="group" aria-label="Entries to show">
            <button type="button" class="secondary" aria-pressed={view === 'history'} onClick={() => setView('history')}>
              Active history ({session.activeCount})
            </button>
            <button type="button" class="secondary" aria-pressed={view === 'originals'} onClick={() => setView('originals')}>
              All originals ({session.originalCount})
            </button>
          </div>
          <h3>{view === 'history' ? 'Active history, with compaction summaries in place' : 'Originals: every entry, active and archived, in position order'}</h3>
          {view === 'history' ? (
            <HistoryList api={api} agentId={agentId} sessionId={sessionId} version={version} archives={session.archives} />
          ) : (
            <OriginalsList api={api} agentId={agentId} sessionId={sessionId} version={version} />
          )}
        </>
      )}
    </section>
  );
}
