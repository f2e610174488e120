/**
 * `burrow brain purge --agent ID --memory ID`: the operator's purge of a removed memory on the
 * command line, through the same service as brainPurge. It prints the removal receipt (never
 * content); a live or unknown memory is refused with a message and a non-zero exit.
 */
import { parseArgs } from 'node:util';
import { NotFoundError, ValidationError } from '../../lib/errors.js';
import { cliOperator } from '../settings/settings.cli.js';
import type { BrainsService } from './brains.service.js';

export const BRAIN_USAGE = `  brain purge --agent AGENT_ID --memory MEMORY_ID
                                            empty a removed memory's content and every revision's (operators;
                                            see docs/data-purge.md) and print its removal receipt`;

const out = (line: string) => process.stdout.write(`${line}\n`);

export async function brainCommand(args: string[], brains: BrainsService): Promise<void> {
  const [action, ...rest] = args;
  if (action !== 'purge') throw new Error(`brain needs an action:\n${BRAIN_USAGE}`);
  const { values } = parseArgs({ args: rest, options: { agent: { type: 'string' }, memory: { type: 'string' } } });
  if (!values.agent || !values.memory) throw new Error(`brain purge needs --agent AGENT_ID and --memory MEMORY_ID`);
  const input = { agentId: values.agent, memoryId: values.memory };
  let result;
  try {
    result = await brains.purge(cliOperator('cli:brain-purge'), input);
  } catch (error) {
    // The service's words, with what the operator typed: nothing was changed.
    if (error instanceof NotFoundError) throw new Error(`cannot purge: agent "${input.agentId}" has no memory "${input.memoryId}"; nothing was changed`);
    if (error instanceof ValidationError) throw new Error(`cannot purge: ${error.message}; nothing was changed`);
    throw error;
  }
  const { memory, receipt, alreadyPurged } = result;
  out(
    alreadyPurged
      ? `memory ${memory.id} of agent ${memory.agentId} was already purged at ${memory.purgedAt!.toISOString()}; nothing changed. Its receipt:`
      : `purged memory ${memory.id} of agent ${memory.agentId}`,
  );
  out(`receipt ${receipt.id} (${receipt.kind}) by ${receipt.actorKind} ${receipt.actorId}, completed ${receipt.completedAt?.toISOString() ?? 'never'}`);
  for (const [store, rows] of Object.entries(receipt.counts).sort(([a], [b]) => (a < b ? -1 : 1))) out(`  ${store}\t${rows}`);
  out(`content hash (SHA-256): ${receipt.contentHash}`);
}
