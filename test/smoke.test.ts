import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from './support/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

it('creates an agent and reads its profile', async () => {
  const created = await server.operator.createAgent({ input: { id: 'smoke', name: 'Smoke' } });
  expect(created.createAgent.__typename).toBe('CreateAgentSuccess');
  const { agent } = await server.operator.agent({ id: 'smoke' });
  expect(agent?.profile.map((d) => d.kind)).toEqual(['SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY']);
});
