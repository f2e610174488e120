/**
 * `burrow agent export|import`: one agent as a portable archive file (docs/agent-archive.md).
 * Progress goes to stderr every PROGRESS_ROWS rows; the summary to stdout.
 */
import { createReadStream, createWriteStream, openSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { exportAgentArchive } from './agent-archive.export.js';
import { importAgentArchive } from './agent-archive.import.js';

export const AGENT_ARCHIVE_USAGE = `  agent export --agent ID --out FILE [--include-events]
                                            write one agent (every store, originals byte-identical, no secrets) as a
                                            gzip archive with a SHA-256 over all of it (docs/agent-archive.md)
  agent import --file FILE [--agent NEW_ID] [--replace]
                                            verify the whole archive, then import it in one transaction; an existing
                                            agent is refused unless --replace`;

export const PROGRESS_ROWS = 10_000;

/** A progress reporter that writes a line each time the count passes another PROGRESS_ROWS. */
function progress(verb: string) {
  let next = PROGRESS_ROWS;
  return (rows: number, table: string) => {
    if (rows < next) return;
    process.stderr.write(`${verb} ${rows} rows (at ${table})\n`);
    next = (Math.floor(rows / PROGRESS_ROWS) + 1) * PROGRESS_ROWS;
  };
}

export async function agentCommand(args: string[], pool: pg.Pool): Promise<void> {
  const [action, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: { agent: { type: 'string' }, out: { type: 'string' }, file: { type: 'string' }, 'include-events': { type: 'boolean' }, replace: { type: 'boolean' } },
  });
  if (action === 'export') {
    if (!values.agent || !values.out) throw new Error('agent export needs --agent ID and --out FILE');
    // Opened before anything is read: an existing file is refused (EEXIST) and left as it is.
    const out = createWriteStream(values.out, { fd: openSync(values.out, 'wx') });
    try {
      const summary = await exportAgentArchive(pool, values.agent, out, { includeEvents: values['include-events'], onProgress: progress('exported') });
      process.stdout.write(`exported agent ${values.agent}: ${summary.rows} rows to ${values.out} (sha256 ${summary.sha256})\n`);
      for (const [table, n] of Object.entries(summary.counts)) if (n) process.stdout.write(`  ${table}\t${n}\n`);
    } catch (error) {
      // No half-written archive is left behind.
      out.destroy();
      await rm(values.out, { force: true });
      throw error;
    }
  } else if (action === 'import') {
    if (!values.file) throw new Error('agent import needs --file FILE');
    const file = values.file;
    const summary = await importAgentArchive(pool, () => createReadStream(file), {
      agentId: values.agent ?? null,
      replace: values.replace,
      onVerified: (header) => process.stderr.write(`verified ${file}: agent ${header.agentId}, exported ${header.exportedAt}; importing\n`),
      onProgress: progress('imported'),
    });
    process.stdout.write(
      `imported agent ${summary.fromAgentId}${summary.agentId !== summary.fromAgentId ? ` as ${summary.agentId}` : ''}: ${summary.rows} rows${summary.replaced ? ' (replaced the agent that was there)' : ''}\n`,
    );
  } else {
    throw new Error(`usage:\n${AGENT_ARCHIVE_USAGE}`);
  }
}
