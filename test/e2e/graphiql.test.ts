/**
 * GraphiQL as a person opens it on the shipped server (`npm start`, or `npm run burrow -- serve`
 * on the real server's pass): headless Chromium loads /graphql with every request beyond this
 * machine blocked, and each of the four example tabs is run with a token typed into its Headers.
 * What the result pane shows is compared with what the API answers over HTTP. The subscription
 * tab shows a live event of a mutation the test makes, and a subscription the server refuses
 * (no token, another agent's events) or ends (its token revoked) shows the error and stops
 * instead of spinning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page, Request } from 'playwright-core';
import type { BurrowClient } from '../../clients/typescript/sdk.js';
import { hasChromium, launchBrowser, NO_CHROMIUM, openPage, screenshot, type ConsolePage } from '../support/browser.js';
import { createShippedToken, operatorClient, postGraphQL, startShipped, type ShippedServer } from '../support/shipped.js';

/** Monaco renders spaces as U+00A0. */
const textOf = async (locator: Locator) => (await locator.innerText()).replace(/\u00a0/g, ' ');
/** The result pane wraps long lines (inside strings too): compared with the API's answer without whitespace. */
const squash = (text: string) => text.replace(/\s+/g, '');

// The tabs' operations as src/graphiql.ts writes them: the API's answer to the same text is what the pane must show.
const VIEWER = 'query Viewer { viewer { principal tokenName agentId } agents(first: 10) { edges { node { agentId name lastEventSequence } } } }';
const BRAIN_SEARCH = 'query BrainSearch { brainSearch(agentId: "hatchet", query: "deploys release") { hits { memory { id title content } matchedTerms } } }';
const EVENTS = 'query Events($a: String!) { agent(agentId: $a) { lastEventSequence events(first: 100) { edges { node { sequence stream type subjectId occurredAt } } } } }';

