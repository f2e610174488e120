/** Creates an agent (createAgent, operators only): an id within the server's form and a display name. */
import { useState } from 'preact/hooks';
import type { Api } from '../../api';
import { describeError } from '../../api';
import { humanError } from '../../human-error';
import { ConsoleCreateAgentDocument } from '../../graphql/generated';
import type { AgentSummary } from '../../page-props';

/** The server's rule (agents.validation.ts), checked here too so the browser says it before a round trip. */
export const AGENT_ID_PATTERN = '[a-z0-9][a-z0-9_\\-]{0,62}';

export function CreateAgentForm({ api, idPrefix, onCreated }: { api: Api; idPrefix: string; onCreated: (agent: AgentSummary) => void }) {
  const [agentId, setAgentId] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const data = await api.request(ConsoleCreateAgentDocument, { input: { agentId: agentId.trim() || null, name: name.trim() } });
      const r = data.createAgent;
      if (r.__typename !== 'CreateAgentSuccess') return setError(humanError(r));
      setAgentId('');
      setName('');
      onCreated(r.agent);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="create-agent" onSubmit={(e) => void submit(e)}>
      <div class="row">
        <label for={`${idPrefix}-agent-id`}>Agent id</label>
        <input
          id={`${idPrefix}-agent-id`}
          value={agentId}
          onInput={(e) => setAgentId(e.currentTarget.value)}
          pattern={AGENT_ID_PATTERN}
          maxLength={63}
          spellcheck={false}
          autocomplete="off"
          aria-describedby={`${idPrefix}-agent-id-hint`}
        />
        <label for={`${idPrefix}-agent-name`}>Name</label>
        <input id={`${idPrefix}-agent-name`} value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={200} autocomplete="off" />
        <button type="submit" disabled={busy}>
          Create agent
        </button>
      </div>
      <p id={`${idPrefix}-agent-id-hint`} class="hint">
        Id: 1 to 63 characters of a-z, 0-9, "_" and "-", starting with a letter or digit; left empty, the server makes one (agent-xxxxxxxx). Name: 1 to 200 characters.
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </form>
  );
}
