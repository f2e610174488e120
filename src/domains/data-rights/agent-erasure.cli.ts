/**
 * `burrow agent erase --agent ID [--force]`: the same erasure as the agentErase mutation, as
 * the CLI operator. Progress (one line per batch) goes to stderr, the receipt to stdout.
 */
import { parseArgs } from 'node:util';
import { NotFoundError } from '../../lib/errors.js';
import { cliOperator } from '../settings/settings.cli.js';
import type { AgentErasure } from './agent-erasure.js';
import { OwnerLiveError } from './data-rights.errors.js';

export const AGENT_USAGE = `  agent erase --agent AGENT_ID [--force]    remove the agent and every store it has, in batches (re-run to finish
                                            one a crash interrupted); prints the receipt. --force: even while a
                                            runtime owner is live`;

export async function agentCommand(args: string[], erasure: AgentErasure): Promise<void> {
  const [action, ...rest] = args;
  const { values } = parseArgs({ args: rest, options: { agent: { type: 'string' }, force: { type: 'boolean' } } });
  if (action !== 'erase' || !values.agent) throw new Error(`usage:\n${AGENT_USAGE}`);
  try {
    const { receipt, resumed, longestTransactionMs } = await erasure.erase(cliOperator('cli:agent-erase'), { agentId: values.agent, force: values.force === true }, (p) =>
      process.stderr.write(`erasing ${values.agent}: ${p.store} ${p.storeTotal} rows removed (batch of ${p.rows} in ${p.ms.toFixed(0)} ms)\n`),
    );
    const lines = [
      `erased agent ${receipt.agentId}${resumed ? ' (finished an erasure that had started before)' : ''}`,
      `  receipt:      ${receipt.id}`,
      `  actor:        ${receipt.actorKind} ${receipt.actorId}${receipt.forced ? ' (forced past a live owner)' : ''}`,
      `  started:      ${receipt.startedAt.toISOString()}`,
      `  completed:    ${receipt.completedAt?.toISOString() ?? '-'}`,
      `  content hash: ${receipt.contentHash}`,
      `  longest transaction of this run: ${longestTransactionMs.toFixed(0)} ms`,
      ...Object.entries(receipt.counts)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([store, rows]) => `  ${store}\t${rows}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } catch (error) {
    if (error instanceof NotFoundError) throw new Error(`no agent "${values.agent}" (and no unfinished erasure of it)`);
    if (error instanceof OwnerLiveError) throw new Error(`${error.message}`);
    throw error;
  }
}
