/**
 * Working records, handoffs and rolling cards grouped by continuity scope: the scopes
 * AgentCounts.scopes names (every scope holding a live record of either kind), each read with
 * that scope's header (ConsoleScope, as the dashboard reads one).
 */
import type { ConsoleScopeQuery } from '../../graphql/generated';
import { when } from '../brains/when';
import type { AgentData, ScopeLists } from './types';

const shown = (listed: number, total: number, what: string) => (listed < total ? `the newest ${listed} of ${total} ${what}` : `${total} ${what}`);

function ScopeColumns({ lists, counts }: { lists: ConsoleScopeQuery; counts: NonNullable<AgentData['counts']['scopes']>[number] }) {
  const records = lists.workingRecords.edges.map((e) => e.node);
  const cards = lists.rollingCards.edges.map((e) => e.node);
  return (
    <div class="cols">
      <div data-list="working">
        <h4>Working records</h4>
        <p class="meta">{shown(records.length, counts.workingRecords, 'live')}</p>
        <ul>
          {records.map((r) => (
            <li data-record={r.id}>
              <span class="label">{r.kind.toLowerCase()}</span> {r.title}{' '}
              <span class="meta">
                {r.state.toLowerCase()}
                {r.pinned ? ', pinned' : `, until ${when(r.expiresAt)}`}
              </span>
            </li>
          ))}
          {records.length === 0 && <li>none</li>}
        </ul>
      </div>
      <div data-list="handoffs">
        <h4>Handoffs</h4>
        <p class="meta">{shown(lists.sessionReadHandoff.length, counts.handoffs, 'unexpired')}</p>
        <ul>
          {lists.sessionReadHandoff.map((h) => (
            <li data-handoff={h.id}>
              {h.title}{' '}
              <span class="meta">
                {h.origin.toLowerCase()}, session {h.sessionId}
              </span>
            </li>
          ))}
          {lists.sessionReadHandoff.length === 0 && <li>none</li>}
        </ul>
      </div>
      <div data-list="cards">
        <h4>Rolling cards</h4>
        <p class="meta">{shown(cards.length, counts.rollingCards, 'live')}</p>
        <ul>
          {cards.map((c) => (
            <li data-card={c.cardId} title={c.body}>
              {c.title} <span class="meta">refreshed {when(c.refreshedAt)}</span>
            </li>
          ))}
          {cards.length === 0 && <li>none</li>}
        </ul>
      </div>
    </div>
  );
}

export function ScopesSection({ agent, scopes }: { agent: AgentData; scopes: ScopeLists }) {
  const all = agent.counts.scopes ?? [];
  return (
    <section class="panel agent-scopes" aria-labelledby="agent-scopes-h">
      <h2 id="agent-scopes-h">Working memory by scope</h2>
      <p class="hint">Working records, handoffs and Tiddle’s rolling cards of each continuity scope (“*”: cross-scope cards).</p>
      {all.length === 0 && <p>No live working record, handoff or rolling card in any scope.</p>}
      {all.map((counts) => {
        const lists = scopes[counts.project];
        return (
          <section class="scope" data-scope={counts.project} aria-label={`Scope ${counts.project}`}>
            <h3>Scope {counts.project}</h3>
            {lists === undefined ? (
              <p>Loading…</p>
            ) : typeof lists === 'string' ? (
              <p role="alert" class="error">
                {lists}
              </p>
            ) : (
              <ScopeColumns lists={lists} counts={counts} />
            )}
          </section>
        );
      })}
    </section>
  );
}
