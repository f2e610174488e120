/**
 * Erasing an agent: the operator types the agent id to confirm (a live runtime owner refuses it
 * unless forced), and the receipt is shown after, also once the agent has left the list.
 */
import { useState } from 'preact/hooks';
import { describeError, handled } from '../api';
import { ConsoleAgentEraseDocument, type ConsoleAgentEraseMutation } from '../graphql/generated';
import type { Api } from '../api';

type Receipt = Extract<ConsoleAgentEraseMutation['agentErase'], { __typename: 'AgentEraseSuccess' }>['receipt'];

export function EraseAgentPanel({ api, agentId, announce, onErased }: { api: Api; agentId: string; announce: (m: string) => void; onErased: () => Promise<void> }) {
  const [typed, setTyped] = useState('');
  const [force, setForce] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [receipt, setReceipt] = useState<Receipt | null>(null);

  async function erase(e: Event) {
    e.preventDefault();
    if (typed !== agentId || busy) return;
    setBusy(true);
    setError(null);
    try {
      const { agentErase: r } = await api.request(ConsoleAgentEraseDocument, { input: { agentId, force } });
      if (r.__typename === 'OwnerLive') {
        setError(`Not erased: a runtime owns ${agentId} (live ownership sessions: ${r.ownerIds.join(', ')}). Tick "Force" to erase it anyway.`);
        return announce(`Not erased: ${agentId} has a live runtime owner.`);
      }
      if (r.__typename !== 'AgentEraseSuccess') return setError(`${r.code}: ${r.message}`);
      setReceipt(r.receipt);
      setTyped('');
      setForce(false);
      announce(`Erased ${r.receipt.agentId}; receipt ${r.receipt.receiptId}.`);
      await onErased();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="erase-h" class="panel">
      <h2 id="erase-h">Erase an agent</h2>
      {agentId ? (
        <form onSubmit={handled(erase, setError)}>
          <p>
            Removes <strong>{agentId}</strong> and everything it has: profile, Brains, working records, handoffs, conversations, Tiddle, continuity, settings, Dream diary, events
            and its tokens. It cannot be undone; a receipt without content is kept.
          </p>
          <label for="erase-confirm">Type the agent id to confirm</label>
          <input id="erase-confirm" autocomplete="off" spellcheck={false} value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
          <label>
            <input type="checkbox" checked={force} onChange={(e) => setForce(e.currentTarget.checked)} /> Force (even while a runtime owner is live)
          </label>
          <button type="submit" class="danger" disabled={typed !== agentId || busy}>
            {busy ? 'Erasing…' : `Erase ${agentId}`}
          </button>
        </form>
      ) : (
        <p>Choose an agent above.</p>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {receipt && (
        <div class="receipt" data-receipt={receipt.receiptId}>
          <h3>Receipt {receipt.receiptId}</h3>
          <p>
            Agent {receipt.agentId} erased by {receipt.actor.principalId}
            {receipt.forced ? ' (forced past a live owner)' : ''}, started {receipt.startedAt}, completed {receipt.completedAt ?? 'not yet'}.
          </p>
          <p>
            Content hash <code>{receipt.contentHash}</code>
          </p>
          <table>
            <caption>Rows removed per store</caption>
            <thead>
              <tr>
                <th scope="col">Store</th>
                <th scope="col">Rows</th>
              </tr>
            </thead>
            <tbody>
              {receipt.counts.map((c) => (
                <tr data-store={c.store}>
                  <td>{c.store}</td>
                  <td>{c.rows}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
