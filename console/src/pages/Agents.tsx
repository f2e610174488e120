/** Agents: the agents the console lists (each opens its own page, agent/AgentPage.tsx), a form to create another (then its token on Tokens), and agent archives. */
import { agentPageHref } from '../hash-route';
import type { PageProps } from '../page-props';
import { CreateAgentForm } from './tokens/CreateAgentForm';
import { ArchivePanel } from './agents/ArchivePanel';

export function AgentsPage({ api, agents, agentsMore, announce, reloadAgents }: PageProps & { reloadAgents: () => Promise<void> }) {
  return (
    <div class="agents">
      <section class="panel" aria-labelledby="new-agent-h">
        <h2 id="new-agent-h">New agent</h2>
        <CreateAgentForm
          api={api}
          idPrefix="agents"
          onCreated={(a) => {
            announce(`Agent ${a.agentId} created. Its runtime needs a token: see Tokens.`);
            void reloadAgents().catch(() => undefined);
          }}
        />
      </section>
      <section class="panel" aria-labelledby="agent-list-h">
        <h2 id="agent-list-h">Agents</h2>
        {agents.length === 0 ? (
          <p>No agent yet.</p>
        ) : (
          <ul class="agent-list">
            {agents.map((a) => (
              <li data-agent={a.agentId}>
                <a href={agentPageHref(a.agentId)}>{a.name}</a> <span class="meta">({a.agentId})</span>
              </li>
            ))}
          </ul>
        )}
        {agentsMore && <p class="warning">Showing the newest 100 agents only.</p>}
        <p>
          <a href="#/tokens">Create a token</a> for an agent on the Tokens page.
        </p>
      </section>
      <ArchivePanel agents={agents} announce={announce} reloadAgents={reloadAgents} />
    </div>
  );
}
