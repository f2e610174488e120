/**
 * The stream of events across agents: one operatorEvents subscription for the agents the
 * dashboard lists, live from the moment it opens. When it breaks (the server restarts, the
 * network drops, the socket is closed) the reason is reported in words and the stream is opened
 * again after a growing pause, with `after:` the cursor of the last event received, so the
 * events written meanwhile arrive once each, in order. A refusal that would only repeat (a revoked
 * token, a rejected request) stops it instead.
 */
import type { Api, StreamFailure } from './api';
import { ConsoleOperatorEventsDocument, type ConsoleOperatorEventsSubscription } from './graphql/generated';

export type ConsoleEvent = ConsoleOperatorEventsSubscription['operatorEvents'];

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'stopped';
export interface StreamStatus {
  state: StreamState;
  /** The state in words, for the page. */
  text: string;
}

export interface EventStreamHandlers {
  onEvent(event: ConsoleEvent): void;
  onStatus(status: StreamStatus): void;
  /** Why the stream failed or closed, in words. */
  onFailure(failure: StreamFailure): void;
  /** Live again after a break: what the replay cannot cover (nothing was received before it) is read again. */
  onResumed(): void;
}

const FIRST_PAUSE_MS = 1000;
const LONGEST_PAUSE_MS = 10_000;

export function openEventStream(api: Api, agents: ReadonlyArray<{ agentId: string }>, handlers: EventStreamHandlers): () => void {
  if (agents.length === 0) return () => {};
  const agentIds = agents.map((agent) => agent.agentId);
  let last: ConsoleEvent | null = null;
  let attempt = 0;
  let stopped = false;
  let unsubscribe: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const position = () => (last ? `resuming after ${last.agentId} #${last.sequence}` : 'live from then on (no event had arrived yet)');

  const open = () => {
    timer = null;
    const resuming = attempt > 0;
    handlers.onStatus({ state: resuming ? 'reconnecting' : 'connecting', text: resuming ? `Reconnecting, ${position()}…` : 'Connecting to the live stream…' });
    unsubscribe = api.subscribe(
      ConsoleOperatorEventsDocument,
      { agentIds, after: last?.cursor ?? null },
      {
        connected: () => {
          handlers.onStatus({
            state: 'live',
            text: resuming ? `Live again, ${last ? `resumed after ${last.agentId} #${last.sequence}` : 'from the reconnection on'}.` : 'Live: events appear as they happen.',
          });
          if (resuming) handlers.onResumed();
          attempt = 0;
        },
        next: (data) => {
          last = data.operatorEvents;
          handlers.onEvent(data.operatorEvents);
        },
        failed: (failure) => {
          handlers.onFailure(failure);
          if (!failure.ended || stopped) return;
          unsubscribe = null;
          if (!failure.retry) {
            stopped = true;
            handlers.onStatus({ state: 'stopped', text: 'Stopped: the server refused the stream, and trying again would not help. Reload the page or sign in again.' });
            return;
          }
          attempt += 1;
          const pause = Math.min(FIRST_PAUSE_MS * 2 ** (attempt - 1), LONGEST_PAUSE_MS);
          handlers.onStatus({ state: 'reconnecting', text: `Disconnected; reconnecting in ${Math.round(pause / 1000)} s (attempt ${attempt}), ${position()}.` });
          timer = setTimeout(open, pause);
        },
      },
    );
  };
  open();

  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    unsubscribe?.();
  };
}
