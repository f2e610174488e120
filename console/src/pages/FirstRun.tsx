/**
 * A fresh install has no agent: instead of empty pages the console leads the operator through
 * the two steps a runtime needs, without leaving it: create an agent, then a token bound to it,
 * whose secret is shown once to hand to the runtime. It stays until the operator closes it, so
 * reloading the agent list after step 1 does not take step 2 away.
 */
import { useState } from 'preact/hooks';
import type { Api } from '../api';
import type { AgentSummary } from '../page-props';
import { CreateAgentForm } from './tokens/CreateAgentForm';
import { CreateTokenForm, type CreatedToken } from './tokens/CreateTokenForm';
import { SecretOnce } from './tokens/SecretOnce';

interface Props {
  api: Api;
  announce: (message: string) => void;
  /** Reads the agent list again (the shell's), once the agent exists. */
  reloadAgents: () => Promise<void>;
  onDone: () => void;
}

export function FirstRun({ api, announce, reloadAgents, onDone }: Props) {
  const [agent, setAgent] = useState<AgentSummary | null>(null);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  return (
    <section class="panel first-run" aria-labelledby="first-run-h">
      <h2 id="first-run-h">First run: no agent yet</h2>
      <p>
        This Burrow has no agent. A runtime needs two things: an agent (its memories, profile and continuity live under it) and an agent token, the bearer secret the runtime sends.
      </p>
      <ol class="steps">
        <li aria-current={agent ? undefined : 'step'}>
          <h3>1. Create an agent</h3>
          {agent ? (
            <p class="done">
              Created agent {agent.name} ({agent.agentId}).
            </p>
          ) : (
            <CreateAgentForm
              api={api}
              idPrefix="first-run"
              onCreated={(a) => {
                setAgent(a);
                announce(`Agent ${a.agentId} created. Next: its token.`);
                void reloadAgents().catch(() => undefined);
              }}
            />
          )}
        </li>
        <li aria-current={agent && !created ? 'step' : undefined}>
          <h3>2. Create its agent token</h3>
          {!agent ? (
            <p class="hint">After the agent exists.</p>
          ) : created ? (
            <SecretOnce idPrefix="first-run" secret={created.secret} tokenName={created.token.name} />
          ) : (
            <CreateTokenForm
              api={api}
              idPrefix="first-run"
              agents={[agent]}
              agentId={agent.agentId}
              onCreated={(c) => {
                setCreated(c);
                announce(`Token ${c.token.name} created for ${agent.agentId}: copy its secret now.`);
              }}
            />
          )}
        </li>
      </ol>
      {created && (
        <p>
          Give the runtime the secret as <code>Authorization: Bearer …</code>. More agents and tokens: the <a href="#/agents">Agents</a> and <a href="#/tokens">Tokens</a> pages.
        </p>
      )}
      <button type="button" class="secondary" onClick={onDone}>
        {created ? 'Done' : 'Close'}
      </button>
    </section>
  );
}
