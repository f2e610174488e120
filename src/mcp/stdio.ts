/**
 * MCP over stdio, for a runtime on the same machine that starts `burrow mcp --stdio` as a child
 * process. The agent token and the runtime's scope, session and conversation come from the
 * environment (see loadMcpStdioIdentity); stdout carries only protocol messages, logs go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { authenticate, stdioCredentials } from '../auth/authenticate.js';
import type { McpStdioIdentity } from '../config.mcp-stdio.js';
import { forbidden, unauthenticated } from '../lib/errors.js';
import type { Logger } from '../lib/logger.js';
import type { Services } from '../services.js';
import { createMcpServer } from './server.js';

/** Serves until stdin ends or the process is asked to stop. */
export async function serveMcpStdio(deps: { services: Services; logger: Logger; identity: McpStdioIdentity }): Promise<void> {
  const { services, logger, identity } = deps;
  // Authenticated per call as well as at start, so a revoked token stops working at once.
  const viewer = async () => {
    const found = await authenticate(services.tokens, stdioCredentials(identity));
    if (!found) throw unauthenticated('BURROW_TOKEN is not a valid token (unknown or revoked)');
    if (found.principal !== 'AGENT') throw forbidden('MCP tools act as one agent: BURROW_TOKEN must be a token bound to the agent (token create --agent AGENT_ID)');
    return found;
  };
  await viewer();
  if (!identity.scope) logger.warn('BURROW_CONTINUITY_SCOPE is unset: scoped tools will fail with continuity_scope_required');
  const server = createMcpServer({ services, logger, viewer });
  const transport = new StdioServerTransport();
  // The runtime closing the pipe or stopping the process both end it cleanly (database closed).
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.connect(transport);
  await ended;
  await server.close();
}
