/**
 * The page of one agent (#/agents/<agentId>, from the Agents list): its counts, profile, newest
 * memories, working records, handoffs and rolling cards per continuity scope, conversation
 * sessions, continuity runs, Tiddle status, and its events as they happen. Loaded once, then read
 * again after the agent's events (a burst is one read), over one operatorEvents subscription for
 * this agent (../../events.ts: it resumes after a break); the page never polls.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from '../../api';
import { openEventStream, type ConsoleEvent, type StreamStatus } from '../../events';
import { ConsoleAgentPageDocument, ConsoleScopeDocument } from '../../graphql/generated';
import type { PageProps } from '../../page-props';
import { when } from '../brains/when';
import { BrainsSection, ConversationsSection, ProfileSection, RunsSection, TiddleSection } from './Sections';
import { CountsSection } from './CountsSection';
import { EventsSection } from './EventsSection';
import { ScopesSection } from './ScopesSection';
import { MAX_EVENTS, type AgentData, type ScopeLists } from './types';

/** Events come in bursts (a pass writes several): the page is read again once they settle. */
const SETTLE_MS = 250;

export function AgentPage({ api, agentId }: PageProps & { agentId: string }) {
  // undefined: loading; null: no such agent.
  const [agent, setAgent] = useState<AgentData | null | undefined>(undefined);
  const [scopes, setScopes] = useState<ScopeLists>({});
  const [error, setError] = useState<string | null>(null);
  const [events, setEvents] = useState<ConsoleEvent[]>([]);
  const [stream, setStream] = useState<StreamStatus>({ state: 'connecting', text: 'Connecting to the live stream…' });
  const [streamError, setStreamError] = useState<string | null>(null);
  // Reads overlap when events arrive during one: only the newest read's answer is shown.
  const reads = useRef(0);

  async function load() {
    const read = ++reads.current;
    try {
      const { agent: found } = await api.request(ConsoleAgentPageDocument, { agentId });
      const lists: ScopeLists = {};
      await Promise.all(
        (found?.counts.scopes ?? []).map(({ project }) =>
          api.request(ConsoleScopeDocument, { agentId, project }, { scope: project }).then(
            (data) => void (lists[project] = data),
            (e) => void (lists[project] = describeError(e)),
          ),
        ),
      );
      if (read !== reads.current) return;
      setAgent(found ?? null);
      setScopes(lists);
      setError(null);
    } catch (e) {
      if (read === reads.current) setError(describeError(e));
    }
  }

  useEffect(() => {
    setAgent(undefined);
    setScopes({});
    setEvents([]);
    void load();
    let settle: ReturnType<typeof setTimeout> | undefined;
    const stop = openEventStream(api, [{ agentId }], {
      onEvent: (event) => {
        setEvents((list) => [event, ...list.filter((e) => e.sequence !== event.sequence)].slice(0, MAX_EVENTS));
        clearTimeout(settle);
        settle = setTimeout(() => void load(), SETTLE_MS);
      },
      onStatus: (status) => {
        setStream(status);
        if (status.state === 'live') setStreamError(null);
      },
      onFailure: (failure) => setStreamError(failure.message),
      // A break before any event arrived has no position to replay from: read everything again.
      onResumed: () => void load(),
    });
    return () => {
      stop();
      clearTimeout(settle);
    };
  }, [api, agentId]);

  if (agent === null) {
    return (
      <div class="panel">
        <p role="alert" class="error">
          There is no agent “{agentId}” (it may have been erased).
        </p>
        <a href="#/agents">Back to the agent list</a>
      </div>
    );
  }
  return (
    <div class="agent-page" data-agent={agentId}>
      <p class="agent-intro">
        <a href="#/agents">All agents</a>
        {agent && (
          <>
            {' '}
            · <strong>{agent.name}</strong> ({agent.agentId}) · created <time dateTime={agent.createdAt}>{when(agent.createdAt)}</time> · newest event #
            {events[0]?.sequence ?? agent.lastEventSequence}
          </>
        )}
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {agent === undefined && !error && <p class="loading">Loading {agentId}…</p>}
      {agent && (
        <div class="agent-grid">
          <CountsSection agent={agent} />
          <EventsSection agentId={agentId} events={events} stream={stream} streamError={streamError} />
          <ProfileSection agent={agent} />
          <BrainsSection agent={agent} />
          <ScopesSection agent={agent} scopes={scopes} />
          <ConversationsSection agent={agent} />
          <RunsSection agent={agent} />
          <TiddleSection agent={agent} />
        </div>
      )}
    </div>
  );
}
