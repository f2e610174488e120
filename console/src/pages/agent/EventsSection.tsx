/** The agent's events since the page opened, newest first, as they arrive; the stream's state in words. */
import type { ConsoleEvent, StreamStatus } from '../../events';
import { MAX_EVENTS } from './types';

export function EventsSection({ agentId, events, stream, streamError }: { agentId: string; events: ConsoleEvent[]; stream: StreamStatus; streamError: string | null }) {
  return (
    <section class="panel agent-events" aria-labelledby="agent-events-h">
      <h2 id="agent-events-h">Live events</h2>
      <p class="hint">Newest first, the last {MAX_EVENTS} since the page opened; each one reads this page again.</p>
      <p class="stream-status" data-state={stream.state} role="status">
        {stream.text}
      </p>
      {streamError && (
        <p role="alert" class="error">
          {streamError}
        </p>
      )}
      {/* The log role on a wrapper: on the list itself it would replace the list's role and leave its items outside a list. */}
      <div role="log" aria-label={`Live events of ${agentId}`}>
        <ol class="events">
          {events.map((e) => (
            <li data-event={e.sequence}>
              <span class="meta">{e.occurredAt.replace('T', ' ').slice(0, 19)}</span> #{e.sequence} <code>{e.type}</code>
              {e.project ? (
                <>
                  {' '}
                  <span class="label">{e.project}</span>
                </>
              ) : null}{' '}
              <span class="meta">{e.subjectId}</span>
            </li>
          ))}
        </ol>
      </div>
      {events.length === 0 && <p>No event since the page opened.</p>}
    </section>
  );
}
