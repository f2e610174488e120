/** Data written straight into Burrow's tables after its migrations (not through the API). */
import type pg from 'pg';
import { PROFILE_KINDS } from '../../src/domains/agents/agents.sql.js';

export const agentId = (i: number) => `bench-${String(i).padStart(5, '0')}`;

/**
 * `count` agents (bench-00001 …), each with its six profile documents of about 300 characters
 * (50 agents answer about 95 KB, as in the issue), created a second apart.
 */
export async function seedAgents(pool: pg.Pool, count: number): Promise<void> {
  await pool.query(
    `INSERT INTO agents (id, name, created_at, created_by, last_event_sequence)
     SELECT 'bench-' || lpad(i::text, 5, '0'), 'Bench agent ' || i, timestamptz '2026-01-01' + make_interval(secs => i), 'bench', 0
       FROM generate_series(1, $1::int) AS i
     ON CONFLICT (id) DO NOTHING`,
    [count],
  );
  await pool.query(
    `INSERT INTO agent_profile_documents (agent_id, kind, content, revision, updated_at, updated_by_kind, updated_by_id)
     SELECT a.id, k.kind, 'The ' || lower(k.kind) || ' of ' || a.name || ': ' || repeat(md5(a.id || k.kind) || ' ', 8), 1, a.created_at, 'OPERATOR', 'bench'
       FROM agents a CROSS JOIN unnest($1::text[]) AS k(kind) WHERE a.id LIKE 'bench-%'
     ON CONFLICT (agent_id, kind) DO NOTHING`,
    [[...PROFILE_KINDS]],
  );
  await pool.query('ANALYZE agents; ANALYZE agent_profile_documents;');
}
