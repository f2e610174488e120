/**
 * Creates a bearer token (createApiToken, operators only): an operator token, or one bound to an
 * agent; a name and an optional lifetime in the server's form (3600s, 90m, 12h, 30d). The secret
 * goes to `onCreated`, which shows it once (SecretOnce).
 */
import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../../api';
import { describeError } from '../../api';
import { humanError } from '../../human-error';
import { ConsoleCreateApiTokenDocument, type ConsoleApiTokenFragment } from '../../graphql/generated';
import type { AgentSummary } from '../../page-props';

export interface CreatedToken {
  secret: string;
  token: ConsoleApiTokenFragment;
}

interface Props {
  api: Api;
  idPrefix: string;
  agents: AgentSummary[];
  /** Fixed to one agent (first run): no kind or agent choice is offered. */
  agentId?: string;
  onCreated: (created: CreatedToken) => void;
}

export function CreateTokenForm({ api, idPrefix, agents, agentId: fixedAgent, onCreated }: Props) {
  const [kind, setKind] = useState<'AGENT' | 'OPERATOR'>('AGENT');
  const [agentId, setAgentId] = useState(fixedAgent ?? agents[0]?.agentId ?? '');
  const [name, setName] = useState(fixedAgent ? `${fixedAgent}-runtime` : '');
  const [expiresIn, setExpiresIn] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!fixedAgent && !agents.some((a) => a.agentId === agentId)) setAgentId(agents[0]?.agentId ?? '');
  }, [agents]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const agent = fixedAgent ?? (kind === 'AGENT' ? agentId : null);
      const input = { kind: fixedAgent ? ('AGENT' as const) : kind, agentId: agent || null, name: name.trim(), expiresIn: expiresIn.trim() || null };
      const r = (await api.request(ConsoleCreateApiTokenDocument, { input })).createApiToken;
      if (r.__typename !== 'CreateApiTokenSuccess') return setError(humanError(r));
      setName('');
      setExpiresIn('');
      onCreated({ secret: r.secret, token: r.token });
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="create-token" onSubmit={(e) => void submit(e)}>
      {!fixedAgent && (
        <fieldset class="row">
          <legend>Kind</legend>
          <label>
            <input type="radio" name={`${idPrefix}-kind`} checked={kind === 'AGENT'} onChange={() => setKind('AGENT')} /> Agent token (acts only as one agent)
          </label>
          <label>
            <input type="radio" name={`${idPrefix}-kind`} checked={kind === 'OPERATOR'} onChange={() => setKind('OPERATOR')} /> Operator token (every agent)
          </label>
        </fieldset>
      )}
      <div class="row">
        {!fixedAgent && kind === 'AGENT' && (
          <>
            <label for={`${idPrefix}-token-agent`}>Agent</label>
            <select id={`${idPrefix}-token-agent`} value={agentId} onChange={(e) => setAgentId(e.currentTarget.value)} required>
              {agents.map((a) => (
                <option value={a.agentId}>{a.agentId}</option>
              ))}
            </select>
          </>
        )}
        <label for={`${idPrefix}-token-name`}>Token name</label>
        <input id={`${idPrefix}-token-name`} value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={200} autocomplete="off" />
        <label for={`${idPrefix}-token-expires`}>Expires in (optional)</label>
        <input
          id={`${idPrefix}-token-expires`}
          value={expiresIn}
          onInput={(e) => setExpiresIn(e.currentTarget.value)}
          placeholder="e.g. 30d"
          pattern="[1-9][0-9]*[smhd]"
          size={8}
          autocomplete="off"
          aria-describedby={`${idPrefix}-token-expires-hint`}
        />
        <button type="submit" disabled={busy || (!fixedAgent && kind === 'AGENT' && !agentId)}>
          Create token
        </button>
      </div>
      <p id={`${idPrefix}-token-expires-hint`} class="hint">
        Name: 1 to 200 characters. Lifetime: a whole number with a unit, 3600s, 90m, 12h or 30d; empty for no expiry.
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </form>
  );
}
