/** The agent's counts: exact, from Agent.counts (live records only), read again after its events. */
import { RUN_STATES, stateName, type AgentData } from './types';

export function CountsSection({ agent }: { agent: AgentData }) {
  const { counts, profile } = agent;
  const scopes = counts.scopes ?? [];
  const runs = counts.runsByState.reduce((sum, r) => sum + r.count, 0);
  const byState = RUN_STATES.map((s) => [s, counts.runsByState.find((r) => r.state === s)?.count ?? 0] as const).filter(([, n]) => n > 0);
  const rows: [key: string, label: string, value: number | null, detail?: string][] = [
    ['memories', 'Brain memories', counts.brains],
    ['profile', 'Profile documents', profile.length, `${profile.filter((d) => d.content !== '').length} written`],
    ['working', 'Working records', counts.workingRecords],
    ['handoffs', 'Handoffs', scopes.reduce((sum, s) => sum + s.handoffs, 0)],
    ['cards', 'Rolling cards', counts.rollingCards],
    ['scopes', 'Continuity scopes', scopes.length],
    ['sessions', 'Conversation sessions', counts.conversationSessions],
    ['originals', 'Conversation originals', counts.conversationOriginals],
    ['runs', 'Continuity runs', runs, byState.map(([s, n]) => `${stateName(s)} ${n}`).join(', ') || undefined],
  ];
  return (
    <section class="panel agent-counts" aria-labelledby="agent-counts-h">
      <h2 id="agent-counts-h">Counts</h2>
      <dl class="counts">
        {rows.map(([key, label, value, detail]) => (
          <div data-count={key}>
            <dt>{label}</dt>
            <dd>
              <strong>{value ?? 'unknown'}</strong>
              {detail && <span class="meta"> ({detail})</span>}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
