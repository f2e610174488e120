/**
 * MCP clients for tests: the official client SDK over Streamable HTTP (against a test server's
 * /mcp) or over stdio (spawning the built CLI as users do: `npm --silent run burrow -- mcp
 * --stdio`), and readers for tool results.
 */
import { expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { TestServer } from './harness.js';

export const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * The command an MCP client's configuration runs: the built CLI through npm. `--silent`, because
 * without it npm writes its own banner ("> burrow@… burrow") to stdout, inside the protocol stream.
 */
export const STDIO_COMMAND = { command: 'npm', args: ['--silent', 'run', 'burrow', '--', 'mcp', '--stdio'] };

export type ToolCall = Awaited<ReturnType<Client['callTool']>>;

export interface RuntimeHeaders {
  scope?: string | null;
  session?: string | null;
  conversation?: string | null;
}

/** An MCP client over Streamable HTTP; `graphqlUrl` is the test server's /graphql URL. */
export async function connectHttp(graphqlUrl: string, token: string, runtime: RuntimeHeaders = {}): Promise<Client> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (runtime.scope) headers['burrow-continuity-scope'] = runtime.scope;
  if (runtime.session) headers['burrow-session'] = runtime.session;
  if (runtime.conversation) headers['burrow-conversation'] = runtime.conversation;
  const client = new Client({ name: 'burrow-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(graphqlUrl.replace(/\/graphql$/, '/mcp')), { requestInit: { headers } }));
  return client;
}

/** `npm --silent run burrow -- mcp --stdio` as a child process, with the database and identity in `env`. */
export function stdioTransport(env: Record<string, string>) {
  const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => !k.startsWith('BURROW_') && k !== 'DATABASE_URL' && v !== undefined)) as Record<string, string>;
  return new StdioClientTransport({
    ...STDIO_COMMAND,
    cwd: ROOT,
    env: { ...baseEnv, BURROW_LOG_LEVEL: 'error', BURROW_TIDDLE_SCHEDULER: 'false', ...env },
    stderr: 'pipe',
  });
}

export async function connectStdio(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'burrow-test', version: '1.0.0' });
  await client.connect(stdioTransport(env));
  return client;
}

/** The structured result of a successful call; fails the test on a tool error. */
export function ok<T = Record<string, any>>(result: ToolCall): T {
  if (result.isError) throw new Error(`expected success, got ${JSON.stringify(result.structuredContent ?? result.content)}`);
  expect(result.structuredContent).toBeDefined();
  // The text content carries the same JSON for clients that show only text.
  expect(JSON.parse((result.content as { type: string; text: string }[])[0].text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

/** The error of a failed call (a tool error, not a protocol error). */
export function toolFailure(result: ToolCall): Record<string, any> {
  if (!result.isError) throw new Error(`expected a tool error, got ${JSON.stringify(result.structuredContent)}`);
  const error = (result.structuredContent as { error: Record<string, any> }).error;
  expect((result.content as { type: string; text: string }[])[0].text.startsWith(`${error.code}: `)).toBe(true);
  return error;
}

export const call = (client: Client, name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

/**
 * The GraphQL selection that reads back exactly the fields an MCP result object carries, nested
 * objects (and lists of them) by their own keys. A field GraphQL does not have fails validation,
 * so comparing the answer with the MCP object checks each name and each value at once.
 */
export function selectionOf(value: Record<string, unknown>): string {
  return Object.entries(value)
    .map(([key, field]) => {
      const sample = Array.isArray(field) ? field[0] : field;
      return sample !== null && typeof sample === 'object' ? `${key} { ${selectionOf(sample as Record<string, unknown>)} }` : key;
    })
    .join(' ');
}

/** The MCP tools the server offers, sorted by name (docs/mcp.md lists the same ten). */
export const TOOL_NAMES = [
  'brain_read',
  'brain_remove',
  'brain_save',
  'brain_search',
  'brain_update',
  'memory_rolling_search',
  'memory_working_search',
  'memory_working_write',
  'session_read_handoff',
  'session_write_handoff',
];

/** An agent (created if absent) and a new agent token for it, as an MCP client sends it. */
export async function mcpAgentToken(server: TestServer, agentId: string) {
  await server.agentClient(agentId);
  return (await server.app.services.tokens.create({ kind: 'agent', name: `mcp-${agentId}`, agentId })).token;
}
