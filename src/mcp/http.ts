/**
 * MCP over Streamable HTTP at /mcp, on the GraphQL server's port. Stateless: every POST is
 * authenticated like a GraphQL request (agent bearer token; scope, session and conversation from
 * the Burrow-* headers) and served by a server bound to that viewer, so any instance can answer
 * any request and nothing lives between requests.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, nodeHeaderCredentials } from '../auth/authenticate.js';
import { isConnectionLoss } from '../lib/connection-errors.js';
import { databaseUnavailableError } from '../lib/error-masking.js';
import type { Logger } from '../lib/logger.js';
import type { Services } from '../services.js';

export const MCP_PATH = '/mcp';

/** The MCP SDK and the tools load at the first MCP request, not at every server start. */
let sdk: Promise<[typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'), typeof import('./server.js')]> | null = null;
const loadSdk = () => (sdk ??= Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('./server.js')]));

export const isMcpPath = (url: string | undefined) => url !== undefined && (url === MCP_PATH || url.startsWith(`${MCP_PATH}?`));

/** A JSON-RPC error answer before any MCP message is handled; `code` is Burrow's machine-readable one. */
function refuse(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message, data: { code } }, id: null }));
}

export function createMcpHttpHandler(deps: { services: Services; logger: Logger }) {
  const { services, logger } = deps;
  return async function handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      // Stateless: no server-initiated stream (GET) and no session to delete (DELETE).
      if (req.method !== 'POST') return refuse(res, 405, 'METHOD_NOT_ALLOWED', 'this MCP endpoint is stateless: send JSON-RPC messages with POST', { allow: 'POST' });
      // The request-body limit every GraphQL transport has (docs/security.md), checked before the
      // body is read; the SDK's own reader stops a chunked body without a length at 4 MB.
      const bodyLimit = services.config.limits.bodyBytes;
      if (Number(req.headers['content-length'] ?? 0) > bodyLimit) {
        return refuse(res, 413, 'LIMIT_EXCEEDED', `the request body is larger than BURROW_MAX_BODY_BYTES (${bodyLimit} bytes)`, { connection: 'close' });
      }
      const viewer = await authenticate(services.tokens, nodeHeaderCredentials(req.headers));
      if (!viewer) {
        return refuse(res, 401, 'UNAUTHENTICATED', 'a valid agent bearer token is required (Authorization: Bearer <token>)', { 'www-authenticate': 'Bearer' });
      }
      if (viewer.principal !== 'AGENT') {
        return refuse(res, 403, 'FORBIDDEN', 'MCP tools act as one agent: use a token bound to the agent (burrow token create --agent AGENT_ID)');
      }
      // The same per-token bucket as GraphQL requests (docs/security.md).
      const retryAfter = services.rateLimiter.take(viewer.tokenId);
      if (retryAfter !== null) {
        return refuse(res, 429, 'RATE_LIMITED', `too many requests for this token; retry in ${retryAfter} s`, { 'retry-after': String(retryAfter) });
      }
      const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await loadSdk();
      const server = createMcpServer({ services, logger, viewer: async () => viewer });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (error) {
      if (isConnectionLoss(error)) {
        if (!res.headersSent) refuse(res, 503, 'DATABASE_UNAVAILABLE', databaseUnavailableError().message, { 'retry-after': '1' });
        else res.end();
        return;
      }
      logger.error('MCP request failed', { error: (error as Error)?.message ?? String(error) });
      if (!res.headersSent) refuse(res, 500, 'INTERNAL_SERVER_ERROR', 'Unexpected error.');
      else res.end();
    }
  };
}
