/**
 * The live dashboard. Everything is loaded once, then refreshed only when an event of that agent
 * arrives over the subscription (no polling): the agents' counts, the event stream, Tiddle status
 * per scope with the newest rolling cards, continuity runs by state with the recovery queue and
 * interruption manifests, working records and handoffs per scope.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError, handled } from '../api';
import { loadAgentCounts, type AgentCounts } from '../counts';
import { EraseAgentPanel } from './EraseAgent';
import { TiddleStatusView } from './agent/TiddleStatus';
import { openEventStream, type ConsoleEvent, type StreamStatus } from '../events';
import { ConsoleAgentDetailDocument, ConsoleScopeDocument, type ConsoleAgentDetailQuery, type ConsoleScopeQuery } from '../graphql/generated';
import type { PageProps } from '../page-props';

const MAX_EVENTS = 50;
const STATES = ['RUNNING', 'FINALIZING', 'INTERRUPTED', 'RECOVERY_PENDING', 'COMPLETED'] as const;

export function DashboardPage({ api, agents, agentsMore, announce, reloadAgents }: PageProps & { reloadAgents: () => Promise<void> }) {
  const [counts, setCounts] = useState<Record<string, AgentCounts>>({});
  const [events, setEvents] = useState<ConsoleEvent[]>([]);
  const [streamError, setStreamError] = useState<string | null>(null);
  const [stream, setStream] = useState<StreamStatus>({ state: 'connecting', text: 'Connecting to the live stream…' });
  const [focus, setFocus] = useState('');
  const [detail, setDetail] = useState<ConsoleAgentDetailQuery | null>(null);
  const [scopes, setScopes] = useState<Record<string, ConsoleScopeQuery | string>>({});
  const [extraScope, setExtraScope] = useState('');
  const [eventScopes, setEventScopes] = useState<Record<string, Set<string>>>({});
  const focusRef = useRef(focus);
  focusRef.current = focus;
  const pending = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const refreshCounts = (agentId: string) =>
    loadAgentCounts(api, agentId).then(
      (c) => setCounts((all) => ({ ...all, [agentId]: c })),
      (e) => setStreamError(describeError(e)),
    );

  useEffect(() => {
    for (const a of agents) void refreshCounts(a.agentId);
    if (!focus && agents[0]) setFocus(agents[0].agentId);
    const stop = openEventStream(api, agents, {
      onEvent: (event) => {
        setEvents((list) => [event, ...list.filter((e) => !(e.agentId === event.agentId && e.sequence === event.sequence))].slice(0, MAX_EVENTS));
        if (event.project) setEventScopes((all) => ({ ...all, [event.agentId]: new Set([...(all[event.agentId] ?? []), event.project!]) }));
        // Events arrive in bursts (a pass writes several): refresh each agent once per burst.
        const timers = pending.current;
        clearTimeout(timers.get(event.agentId));
        timers.set(
          event.agentId,
          setTimeout(() => {
            timers.delete(event.agentId);
            void refreshCounts(event.agentId);
            if (event.agentId === focusRef.current) void loadDetail(event.agentId);
          }, 250),
        );
      },
      onStatus: (status) => {
        setStream(status);
        // The failure stays on the page until the stream is live again.
        if (status.state === 'live') setStreamError(null);
      },
      onFailure: (failure) => setStreamError(failure.message),
      // Replayed events refresh what they touch; a break before any event had arrived has no
      // position to replay from, so every agent's counts are read again.
      onResumed: () => {
        for (const a of agents) void refreshCounts(a.agentId);
      },
    });
    return () => {
      stop();
      for (const t of pending.current.values()) clearTimeout(t);
    };
  }, [api, agents]);

  // Only the newest load's answer is shown: an earlier one (another agent's, asked before the focus
  // moved, or an older read of this one) can answer after it and would put stale details back.
  const detailLoads = useRef(0);
  async function loadDetail(agentId: string) {
    const load = ++detailLoads.current;
    try {
      const data = await api.request(ConsoleAgentDetailDocument, { agentId });
      if (load === detailLoads.current) setDetail(data);
    } catch (e) {
      if (load === detailLoads.current) setStreamError(describeError(e));
    }
  }
  useEffect(() => {
    setDetail(null);
    setScopes({});
    if (focus) void loadDetail(focus);
  }, [focus]);

  const knownScopes = (() => {
    if (!detail) return [] as string[];
    const all = new Set<string>();
    for (const s of detail.tiddleStatus.scopes) all.add(s.project);
    for (const { node } of detail.continuityRuns.edges) if (node.project) all.add(node.project);
    for (const p of eventScopes[focus] ?? []) all.add(p);
    if (extraScope.trim()) all.add(extraScope.trim());
    return [...all].sort();
  })();
  const scopeKey = knownScopes.join('\n');

  useEffect(() => {
    if (!focus || !detail) return;
    for (const project of knownScopes) {
      api.request(ConsoleScopeDocument, { agentId: focus, project }, { scope: project }).then(
        (data) => setScopes((all) => ({ ...all, [project]: data })),
        (e) => setScopes((all) => ({ ...all, [project]: describeError(e) })),
      );
    }
  }, [focus, detail, scopeKey]);

  const runs = detail?.continuityRuns.edges.map((e) => e.node) ?? [];
  return (
    <div class="dashboard">
      <section aria-labelledby="agents-h" class="panel">
        <h2 id="agents-h">Agents</h2>
        <div class="scroll">
          <table>
            <caption class="visually-hidden">Agents with their counts</caption>
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Last event</th>
                <th scope="col">Memories</th>
                <th scope="col">Working records</th>
                <th scope="col">Rolling cards</th>
                <th scope="col">Continuity runs</th>
                <th scope="col">Tiddle scopes</th>
              </tr>
            </thead>
            <tbody>
              {agents.map((a) => {
                const c = counts[a.agentId];
                const last = events.find((e) => e.agentId === a.agentId)?.sequence ?? a.lastEventSequence;
                return (
                  <tr data-agent={a.agentId}>
                    <th scope="row">
                      {a.name} <span class="meta">({a.agentId})</span>
                    </th>
                    <td>#{last}</td>
                    <td data-count="memories">{c?.memories ?? '…'}</td>
                    <td data-count="working">{c?.workingRecords ?? '…'}</td>
                    <td data-count="cards">{c?.rollingCards ?? '…'}</td>
                    <td data-count="runs">
                      {c
                        ? STATES.filter((s) => c.runsByState[s])
                            .map((s) => `${s.toLowerCase()} ${c.runsByState[s]}`)
                            .join(', ') || 'none'
                        : '…'}
                    </td>
                    <td>{c?.scopes ?? '…'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {agentsMore && <p class="warning">Showing the newest 100 agents only (and their events); older agents are not listed here.</p>}
        <button type="button" class="secondary" onClick={handled(() => reloadAgents().then(() => announce('Agent list reloaded.')), announce)}>
          Reload agent list
        </button>
      </section>

      <section aria-labelledby="events-h" class="panel">
        <h2 id="events-h">Events across agents</h2>
        <p class="hint">Live over the WebSocket subscription; the last {MAX_EVENTS} are kept. After a break it resumes after the last event received.</p>
        <p class="stream-status" data-state={stream.state} role="status">
          {stream.text}
        </p>
        {streamError && (
          <p role="alert" class="error">
            {streamError}
          </p>
        )}
        {/* The log role on a wrapper: an <ol> may not take it (axe aria-allowed-role), and the list keeps its semantics. */}
        <div role="log" aria-label="Live events">
          <ol class="events">
            {events.map((e) => (
              <li data-event={`${e.agentId}:${e.sequence}`}>
                <span class="meta">{e.occurredAt.replace('T', ' ').slice(0, 19)}</span> <strong>{e.agentId}</strong> #{e.sequence} <code>{e.type}</code>
                {e.project ? <span class="label">{e.project}</span> : null} <span class="meta">{e.subjectId}</span>
              </li>
            ))}
          </ol>
        </div>
        {events.length === 0 && <p>No events yet.</p>}
      </section>

      <section aria-labelledby="detail-h" class="panel">
        <h2 id="detail-h">Agent details</h2>
        <div class="row">
          <label for="focus-agent">Agent</label>
          <select id="focus-agent" value={focus} onChange={(e) => setFocus(e.currentTarget.value)}>
            {agents.map((a) => (
              <option value={a.agentId}>{a.agentId}</option>
            ))}
          </select>
          <label for="extra-scope">Another scope</label>
          <input id="extra-scope" value={extraScope} onChange={(e) => setExtraScope(e.currentTarget.value)} placeholder="project name" />
        </div>
        {detail && (
          <>
            <h3>Tiddle status</h3>
            <TiddleStatusView status={detail.tiddleStatus} caption="Tiddle status per scope" />

            <h3>Continuity runs by state</h3>
            <ul class="states">
              {STATES.map((s) => (
                <li>
                  {s.toLowerCase().replace('_', ' ')}: <strong>{runs.filter((r) => r.state === s).length}</strong>
                </li>
              ))}
            </ul>
            <h4>Recovery queue</h4>
            {runs.filter((r) => r.state === 'RECOVERY_PENDING').length === 0 ? (
              <p>Empty.</p>
            ) : (
              runs
                .filter((r) => r.state === 'RECOVERY_PENDING')
                .map((r) => (
                  <details>
                    <summary>
                      {r.runId} ({r.project ?? 'no scope'}, generation {r.generation})
                    </summary>
                    <pre class="json" tabIndex={0} aria-label={`Recovery queue of ${r.runId} (JSON)`}>
                      {JSON.stringify(r.recoveryQueue, null, 2)}
                    </pre>
                  </details>
                ))
            )}
            <h4>Interruption manifests</h4>
            {runs.filter((r) => r.interruptionManifest != null).length === 0 ? (
              <p>None.</p>
            ) : (
              runs
                .filter((r) => r.interruptionManifest != null)
                .map((r) => (
                  <details>
                    <summary>
                      {r.runId}: {r.state.toLowerCase()}, interrupted {r.interruptedAt}
                    </summary>
                    <pre class="json" tabIndex={0} aria-label={`Interruption manifest of ${r.runId} (JSON)`}>
                      {JSON.stringify(r.interruptionManifest, null, 2)}
                    </pre>
                  </details>
                ))
            )}

            <h3>Scopes</h3>
            {knownScopes.length === 0 && <p>No scope seen yet (from Tiddle, runs or events); type one above.</p>}
            {knownScopes.map((project) => {
              const s = scopes[project];
              return (
                <section class="scope" aria-label={`Scope ${project}`}>
                  <h4>Scope {project}</h4>
                  {s === undefined ? (
                    <p>Loading…</p>
                  ) : typeof s === 'string' ? (
                    <p class="error">{s}</p>
                  ) : (
                    <div class="cols">
                      <div>
                        <h5>Newest rolling cards</h5>
                        <ul>
                          {s.rollingCards.edges.length ? (
                            s.rollingCards.edges.map(({ node }) => (
                              <li title={node.body}>
                                {node.title} <span class="meta">refreshed {node.refreshedAt}</span>
                              </li>
                            ))
                          ) : (
                            <li>none</li>
                          )}
                        </ul>
                      </div>
                      <div>
                        <h5>Working records</h5>
                        <ul>
                          {s.workingRecords.edges.length ? (
                            s.workingRecords.edges.map(({ node }) => (
                              <li>
                                <span class="label">{node.kind.toLowerCase()}</span> {node.title}{' '}
                                <span class="meta">
                                  {node.state.toLowerCase()}
                                  {node.pinned ? ', pinned' : ''}
                                </span>
                              </li>
                            ))
                          ) : (
                            <li>none</li>
                          )}
                        </ul>
                      </div>
                      <div>
                        <h5>Handoffs</h5>
                        <ul>
                          {s.sessionReadHandoff.length ? (
                            s.sessionReadHandoff.map((h) => (
                              <li>
                                {h.title}{' '}
                                <span class="meta">
                                  {h.origin.toLowerCase()}, session {h.sessionId}
                                </span>
                              </li>
                            ))
                          ) : (
                            <li>none</li>
                          )}
                        </ul>
                      </div>
                    </div>
                  )}
                </section>
              );
            })}
          </>
        )}
      </section>
      <EraseAgentPanel api={api} agentId={focus} announce={announce} onErased={() => (setFocus(''), setDetail(null), reloadAgents())} />
    </div>
  );
}
