/**
 * Every per-agent row belongs to an agent that exists, and rows about a memory, a run, a profile
 * document or a conversation session belong to one that exists: the keys are in the catalog,
 * an orphan is refused by the database, and an agent with rows cannot be deleted (RESTRICT).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './support/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

interface ForeignKey {
  table: string;
  name: string;
  columns: string[];
  references: string;
  referencedColumns: string[];
  onDelete: string;
}

async function foreignKeys(): Promise<ForeignKey[]> {
  const { rows } = await server.database.pool.query<ForeignKey>(`
    SELECT c.conrelid::regclass::text AS "table", c.conname AS name,
           ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i) AS columns,
           c.confrelid::regclass::text AS "references",
           ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i) AS "referencedColumns",
           c.confdeltype::text AS "onDelete"
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
    WHERE c.contype = 'f' AND n.nspname = 'public'
    ORDER BY 1, 2`);
  return rows;
}

/** SQLSTATE and constraint of a refused statement, rolled back so nothing stays. */
async function refused(statement: string, params: unknown[] = []) {
  const connection = await server.database.pool.connect();
  try {
    await connection.query('BEGIN');
    return await connection.query(statement, params).then(
      () => null,
      (error: { code?: string; constraint?: string }) => ({ code: error.code, constraint: error.constraint }),
    );
  } finally {
    await connection.query('ROLLBACK');
    connection.release();
  }
}

