/**
 * One MCP server over the domain services, bound to the caller's runtime identity. The transport
 * (Streamable HTTP at /mcp, or stdio) decides how the viewer is found; the tools never look at
 * headers or the environment themselves.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Viewer } from '../auth/viewer.js';
import { parseInput } from '../lib/input-spec.js';
import type { Logger } from '../lib/logger.js';
import type { Services } from '../services.js';
import { assertCleanArguments } from '../lib/text-policy.js';
import { jsonSchemaOf } from './json-schema.js';
import { toolError, toolResult } from './results.js';
import { TOOLS } from './tools.js';
import { withRequestScope } from '../db/read-your-writes.js';
import { keyedArguments, withConnectionRetries } from './retries.js';

export const MCP_SERVER_INFO = { name: 'burrow', version: '0.1.0' } as const;

const INSTRUCTIONS =
  'Burrow keeps your memory. Working memory (memory_working_*) holds operational evidence of the current continuity scope; ' +
  'handoffs (session_*_handoff) carry a session forward; rolling cards (memory_rolling_search) are compact continuity summaries; ' +
  'Brains (brain_*) hold durable saved memories. The runtime chooses your agent, scope, session and conversation. ' +
  'Failures come back as tool errors with a code (VALIDATION_FAILED, NOT_FOUND, REVISION_CONFLICT, OPERATOR_OWNED, continuity_scope_mismatch, continuity_scope_required, AGENT_MISMATCH, SESSION_REQUIRED, ...); nothing was changed by a failed call.';

let published: Tool[] | null = null;

/** The tool list as MCP publishes it: schemas built once from the shared input descriptors. */
export const toolList = (): Tool[] =>
  (published ??= TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchemaOf(t.input),
    annotations: { title: t.title, readOnlyHint: t.readOnly, destructiveHint: t.destructive ?? false, openWorldHint: false },
  })));

export interface McpServerDeps {
  services: Services;
  logger: Logger;
  /** The acting viewer for one tool call; throws a BurrowError (e.g. UNAUTHENTICATED) when there is none. */
  viewer(): Promise<Viewer>;
}

export function createMcpServer(deps: McpServerDeps): Server {
  const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const tools = toolList();
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const definition = TOOLS.find((t) => t.name === request.params.name);
    if (!definition) throw new McpError(ErrorCode.InvalidParams, `unknown tool "${request.params.name}"; the tools are ${TOOLS.map((t) => t.name).join(', ')}`);
    try {
      const viewer = await deps.viewer();
      const args = parseInput(definition.input, request.params.arguments);
      // The same text policy as every GraphQL argument (GraphQL applies it in its schema plugin).
      assertCleanArguments(args);
      const keyed = keyedArguments(definition, args);
      // Its own request scope (stdio has no HTTP edge): the call's commits are the token's (db/read-your-writes.ts).
      return toolResult(await withConnectionRetries(definition, () => withRequestScope(() => definition.run(deps.services, viewer, keyed), viewer.tokenId)));
    } catch (error) {
      return toolError(error, deps.logger);
    }
  });
  return server;
}
