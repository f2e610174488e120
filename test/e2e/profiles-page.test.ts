/**
 * A page of agents with their profiles, on the shipped server (its compiled operations), from
 * outside its process: the page's profile batch (src/domains/agents/agents.graphql.ts,
 * `profileLoader`) is one DataLoader per place in the operation, keyed by the field's nodes. Three
 * places in one operation (now with the content only, now with every column, and as of an instant)
 * must each answer with their own documents for every agent of the page, in kind order; a place
 * as of a time before the agents existed answers with none. test/point-in-time.test.ts counts the
 * statements of such a page in process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../../clients/typescript/sdk.js';
import { operatorClient, startShipped, type ShippedServer } from '../support/shipped.js';

const KINDS = ['SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY'];
const AGENTS = ['page-a', 'page-b', 'page-c'];
const PAGE = `query ($asOf: DateTime) {
  agents(first: 50) { edges { node {
    agentId
    now: profile { kind content revision }
    full: profile { kind revision updatedAt updatedBy { kind principalId } }
    then: profile(asOf: $asOf) { kind content revision }
  } } }
}`;

interface Document {
  kind: string;
  content?: string;
  revision: number;
  updatedAt?: string;
  updatedBy?: { kind: string; principalId: string };
}
type Page = { agents: { edges: { node: { agentId: string; now: Document[]; full: Document[]; then: Document[] } }[] } };

let server: ShippedServer;
let operator: BurrowClient;
let beforeAgents: string;
let between: string;

async function write(agentId: string, kind: string, content: string, expectedRevision: number): Promise<string> {
  const written = (await operator.updateProfileDocument({ input: { agentId, kind: kind as 'SOUL', content, expectedRevision } })).updateProfileDocument;
  if (written.__typename !== 'UpdateProfileDocumentSuccess') throw new Error(JSON.stringify(written));
  return written.document.updatedAt;
}

beforeAll(async () => {
  server = await startShipped();
  operator = operatorClient(server);
  beforeAgents = new Date(Date.now() - 60_000).toISOString();
  for (const agentId of AGENTS) expect((await operator.createAgent({ input: { agentId, name: agentId } })).createAgent.__typename).toBe('CreateAgentSuccess');
  // page-a's soul at revision 2 and page-b's rules at revision 1 as of `between`; both move on after it.
  between = await write('page-a', 'SOUL', 'a soul, second', 1);
  while (Date.now() <= Date.parse(between)) await new Promise((resolve) => setTimeout(resolve, 2));
  await write('page-a', 'SOUL', 'a soul, third', 2);
  await write('page-b', 'RULES', 'b rules, second', 1);
});

afterAll(async () => {
  await operator?.close();
  if (server) expect((await server.stop()).code).toBe(0);
});

const byAgent = (page: Page) => new Map(page.agents.edges.map(({ node }) => [node.agentId, node]));
const summary = (documents: Document[]) => documents.map((d) => `${d.kind}@${d.revision}${d.content ? `:${d.content}` : ''}`);
const created = KINDS.map((kind) => `${kind}@1`);

describe('a page of agents with their profiles, three places in one operation', () => {
  it('each place answers with its own documents for every agent, in kind order', async () => {
    const page = byAgent(await operator.request<Page>(PAGE, { asOf: between }));
    expect([...page.keys()].sort()).toEqual(AGENTS);

    const a = page.get('page-a')!;
    expect(summary(a.now)).toEqual(['SOUL@3:a soul, third', ...created.slice(1)]);
    expect(summary(a.then)).toEqual(['SOUL@2:a soul, second', ...created.slice(1)]);
    const b = page.get('page-b')!;
    expect(summary(b.now)).toEqual(['SOUL@1', 'RULES@2:b rules, second', ...created.slice(2)]);
    expect(summary(b.then)).toEqual(created);
    const c = page.get('page-c')!;
    expect(summary(c.now)).toEqual(created);
    expect(summary(c.then)).toEqual(created);

    // The place with every column (the other batch) has the same revisions, each with its author and time.
    for (const node of page.values()) {
      expect(node.full.map((d) => `${d.kind}@${d.revision}`)).toEqual(node.now.map((d) => `${d.kind}@${d.revision}`));
      for (const document of node.full) {
        expect(document.updatedBy).toEqual({ kind: 'OPERATOR', principalId: expect.any(String) });
        expect(Date.parse(document.updatedAt!)).toBeGreaterThan(Date.parse(beforeAgents));
      }
    }
    expect(Date.parse(a.full[0].updatedAt!)).toBeGreaterThan(Date.parse(between));
  });

  it('as of a time before the agents existed, that place has no documents and the others are unchanged', async () => {
    const page = byAgent(await operator.request<Page>(PAGE, { asOf: beforeAgents }));
    for (const agentId of AGENTS) {
      expect(page.get(agentId)!.then).toEqual([]);
      expect(page.get(agentId)!.now).toHaveLength(6);
    }
    expect(summary(page.get('page-a')!.now)[0]).toBe('SOUL@3:a soul, third');
  });
});