describe('foreign keys', () => {
  it('the catalog declares them, agent_id leading every key, RESTRICT on delete', async () => {
    const keys = await foreignKeys();
    const toAgent = (table: string) => ({ table, name: `${table}_agent_fk`, columns: ['agent_id'], references: 'agents', referencedColumns: ['id'], onDelete: 'r' });
    expect(keys).toEqual(
      [
        toAgent('agent_events'),
        toAgent('agent_profile_documents'),
        toAgent('agent_settings'),
        {
          table: 'agent_profile_revisions',
          name: 'agent_profile_revisions_document_fk',
          columns: ['agent_id', 'kind'],
          references: 'agent_profile_documents',
          referencedColumns: ['agent_id', 'kind'],
          onDelete: 'r',
        },
        toAgent('api_tokens'),
        {
          table: 'brain_embeddings',
          name: 'brain_embeddings_memory_fk',
          columns: ['agent_id', 'memory_id'],
          references: 'brain_memories',
          referencedColumns: ['agent_id', 'id'],
          onDelete: 'r',
        },
        toAgent('brain_memories'),
        {
          table: 'brain_memory_revisions',
          name: 'brain_memory_revisions_memory_fk',
          columns: ['agent_id', 'memory_id'],
          references: 'brain_memories',
          referencedColumns: ['agent_id', 'id'],
          onDelete: 'r',
        },
        {
          table: 'continuity_effects',
          name: 'continuity_effects_run_fk',
          columns: ['agent_id', 'run_id'],
          references: 'continuity_state',
          referencedColumns: ['agent_id', 'run_id'],
          onDelete: 'r',
        },
        {
          table: 'continuity_log',
          name: 'continuity_log_run_fk',
          columns: ['agent_id', 'run_id'],
          references: 'continuity_state',
          referencedColumns: ['agent_id', 'run_id'],
          onDelete: 'r',
        },
        toAgent('continuity_owners'),
        toAgent('continuity_state'),
        toAgent('dream_diary_entries'),
        // Declared by the hand-written migration 0003 (NO ACTION, which refuses the same deletes).
        {
          table: 'conversation_archive_entries',
          name: 'conversation_archive_entries_archive_fk',
          columns: ['agent_id', 'session_id', 'generation'],
          references: 'conversation_archives',
          referencedColumns: ['agent_id', 'session_id', 'generation'],
          onDelete: 'a',
        },
        {
          table: 'conversation_archives',
          name: 'conversation_archives_session_fk',
          columns: ['agent_id', 'session_id'],
          references: 'conversation_sessions',
          referencedColumns: ['agent_id', 'session_id'],
          onDelete: 'r',
        },
        {
          table: 'conversation_entries',
          name: 'conversation_entries_session_fk',
          columns: ['agent_id', 'session_id'],
          references: 'conversation_sessions',
          referencedColumns: ['agent_id', 'session_id'],
          onDelete: 'r',
        },
        toAgent('conversation_sessions'),
        toAgent('idempotency_keys'),
        toAgent('preference_learning_state'),
        toAgent('preference_signals'),
        toAgent('profile_audit_log'),
        toAgent('session_handoffs'),
        toAgent('tiddle_cards'),
        toAgent('tiddle_entries'),
        toAgent('tiddle_envelopes'),
        toAgent('tiddle_settings'),
        toAgent('working_records'),
      ].sort((a, b) => (a.table === b.table ? a.name.localeCompare(b.name) : a.table < b.table ? -1 : 1)),
    );
    // Every table with an agent_id column reaches agents through one of them, except the
    // removal receipts, which must outlive the agent they describe.
    const { rows } = await server.database.pool.query<{ table: string }>(`
      SELECT c.relname AS "table" FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attname = 'agent_id' AND NOT a.attisdropped ORDER BY 1`);
    expect(rows.map((r) => r.table).filter((t) => !keys.some((k) => k.table === t && k.columns[0] === 'agent_id'))).toEqual(['data_removal_receipts']);
  });

  it('refuses rows of an agent that does not exist, and rows about a memory, run or session that does not exist', async () => {
    await server.agentClient('fk-agent', { scope: 'p', session: 's' });
    const now = '2026-06-01T12:00:00Z';
    expect(
      await refused(
        `INSERT INTO working_records (agent_id, id, project, kind, state, title, content, source_refs, pinned, ttl_days, expires_at, revision, created_at, updated_at, written_by_kind, written_by_id)
         VALUES ('ghost', 'w1', 'p', 'FINDING', 'ACTIVE', 't', 'c', '{}', false, 90, $1, 1, $1, $1, 'OPERATOR', 'x')`,
        [now],
      ),
    ).toEqual({ code: '23503', constraint: 'working_records_agent_fk' });
    expect(
      await refused(
        `INSERT INTO agent_profile_documents (agent_id, kind, content, revision, updated_at, updated_by_kind, updated_by_id) VALUES ('ghost', 'SOUL', '', 1, $1, 'OPERATOR', 'x')`,
        [now],
      ),
    ).toEqual({ code: '23503', constraint: 'agent_profile_documents_agent_fk' });
    expect(
      await refused(
        `INSERT INTO brain_memories (agent_id, id, title, content, revision, ownership, created_by_kind, created_by_id, updated_by_kind, updated_by_id, created_at, updated_at)
         VALUES ('ghost', 'm1', 't', 'c', 1, 'AGENT', 'AGENT', 'ghost', 'AGENT', 'ghost', $1, $1)`,
        [now],
      ),
    ).toEqual({ code: '23503', constraint: 'brain_memories_agent_fk' });
    expect(
      await refused(`INSERT INTO agent_events (agent_id, sequence, stream, type, subject_id, payload, occurred_at) VALUES ('ghost', 1, 'working', 'x', 'y', '{}', $1)`, [now]),
    ).toEqual({ code: '23503', constraint: 'agent_events_agent_fk' });
    expect(await refused(`INSERT INTO api_tokens (id, name, kind, agent_id, token_hash, created_at) VALUES ('t1', 'n', 'agent', 'ghost', 'h', $1)`, [now])).toEqual({
      code: '23503',
      constraint: 'api_tokens_agent_fk',
    });
    // The agent exists, the memory does not: a revision of it is refused.
    expect(
      await refused(
        `INSERT INTO brain_memory_revisions (agent_id, memory_id, revision, action, title, content, source_refs, ownership, actor_kind, actor_id, created_at)
         VALUES ('fk-agent', 'no-such-memory', 1, 'created', 't', 'c', '{}', 'AGENT', 'AGENT', 'fk-agent', $1)`,
        [now],
      ),
    ).toEqual({ code: '23503', constraint: 'brain_memory_revisions_memory_fk' });
    expect(
      await refused(
        `INSERT INTO continuity_log (agent_id, run_id, position, to_state, generation, owner_id, reason, event_sequence, at) VALUES ('fk-agent', 'no-such-run', 1, 'RUNNING', 1, 'o', 'r', 1, $1)`,
        [now],
      ),
    ).toEqual({ code: '23503', constraint: 'continuity_log_run_fk' });
    expect(
      await refused(`INSERT INTO conversation_entries (agent_id, session_id, id, position, payload, created_at) VALUES ('fk-agent', 'no-such-session', 'e1', 1, '{}', $1)`, [now]),
    ).toEqual({ code: '23503', constraint: 'conversation_entries_session_fk' });
    // A memory of another agent does not count: the key is (agent_id, memory_id).
    const other = await server.agentClient('fk-other');
    const saved = (await other.brainSave({ input: { title: 'theirs', content: 'x' } })).brainSave;
    if (saved.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(saved));
    expect(
      await refused(
        `INSERT INTO brain_memory_revisions (agent_id, memory_id, revision, action, title, content, source_refs, ownership, actor_kind, actor_id, created_at)
         VALUES ('fk-agent', $2, 99, 'updated', 't', 'c', '{}', 'AGENT', 'AGENT', 'fk-agent', $1)`,
        [now, saved.memory.id],
      ),
    ).toEqual({ code: '23503', constraint: 'brain_memory_revisions_memory_fk' });
  });

  it('an agent with rows cannot be deleted out from under them, and nothing was removed', async () => {
    const client = await server.agentClient('fk-keep', { scope: 'p' });
    const written = (await client.memoryWorkingWrite({ input: { kind: 'FINDING', title: 'kept', content: 'c' } })).memoryWorkingWrite;
    expect(written.__typename).toBe('MemoryWorkingWriteSuccess');
    const result = await refused(`DELETE FROM agents WHERE id = 'fk-keep'`);
    // PostgreSQL 17 and later answer restrict_violation (23001) for RESTRICT; earlier servers foreign_key_violation (23503).
    expect(['23001', '23503']).toContain(result?.code);
    expect(result?.constraint).toMatch(/_agent_fk$/);
    expect((await client.memoryWorkingSearch({ query: 'kept' })).memoryWorkingSearch.map((r) => r.title)).toEqual(['kept']);
    expect((await server.operator.agent({ id: 'fk-keep' })).agent?.name).toBe('fk-keep');
  });
});

