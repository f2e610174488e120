/** An agent's Tiddle status (TTL, scheduler, proposer, last synthesis, each scope's schedule and failures): the dashboard's agent details and the agent page. */
import type { ConsoleAgentDetailQuery } from '../../graphql/generated';
import { Scroll } from './Scroll';

type Status = Pick<ConsoleAgentDetailQuery['tiddleStatus'], 'cardTtlDays' | 'schedulerEnabled' | 'proposer' | 'lastSynthesisAt' | 'scopes'>;

export function TiddleStatusView({ status, caption }: { status: Status; caption: string }) {
  return (
    <>
      <p>
        Card TTL {status.cardTtlDays} days · scheduler {status.schedulerEnabled ? 'on' : 'off'} · proposer {status.proposer}
        {status.lastSynthesisAt ? ` · last synthesis ${status.lastSynthesisAt}` : ''}
      </p>
      {status.scopes.length === 0 ? (
        <p>No Tiddle pass has run for this agent yet.</p>
      ) : (
        <Scroll label={caption}>
          <table>
            <caption class="visually-hidden">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">Scope</th>
                <th scope="col">Next run</th>
                <th scope="col">Last success</th>
                <th scope="col">Last failure</th>
              </tr>
            </thead>
            <tbody>
              {status.scopes.map((s) => (
                <tr>
                  <th scope="row">{s.project}</th>
                  <td>{s.nextRunAt}</td>
                  <td>{s.lastSuccessAt ?? 'never'}</td>
                  <td>{s.lastErrorAt ? `${s.lastErrorAt}: ${s.lastError ?? ''} (${s.consecutiveFailures} in a row)` : 'none'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
    </>
  );
}
