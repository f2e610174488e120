/**
 * The identity `burrow mcp --stdio` runs as, read from the environment.
 */
import { ConfigError, type Env } from './config.env.js';

/** The runtime identity of `burrow mcp --stdio`: what the HTTP transport reads from headers. */
export interface McpStdioIdentity {
  /** The agent's bearer token. */
  token: string;
  scope: string | null;
  sessionId: string | null;
  conversationId: string | null;
}

export const MCP_STDIO_VARIABLES = {
  token: 'BURROW_TOKEN',
  scope: 'BURROW_CONTINUITY_SCOPE',
  sessionId: 'BURROW_SESSION',
  conversationId: 'BURROW_CONVERSATION',
} as const;

/** Reads the stdio MCP identity; the token is required, blank values count as absent (like headers). */
export function loadMcpStdioIdentity(env: Env = process.env): McpStdioIdentity {
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : null;
  };
  const token = read(MCP_STDIO_VARIABLES.token);
  if (!token) {
    throw new ConfigError([`${MCP_STDIO_VARIABLES.token} is unset: set it to the agent's token (npm run burrow -- token create --agent AGENT_ID --name NAME)`]);
  }
  return {
    token,
    scope: read(MCP_STDIO_VARIABLES.scope),
    sessionId: read(MCP_STDIO_VARIABLES.sessionId),
    conversationId: read(MCP_STDIO_VARIABLES.conversationId),
  };
}
