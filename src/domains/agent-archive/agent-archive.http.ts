/**
 * GET /agents/{id}/archive (download, `?includeEvents=true`) and POST /agents/{id}/archive
 * (upload, `?replace=true`), on the GraphQL server's port, for operators only. An upload is
 * spooled to a temporary file (BURROW_ARCHIVE_MAX_BYTES at most) and imported from it, so no
 * archive is held in memory. Every refusal is JSON `{"error":{"code","message"}}` with its status.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type pg from 'pg';
import { authenticate, nodeHeaderCredentials } from '../../auth/authenticate.js';
import { isConnectionLoss } from '../../lib/connection-errors.js';
import type { Logger } from '../../lib/logger.js';
import type { Services } from '../../services.js';
import { exportAgentArchive } from './agent-archive.export.js';
import { AGENT_ID_PATTERN, AgentArchiveError, type ArchiveErrorCode } from './agent-archive.format.js';
import { importAgentArchive } from './agent-archive.import.js';

const ARCHIVE_PATH = /^\/agents\/([^/?]+)\/archive(?:\?(.*))?$/;
export const isArchivePath = (url: string | undefined) => url !== undefined && ARCHIVE_PATH.test(url);

const STATUS: Record<ArchiveErrorCode, number> = { BAD_ARCHIVE: 400, BAD_REQUEST: 400, NOT_FOUND: 404, ALREADY_EXISTS: 409, LIMIT_EXCEEDED: 413 };

function refuse(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { code, message } }));
}

/** Counts the bytes that pass and fails the stream past the limit. */
const limitBytes = (limit: number) => {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > limit ? new AgentArchiveError('LIMIT_EXCEEDED', `the archive is larger than BURROW_ARCHIVE_MAX_BYTES (${limit} bytes)`) : null, chunk);
    },
  });
};

export function createArchiveHttpHandler(deps: { services: Services; pool: pg.Pool; logger: Logger }) {
  const { services, pool, logger } = deps;
  const maxBytes = services.config.limits.archiveBytes;

  async function download(res: ServerResponse, agentId: string, query: URLSearchParams) {
    const found = AGENT_ID_PATTERN.test(agentId) && (await pool.query('SELECT 1 FROM agents WHERE id = $1', [agentId])).rowCount;
    if (!found) return refuse(res, 404, 'NOT_FOUND', `no agent "${agentId}"`);
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-disposition': `attachment; filename="${agentId}.burrow-agent.gz"` });
    try {
      await exportAgentArchive(pool, agentId, res, { includeEvents: query.get('includeEvents') === 'true' });
    } catch (error) {
      // Headers are out: cutting the body short leaves a file without its trailer, which no import accepts.
      logger.error('agent archive export failed', { agentId, error: (error as Error)?.message ?? String(error) });
      res.destroy();
    }
  }

  async function upload(req: IncomingMessage, res: ServerResponse, agentId: string, query: URLSearchParams) {
    if (!AGENT_ID_PATTERN.test(agentId)) return refuse(res, 400, 'BAD_REQUEST', `"${agentId}" is not an agent id (${AGENT_ID_PATTERN.source})`);
    if (Number(req.headers['content-length'] ?? 0) > maxBytes) {
      return refuse(res, 413, 'LIMIT_EXCEEDED', `the archive is larger than BURROW_ARCHIVE_MAX_BYTES (${maxBytes} bytes)`, { connection: 'close' });
    }
    const dir = await mkdtemp(join(tmpdir(), 'burrow-archive-'));
    try {
      const file = join(dir, 'upload.gz');
      await pipeline(req, limitBytes(maxBytes), createWriteStream(file));
      const summary = await importAgentArchive(pool, () => createReadStream(file), { agentId, replace: query.get('replace') === 'true' });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(summary));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  return async function handleArchive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const [, rawId, rawQuery] = ARCHIVE_PATH.exec(req.url ?? '')!;
      if (req.method !== 'GET' && req.method !== 'POST') return refuse(res, 405, 'METHOD_NOT_ALLOWED', 'GET downloads an agent archive, POST uploads one', { allow: 'GET, POST' });
      const viewer = await authenticate(services.tokens, nodeHeaderCredentials(req.headers));
      if (!viewer) return refuse(res, 401, 'UNAUTHENTICATED', 'a valid operator bearer token is required (Authorization: Bearer <token>)', { 'www-authenticate': 'Bearer' });
      if (viewer.principal !== 'OPERATOR') return refuse(res, 403, 'FORBIDDEN', 'agent archives are for operators: use an operator token');
      const retryAfter = services.rateLimiter.take(viewer.tokenId);
      if (retryAfter !== null) return refuse(res, 429, 'RATE_LIMITED', `too many requests for this token; retry in ${retryAfter} s`, { 'retry-after': String(retryAfter) });
      const agentId = decodeURIComponent(rawId);
      const query = new URLSearchParams(rawQuery ?? '');
      await (req.method === 'GET' ? download(res, agentId, query) : upload(req, res, agentId, query));
    } catch (error) {
      if (res.headersSent) return void res.destroy();
      if (error instanceof AgentArchiveError) return refuse(res, STATUS[error.code], error.code, error.message, error.code === 'LIMIT_EXCEEDED' ? { connection: 'close' } : {});
      if (error instanceof URIError) return refuse(res, 400, 'BAD_REQUEST', 'the agent id in the path is not valid percent-encoding');
      if (isConnectionLoss(error)) return refuse(res, 503, 'DATABASE_UNAVAILABLE', 'the database is unavailable; retry', { 'retry-after': '1' });
      logger.error('agent archive request failed', { error: (error as Error)?.message ?? String(error) });
      refuse(res, 500, 'INTERNAL_SERVER_ERROR', 'Unexpected error.');
    }
  };
}