describe.skipIf(!hasChromium)(`GraphiQL on the shipped server in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`, () => {
  let server: ShippedServer;
  let operator: BurrowClient;
  let browser: Browser;
  let tab: ConsolePage;
  let page: Page;

  const response = () => page.locator('.graphiql-response');
  /** The execute button shows a stop square while an operation runs (a subscription until it ends). */
  const running = async () => (await page.locator('.graphiql-execute-button rect').count()) > 0;
  const showsExactly = async (expected: unknown) => squash(await textOf(response())) === squash(JSON.stringify(expected));

  /** The tabs are a drag-to-reorder list: a pointer click can land as a drag, so the tab's button gets the click event itself. */
  async function openTab(name: string) {
    await page.locator('.graphiql-tab-button', { hasText: name }).dispatchEvent('click');
    await expect.poll(() => page.locator('.graphiql-tab-active').innerText()).toBe(name);
  }

  /** Types the headers a person pastes into the Headers editor of the open tab. */
  async function setHeaders(headers: Record<string, string>) {
    const text = JSON.stringify(headers);
    await page.getByRole('button', { name: 'Headers' }).click();
    const editor = page.locator('.graphiql-editor-tool .graphiql-editor').last();
    // The editor closes brackets and quotes as they are typed, sometimes after a delay on a busy
    // machine: type, drop what it added after the cursor, and look again until exactly the JSON stays.
    await expect
      .poll(
        async () => {
          await editor.click();
          await page.keyboard.press('ControlOrMeta+A');
          await page.keyboard.insertText(text);
          await page.keyboard.press('Shift+ControlOrMeta+End');
          await page.keyboard.press('Delete');
          return (await textOf(editor)).trim().endsWith(text);
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
  }

  /**
   * Runs `operation` of the open tab and returns the server's HTTP answer to it. A click on a busy
   * machine can come before the editor is ready and be lost: clicked again until the request goes.
   */
  async function run(operation: string, choose = false) {
    const sent = (request: Request) => request.method() === 'POST' && (request.postData() ?? '').includes(`"operationName":"${operation}"`);
    for (let attempt = 1; ; attempt++) {
      const request = page.waitForRequest(sent, { timeout: 10_000 });
      await page.locator('.graphiql-execute-button').click();
      // A tab with several operations asks which one.
      if (choose) await page.getByRole('menuitem', { name: operation, exact: true }).click();
      try {
        return await (await request).response();
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  }

  const events = async (agentId: string) => {
    const answer = await postGraphQL(server, server.operatorToken, { query: EVENTS, variables: { a: agentId } });
    return answer.body.data.agent as { lastEventSequence: number; events: { edges: { node: Record<string, unknown> }[] } };
  };

  beforeAll(async () => {
    server = await startShipped();
    operator = operatorClient(server);
    browser = await launchBrowser();
    tab = await openPage(browser, { width: 1400, height: 1000 });
    page = tab.page;
  });

  afterAll(async () => {
    await browser?.close();
    await operator?.close();
    if (server) expect((await server.stop()).code).toBe(0);
  });

  it('is served from local assets without a token, with the four example tabs', async () => {
    // A plain browser GET: no Authorization header, HTML back.
    const answer = await page.goto(server.url, { waitUntil: 'load' });
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-type']).toContain('text/html');
    expect(await page.title()).toBe('Burrow');
    await page.locator('.graphiql-container').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => textOf(page.locator('.graphiql-query-editor').first()), { timeout: 15_000 }).toContain('query Viewer');
    expect(await page.locator('.graphiql-tab-button').allInnerTexts()).toEqual(['Viewer', 'CreateAgent', 'BrainSave', 'AgentEvents']);
    // The header editor starts with the Authorization header; the person pastes a token after "Bearer ".
    await page.getByRole('button', { name: 'Headers' }).click();
    await expect.poll(() => textOf(page.locator('.graphiql-editor-tool .graphiql-editor').last())).toContain('"Authorization": "Bearer "');
  });

  it('the subscription tab without a token shows the refusal and stops', async () => {
    await openTab('AgentEvents');
    expect((await run('AgentEvents'))?.status()).toBe(401);
    await expect
      .poll(() => showsExactly({ errors: [{ message: 'a valid bearer token is required (Authorization: Bearer <token>)', extensions: { code: 'UNAUTHENTICATED' } }] }), {
        timeout: 20_000,
      })
      .toBe(true);
    // The run that was sent has ended: the stop button is the run button again.
    await expect.poll(running).toBe(false);
    await screenshot(page, 'graphiql-refused-1400');
  });

  it('Viewer: runs with the token typed into Headers and shows what the API answers', async () => {
    await openTab('Viewer');
    await setHeaders({ Authorization: `Bearer ${server.operatorToken}` });
    await run('Viewer');
    const expected = (await postGraphQL(server, server.operatorToken, { query: VIEWER })).body;
    expect(expected.data.viewer).toMatchObject({ principal: 'OPERATOR', agentId: null });
    await expect.poll(() => showsExactly(expected), { timeout: 20_000 }).toBe(true);
  });

  it('CreateAgent: creates the agent', async () => {
    await openTab('CreateAgent');
    await setHeaders({ Authorization: `Bearer ${server.operatorToken}` });
    await run('CreateAgent');
    await expect
      .poll(() => showsExactly({ data: { createAgent: { __typename: 'CreateAgentSuccess', agent: { agentId: 'hatchet', name: 'Hatchet' } } } }), { timeout: 20_000 })
      .toBe(true);
    expect((await operator.agent({ id: 'hatchet' })).agent).toMatchObject({ agentId: 'hatchet', name: 'Hatchet' });
  });

  it('BrainSave: saves a memory, then BrainSearch finds it', async () => {
    await openTab('BrainSave');
    await setHeaders({ Authorization: `Bearer ${server.operatorToken}` });
    await run('BrainSave', true);
    await expect.poll(async () => (await textOf(response())).includes('BrainSaveSuccess'), { timeout: 20_000 }).toBe(true);
    const { brainMemories } = await operator.brainMemories({ agentId: 'hatchet', first: 10 });
    expect(brainMemories.edges.map((e) => [e.node.title, e.node.content, e.node.revision])).toEqual([['Deploys', 'Deploys run from the release branch.', 1]]);
    expect(await showsExactly({ data: { brainSave: { __typename: 'BrainSaveSuccess', memory: { id: brainMemories.edges[0].node.id, title: 'Deploys', revision: 1 } } } })).toBe(
      true,
    );

    await run('BrainSearch', true);
    const expected = (await postGraphQL(server, server.operatorToken, { query: BRAIN_SEARCH })).body;
    expect(expected.data.brainSearch.hits.map((h: { memory: { title: string } }) => h.memory.title)).toEqual(['Deploys']);
    await expect.poll(() => showsExactly(expected), { timeout: 20_000 }).toBe(true);
  });

  it('AgentEvents: replays the log, then shows a live event of a mutation made elsewhere', async () => {
    await openTab('AgentEvents');
    await setHeaders({ Authorization: `Bearer ${server.operatorToken}` });
    await run('AgentEvents');
    // The pane shows the newest event received: once the replay reached the end of the log, the stream is live.
    const before = await events('hatchet');
    const last = before.events.edges.at(-1)!.node;
    expect(last.sequence).toBe(before.lastEventSequence);
    await expect.poll(() => showsExactly({ data: { agentEvents: last } }), { timeout: 20_000 }).toBe(true);
    expect(await running()).toBe(true);

    const saved = await operator.brainSave({ input: { agentId: 'hatchet', title: 'Live from the test', content: 'Saved while GraphiQL listens.' } });
    expect(saved.brainSave.__typename).toBe('BrainSaveSuccess');
    const after = await events('hatchet');
    expect(after.lastEventSequence).toBe(before.lastEventSequence + 1);
    const live = after.events.edges.at(-1)!.node;
    expect(live).toMatchObject({ sequence: before.lastEventSequence + 1, stream: 'BRAIN', type: 'BRAIN_CREATED' });
    await expect.poll(() => showsExactly({ data: { agentEvents: live } }), { timeout: 20_000 }).toBe(true);
    expect(await running()).toBe(true);
    await screenshot(page, 'graphiql-live-event-1400');
    // Stop it, as a person does with the stop button.
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(running).toBe(false);
  });

  it("an agent token subscribing to another agent's events shows the refusal and stops", async () => {
    const { secret } = await createShippedToken(server, { name: 'graphiql-quill', agentId: 'quill' });
    await setHeaders({ Authorization: `Bearer ${secret}` });
    await run('AgentEvents');
    await expect.poll(async () => squash(await textOf(response())), { timeout: 20_000 }).toContain(squash('"extensions": { "code": "AGENT_MISMATCH" }'));
    expect(squash(await textOf(response()))).toContain(squash('"message": "this token acts only as its own agent"'));
    expect(await textOf(response())).not.toContain('"data": {');
    await expect.poll(running).toBe(false);
    await screenshot(page, 'graphiql-agent-mismatch-1400');
  });

  it('a subscription whose token is revoked shows the error and stops', async () => {
    const { secret, tokenId } = await createShippedToken(server, { name: 'graphiql-revoked' });
    await setHeaders({ Authorization: `Bearer ${secret}` });
    await run('AgentEvents');
    const { lastEventSequence } = await events('hatchet');
    await expect.poll(async () => (await textOf(response())).includes(`"sequence": ${lastEventSequence},`), { timeout: 20_000 }).toBe(true);
    expect(await running()).toBe(true);

    const revoked = await operator.revokeApiToken({ tokenId });
    expect(revoked.revokeApiToken.__typename).toBe('RevokeApiTokenSuccess');
    await expect
      .poll(() => showsExactly({ errors: [{ message: 'the token of this stream was revoked or has expired', extensions: { code: 'UNAUTHENTICATED' } }] }), { timeout: 20_000 })
      .toBe(true);
    await expect.poll(running).toBe(false);
    await screenshot(page, 'graphiql-revoked-1400');
    // Nothing was even attempted beyond this machine.
    expect(tab.blocked).toEqual([]);
  });
});
