/**
 * The continuity recovery queue: every agent's runs that wait for recovery (INTERRUPTED, not yet
 * assessed; RECOVERY_PENDING, assessed, waiting for a live owner to claim them) with what their
 * assessed queue holds. Reconcile starts one reconciliation pass for the entry's agent, after a
 * confirmation: runs whose owner is gone are interrupted and interrupted runs are assessed. The
 * pass never claims a run (only a live runtime owner does) and never discards one.
 */
import { useEffect, useState } from 'preact/hooks';
import { describeError, type Api } from '../../api';
import {
  ConsoleReconcileContinuityDocument,
  ConsoleRecoveryQueueDocument,
  type ConsoleReconcileContinuityMutation,
  type ConsoleRecoveryRunFragment,
} from '../../graphql/generated';
import { ConfirmDialog } from '../tokens/ConfirmDialog';
import { when } from './format';

interface Props {
  api: Api;
  announce: (message: string) => void;
}

type QueueItem = { kind?: string; effectId?: string; effectKind?: string; headRevision?: number };

/** One line per assessed item, in the words the runtime acts on. */
export function describeQueue(queue: unknown): string[] {
  if (!Array.isArray(queue)) return [];
  return (queue as QueueItem[]).map((item) => {
    if (item.kind === 'RECONCILE_EFFECT') return `Check effect ${item.effectId} (${item.effectKind}): outcome unknown`;
    if (item.kind === 'FINISH_FINALIZATION') return `Finish the finalization (head revision ${item.headRevision})`;
    if (item.kind === 'RESUME_TURN') return `Resume the turn (head revision ${item.headRevision})`;
    return JSON.stringify(item);
  });
}

type PassResult = ConsoleReconcileContinuityMutation['reconcileContinuity'];
const runList = (runs: ConsoleRecoveryRunFragment[]) => (runs.length ? runs.map((r) => r.runId).join(', ') : 'none');
export const describePass = (agentId: string, r: PassResult) =>
  `Reconciled ${agentId}: ${r.ownersChecked} ${r.ownersChecked === 1 ? 'owner' : 'owners'} checked; interrupted: ${runList(r.interrupted)}; assessed: ${runList(r.recoveryPending)}; failed: ${runList(r.failed)}.`;

export function RecoveryQueue({ api, announce }: Props) {
  const [runs, setRuns] = useState<ConsoleRecoveryRunFragment[] | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<ConsoleRecoveryRunFragment | null>(null);
  const [passError, setPassError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<string | null>(null);

  const load = async () => {
    try {
      const { agents } = await api.request(ConsoleRecoveryQueueDocument, {});
      setRuns(agents.edges.flatMap((a) => a.node.continuityRuns.edges.map((e) => e.node)));
      setMore(agents.edges.some((a) => a.node.continuityRuns.pageInfo.hasNextPage));
      setError(null);
    } catch (err) {
      setError(describeError(err));
    }
  };
  useEffect(() => void load(), [api]);

  const reconcile = async (run: ConsoleRecoveryRunFragment) => {
    setBusy(true);
    try {
      const r = (await api.request(ConsoleReconcileContinuityDocument, { agentId: run.agentId })).reconcileContinuity;
      const text = describePass(run.agentId, r);
      setConfirming(null);
      setPassError(null);
      setResult(text);
      announce(text);
      await load();
      document.getElementById('recovery-h')?.focus();
    } catch (err) {
      setPassError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel recovery-queue" aria-labelledby="recovery-h">
      <h2 id="recovery-h" tabIndex={-1}>
        Continuity recovery queue
      </h2>
      <p>Runs that wait for recovery. Interrupted runs are assessed by the next reconciliation; a recovery-pending run waits for a live runtime of its agent to claim it.</p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {result && <p class="result">{result}</p>}
      {runs && runs.length === 0 && <p>No run waits for recovery.</p>}
      {runs && runs.length > 0 && (
        <div class="scroll">
          <table class="recovery-runs">
            <caption class="visually-hidden">Runs waiting for recovery, by agent</caption>
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Run</th>
                <th scope="col">State</th>
                <th scope="col">Generation</th>
                <th scope="col">Interrupted</th>
                <th scope="col">Recovery queue</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr data-run={`${r.agentId}/${r.runId}`}>
                  <td>{r.agentId}</td>
                  <th scope="row">{r.runId}</th>
                  <td>{r.state === 'INTERRUPTED' ? 'interrupted, not assessed' : 'recovery pending'}</td>
                  <td>{r.generation}</td>
                  <td>{r.interruptedAt ? when(r.interruptedAt) : ''}</td>
                  <td>
                    {r.state === 'INTERRUPTED' ? (
                      'assessed at the next reconciliation'
                    ) : (
                      <ul class="queue-items">
                        {describeQueue(r.recoveryQueue).map((line) => (
                          <li>{line}</li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td class="actions">
                    <button type="button" class="secondary" aria-label={`Reconcile ${r.agentId} (run ${r.runId})`} onClick={() => (setPassError(null), setConfirming(r))}>
                      Reconcile
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {more && <p class="hint">Some agents have more than 50 such runs: only their newest 50 are listed.</p>}

      {confirming && (
        <ConfirmDialog
          title={`Reconcile the runs of ${confirming.agentId}?`}
          confirmLabel="Reconcile"
          busy={busy}
          error={passError}
          onCancel={() => setConfirming(null)}
          onConfirm={() => void reconcile(confirming)}
        >
          <p>
            One reconciliation pass over every run of {confirming.agentId}: runs whose owner is gone are interrupted, and interrupted runs (such as {confirming.runId}) are assessed
            into recovery pending. No run is claimed or discarded.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