describe('a write naming an agent that does not exist', () => {
  it('answers NotFound (never INTERNAL_SERVER_ERROR) and stores nothing', async () => {
    const op = await server.client({ scope: 'p', session: 's' });
    const outcome = async (call: Promise<Record<string, { __typename: string } | unknown>>) =>
      call.then(
        (r) => (Object.values(r)[0] as { __typename: string }).__typename,
        (e: { code?: string }) => e.code,
      );
    expect(await outcome(op.memoryWorkingWrite({ input: { agentId: 'ghost', kind: 'FINDING', title: 't', content: 'c' } }))).toBe('NotFound');
    expect(await outcome(op.sessionWriteHandoff({ input: { agentId: 'ghost', title: 't', goal: 'g', outcome: 'o', body: 'b' } }))).toBe('NotFound');
    expect(await outcome(op.brainSave({ input: { agentId: 'ghost', title: 't', content: 'c' } }))).toBe('NotFound');
    expect(await outcome(op.appendConversationEntry({ input: { agentId: 'ghost', payload: '{}' } }))).toBe('NotFound');
    // A token bound to it cannot be made either (burrow token create --agent ghost).
    await expect(server.app.services.tokens.create({ kind: 'agent', name: 'ghost', agentId: 'ghost' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      resource: 'Agent',
      resourceId: 'ghost',
    });
    const { rows } = await server.database.pool.query(`
      SELECT (SELECT count(*) FROM working_records WHERE agent_id = 'ghost') + (SELECT count(*) FROM session_handoffs WHERE agent_id = 'ghost')
           + (SELECT count(*) FROM brain_memories WHERE agent_id = 'ghost')
           + (SELECT count(*) FROM conversation_sessions WHERE agent_id = 'ghost') + (SELECT count(*) FROM api_tokens WHERE agent_id = 'ghost') AS n`);
    expect(Number(rows[0].n)).toBe(0);
  });
});
