/**
 * The Operations page in headless Chromium against the shipped server (with a settings key): a
 * model connection with an API key is set through the page, the API holds exactly those values
 * and says a secret is set, and the key appears nowhere in the page (an MCP connection and its
 * token the same). A model connection (and an MCP connection) changed through the API between
 * Edit and Save: the page says so in words with REVISION_CONFLICT, and the other write is read
 * back unchanged. Deleting asks first (Escape and Cancel change nothing, the confirm removes it). A Dream diary entry appended for an agent is listed newest first with its exact
 * text, and the API holds it. A server without a settings key refuses a secret with a sentence
 * and its code, and stores nothing. axe-core finds no serious or critical violation at each of
 * these states.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { consoleUrl, hasChromium, launchBrowser, NO_CHROMIUM, openPage, screenshot, VIEWPORTS, type ConsolePage } from '../support/browser.js';
import { announced } from '../support/announcer.js';
import { expectNoSeriousViolations } from '../support/axe.js';
import { postGraphQL, startShipped, type ShippedServer } from '../support/shipped.js';

const MODELS = '{ modelConnections { purpose url model timeoutMs hasSecret revision updatedBy } }';
const DIARY = '{ dreamDiary(agentId: "hatchet") { edges { node { agentId entryDate title body writtenBy } } } }';
const MCPS = '{ mcpConnections { name url transport enabled description hasSecret revision } }';
const MCP_TOKEN = 'mcp-bearer-console-operations-fedcba9876543210';
const API_KEY = 'sk-console-operations-0123456789abcdef';
const BODY = 'Hatchet dreamt of a green deploy.\nNothing broke on Friday.';

const signIn = async (page: Page, server: ShippedServer) => {
  await page.goto(`${consoleUrl(server.url)}#/operations`);
  await page.getByLabel('Operator token').fill(server.operatorToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 2, name: 'Model connections' }).waitFor();
};

describe.skipIf(!hasChromium)(`console: operations in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`, () => {
  let server: ShippedServer;
  let browser: Browser;
  let tab: ConsolePage;
  let page: Page;
  let tokenName = '';

  const asOperator = async (query: string) => (await postGraphQL(server, server.operatorToken, { query })).body;
  const modelForm = () => page.locator('form.model-connection-form');
  const proposerRow = () => page.locator('tr[data-purpose=TIDDLE_PROPOSER]');

  beforeAll(async () => {
    server = await startShipped({ env: { BURROW_SETTINGS_KEY: randomBytes(32).toString('base64') } });
    browser = await launchBrowser();
    tab = await openPage(browser, VIEWPORTS.desktop);
    page = tab.page;
    const created = await asOperator('mutation { createAgent(input: { agentId: "hatchet", name: "Hatchet the deploy bot" }) { __typename } }');
    expect(created.data.createAgent.__typename).toBe('CreateAgentSuccess');
    tokenName = (await asOperator('{ viewer { tokenName } }')).data.viewer.tokenName;
  });

  afterAll(async () => {
    await browser?.close();
    if (server) expect((await server.stop()).code).toBe(0);
  });

  it('sets a model connection with an API key: the API holds exactly it, the page says only that a key is set', async () => {
    await signIn(page, server);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Operations');
    expect(await page.locator('nav a[aria-current=page]').innerText()).toBe('Operations');
    expect(await page.getByText('No model connection is stored: the environment variables (or nothing) apply.').isVisible()).toBe(true);
    await modelForm().getByLabel('Purpose').selectOption('TIDDLE_PROPOSER');
    await modelForm().getByLabel('URL').fill('https://models.example.com/v1');
    await modelForm().getByLabel('Model').fill('tiny-proposer');
    await modelForm().getByLabel('Timeout in milliseconds (optional)').fill('12000');
    await modelForm().getByLabel('API key (write-only; leave empty to keep the stored one)').fill(API_KEY);
    // Submitted by keyboard: Enter in the API key field.
    await modelForm().getByLabel('API key (write-only; leave empty to keep the stored one)').press('Enter');
    await proposerRow().waitFor();

    expect((await asOperator(MODELS)).data.modelConnections).toEqual([
      { purpose: 'TIDDLE_PROPOSER', url: 'https://models.example.com/v1', model: 'tiny-proposer', timeoutMs: 12000, hasSecret: true, revision: 1, updatedBy: tokenName },
    ]);
    const cells = await proposerRow().locator('th, td').allInnerTexts();
    expect(cells.slice(0, 5)).toEqual(['Tiddle proposer', 'https://models.example.com/v1', 'tiny-proposer', '12000 ms', 'set']);
    await announced(page).toBe('Model connection Tiddle proposer saved (revision 1). It applies at the next start.');
    // The key field is emptied, Edit fills every field but the key, and the key is nowhere in the page.
    expect(await modelForm().getByLabel('API key (write-only; leave empty to keep the stored one)').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Edit Tiddle proposer' }).click();
    expect(await modelForm().getByLabel('Model').inputValue()).toBe('tiny-proposer');
    expect(await modelForm().getByLabel('API key (write-only; leave empty to keep the stored one)').inputValue()).toBe('');
    expect(await page.content()).not.toContain(API_KEY);
    expect(await page.locator('[role=alert]').count()).toBe(0);
    await expectNoSeriousViolations(page, 'operations: a model connection set');
  });

  it('a model connection changed through the API between Edit and Save: the page says so, the other write stays', async () => {
    const keyField = () => modelForm().getByLabel('API key (write-only; leave empty to keep the stored one)');
    // Edit (the previous test's Edit read revision 1); the operator changes the model and a key.
    await page.getByRole('button', { name: 'Edit Tiddle proposer' }).click();
    await modelForm().getByLabel('Model').fill('console-draft-model');
    await keyField().fill('sk-console-draft-never-stored');
    const elsewhere = await asOperator(
      'mutation { setModelConnection(input: { purpose: TIDDLE_PROPOSER, url: "https://models.example.com/v2", model: "changed-elsewhere", timeoutMs: 30000 }) { __typename ... on SetModelConnectionSuccess { connection { revision } } } }',
    );
    expect(elsewhere.data.setModelConnection).toEqual({ __typename: 'SetModelConnectionSuccess', connection: { revision: 2 } });
    await modelForm().getByRole('button', { name: 'Save model connection' }).click();

    const alert = modelForm().getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe('Someone else saved revision 2 after you read revision 1: nothing was saved. Read it again, then retry (REVISION_CONFLICT)');
    await expectNoSeriousViolations(page, 'operations: model connection conflict');
    // The other write is intact (its URL, model, timeout, and the stored key it did not touch) …
    const other = {
      purpose: 'TIDDLE_PROPOSER',
      url: 'https://models.example.com/v2',
      model: 'changed-elsewhere',
      timeoutMs: 30000,
      hasSecret: true,
      revision: 2,
      updatedBy: tokenName,
    };
    expect((await asOperator(MODELS)).data.modelConnections).toEqual([other]);
    // … and the list shows it, while the draft stays in the form for the operator to compare.
    await expect
      .poll(() =>
        proposerRow()
          .locator('th, td')
          .allInnerTexts()
          .then((cells) => cells.slice(0, 5)),
      )
      .toEqual(['Tiddle proposer', 'https://models.example.com/v2', 'changed-elsewhere', '30000 ms', 'set']);
    expect(await modelForm().getByLabel('Model').inputValue()).toBe('console-draft-model');

    // Saving the same draft again is refused again: it still names revision 1.
    await modelForm().getByRole('button', { name: 'Save model connection' }).click();
    await expect.poll(() => alert.innerText()).toContain('(REVISION_CONFLICT)');
    expect((await asOperator(MODELS)).data.modelConnections).toEqual([other]);

    // Edit reads revision 2; putting the first values back is a deliberate write on top of it.
    await page.getByRole('button', { name: 'Edit Tiddle proposer' }).click();
    expect(await modelForm().getByLabel('URL').inputValue()).toBe('https://models.example.com/v2');
    expect(await keyField().inputValue()).toBe('');
    await modelForm().getByLabel('URL').fill('https://models.example.com/v1');
    await modelForm().getByLabel('Model').fill('tiny-proposer');
    await modelForm().getByLabel('Timeout in milliseconds (optional)').fill('12000');
    await modelForm().getByRole('button', { name: 'Save model connection' }).click();
    await announced(page).toBe('Model connection Tiddle proposer saved (revision 3). It applies at the next start.');
    expect((await asOperator(MODELS)).data.modelConnections).toEqual([
      { purpose: 'TIDDLE_PROPOSER', url: 'https://models.example.com/v1', model: 'tiny-proposer', timeoutMs: 12000, hasSecret: true, revision: 3, updatedBy: tokenName },
    ]);
    expect(await modelForm().getByRole('alert').count()).toBe(0);
    expect(await page.content()).not.toContain('sk-console-draft-never-stored');
  });

  it('deletes it only after the confirmation: Escape and Cancel change nothing, the confirm removes it', async () => {
    const before = (await asOperator(MODELS)).data.modelConnections;
    const deleteButton = page.getByRole('button', { name: 'Delete Tiddle proposer' });
    const dialog = page.getByRole('dialog', { name: 'Delete the Tiddle proposer connection?' });

    await deleteButton.click();
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await expectNoSeriousViolations(page, 'operations: the delete dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await asOperator(MODELS)).data.modelConnections).toEqual(before);

    await deleteButton.click();
    await dialog.waitFor();
    expect(await dialog.locator('#confirm-dialog-body').innerText()).toBe(
      'The stored connection to https://models.example.com/v1 and its API key are removed. At the next start the environment variables apply, or nothing.',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await asOperator(MODELS)).data.modelConnections).toEqual(before);
    expect(await proposerRow().count()).toBe(1);

    await deleteButton.click();
    await dialog.getByRole('button', { name: 'Delete connection' }).click();
    await proposerRow().waitFor({ state: 'detached' });
    expect((await asOperator(MODELS)).data.modelConnections).toEqual([]);
    await announced(page).toBe('Model connection Tiddle proposer deleted.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('model-connections-h');
  });

  it('sets an MCP connection with a token: the API holds exactly it, the page says only that a token is set', async () => {
    const form = page.locator('form.mcp-connection-form');
    await form.getByLabel('Name').fill('tickets');
    await form.getByLabel('URL').fill('https://tickets.example.com/mcp');
    await form.getByLabel('Transport').selectOption('SSE');
    await form.getByLabel('Description (optional)').fill('The ticket tracker');
    await form.getByLabel('Bearer token (write-only; leave empty to keep the stored one)').fill(MCP_TOKEN);
    await form.getByRole('button', { name: 'Save MCP connection' }).click();
    const row = page.locator('tr[data-mcp=tickets]');
    await row.waitFor();
    expect((await asOperator(MCPS)).data.mcpConnections).toEqual([
      { name: 'tickets', url: 'https://tickets.example.com/mcp', transport: 'SSE', enabled: true, description: 'The ticket tracker', hasSecret: true, revision: 1 },
    ]);
    expect((await row.locator('th, td').allInnerTexts()).slice(0, 5)).toEqual(['tickets The ticket tracker', 'https://tickets.example.com/mcp', 'SSE', 'yes', 'set']);
    await announced(page).toBe('MCP connection tickets saved (revision 1).');
    expect(await form.getByLabel('Bearer token (write-only; leave empty to keep the stored one)').inputValue()).toBe('');
    expect(await page.content()).not.toContain(MCP_TOKEN);
  });

  it('appends a Dream diary entry for the agent: listed newest first with its exact text, and the API holds it', async () => {
    const diary = page.locator('section.dream-diary');
    await diary.locator('option[value=hatchet]').waitFor({ state: 'attached' });
    expect(await diary.getByLabel('Agent', { exact: true }).inputValue()).toBe('hatchet');
    expect(await diary.getByText('No entry yet for hatchet.').isVisible()).toBe(true);
    const form = diary.locator('form.diary-append');
    await form.getByLabel('Day (optional; today in UTC when empty)').fill('2026-11-30');
    await form.getByLabel('Title (optional)').fill('A calm week');
    await form.getByLabel('Entry', { exact: true }).fill(BODY);
    await form.getByRole('button', { name: 'Add entry' }).click();
    await diary.locator('.diary-entries li').first().waitFor();
    // A second, later entry comes first.
    await form.getByLabel('Day (optional; today in UTC when empty)').fill('2026-12-01');
    await form.getByLabel('Entry', { exact: true }).fill('Second night: quiet.');
    await form.getByRole('button', { name: 'Add entry' }).click();
    await diary.locator('.diary-entries li').nth(1).waitFor();

    expect(await diary.locator('.diary-entries li time').allInnerTexts()).toEqual(['2026-12-01', '2026-11-30']);
    expect(await diary.locator('.diary-entries li .diary-title').allInnerTexts()).toEqual(['A calm week']);
    expect(await diary.locator('.diary-entries li .diary-body').allInnerTexts()).toEqual(['Second night: quiet.', BODY]);
    expect(await diary.locator('.diary-entries li').nth(1).locator('.meta').innerText()).toMatch(
      new RegExp(`^2026-11-30 A calm week — written \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d by ${tokenName}$`),
    );
    await announced(page).toBe('Dream diary entry of 2026-12-01 added for hatchet.');
    expect((await asOperator(DIARY)).data.dreamDiary.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { agentId: 'hatchet', entryDate: '2026-12-01', title: '', body: 'Second night: quiet.', writtenBy: tokenName },
      { agentId: 'hatchet', entryDate: '2026-11-30', title: 'A calm week', body: BODY, writtenBy: tokenName },
    ]);
    expect(await form.getByLabel('Entry', { exact: true }).inputValue()).toBe('');
    await screenshot(page, 'console-operations-1280');
    await expectNoSeriousViolations(page, 'operations: connections and diary entries');
    expect(tab.blocked).toEqual([]);
    expect(tab.consoleErrors).toEqual([]);
  });

  it('removes the MCP token through Edit, then deletes the connection by keyboard from the dialog', async () => {
    const form = page.locator('form.mcp-connection-form');
    const row = page.locator('tr[data-mcp=tickets]');
    await page.getByRole('button', { name: 'Edit tickets' }).click();
    expect(await form.getByLabel('Name').inputValue()).toBe('tickets');
    expect(await form.getByLabel('Bearer token (write-only; leave empty to keep the stored one)').inputValue()).toBe('');
    await form.getByLabel('Remove the stored token').check();
    // Another operator writes first: the page's save names the revision Edit read (1) and is refused.
    const elsewhere = await asOperator(
      'mutation { setMcpConnection(input: { name: "tickets", url: "https://tickets.example.com/mcp", transport: SSE, enabled: true, description: "Changed elsewhere" }) { __typename } }',
    );
    expect(elsewhere.data.setMcpConnection.__typename).toBe('SetMcpConnectionSuccess');
    await form.getByRole('button', { name: 'Save MCP connection' }).click();
    await expect
      .poll(() => page.getByRole('alert').allInnerTexts())
      .toEqual(['Someone else saved revision 2 after you read revision 1: nothing was saved. Read it again, then retry (REVISION_CONFLICT)']);
    expect((await asOperator(MCPS)).data.mcpConnections).toEqual([
      { name: 'tickets', url: 'https://tickets.example.com/mcp', transport: 'SSE', enabled: true, description: 'Changed elsewhere', hasSecret: true, revision: 2 },
    ]);
    // Edit again reads revision 2; now the save goes through.
    await page.getByRole('button', { name: 'Edit tickets' }).click();
    expect(await form.getByLabel('Description (optional)').inputValue()).toBe('Changed elsewhere');
    await form.getByLabel('Remove the stored token').check();
    await form.getByRole('button', { name: 'Save MCP connection' }).click();
    await row.locator('td[data-secret]', { hasText: 'not set' }).waitFor();
    expect((await asOperator(MCPS)).data.mcpConnections).toEqual([
      { name: 'tickets', url: 'https://tickets.example.com/mcp', transport: 'SSE', enabled: true, description: 'Changed elsewhere', hasSecret: false, revision: 3 },
    ]);

    await page.getByRole('button', { name: 'Delete tickets' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the MCP connection tickets?' });
    await dialog.waitFor();
    // From Cancel, Tab to "Delete connection" and Enter.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Delete connection');
    await page.keyboard.press('Enter');
    await row.waitFor({ state: 'detached' });
    expect((await asOperator(MCPS)).data.mcpConnections).toEqual([]);
    await announced(page).toBe('MCP connection tickets deleted.');
  });

  it('pages an older diary: 20 entries first, "Show older entries" brings the rest, for the agent chosen', async () => {
    expect((await asOperator('mutation { createAgent(input: { agentId: "quill", name: "Quill" }) { __typename } }')).data.createAgent.__typename).toBe('CreateAgentSuccess');
    for (let day = 1; day <= 21; day++) {
      const entryDate = `2026-10-${String(day).padStart(2, '0')}`;
      const r = await asOperator(`mutation { appendDreamDiaryEntry(input: { agentId: "quill", entryDate: "${entryDate}", body: "Night ${day}." }) { __typename } }`);
      expect(r.data.appendDreamDiaryEntry.__typename).toBe('AppendDreamDiaryEntrySuccess');
    }
    // The agent list is read at sign-in: a reload (the token stays in this tab) lists quill.
    await page.reload();
    const diary = page.locator('section.dream-diary');
    await diary.locator('option[value=quill]').waitFor({ state: 'attached' });
    await diary.getByLabel('Agent', { exact: true }).selectOption('quill');
    await diary.locator('.diary-entries li').nth(19).waitFor();
    expect(await diary.locator('.diary-entries li time').count()).toBe(20);
    expect(await diary.locator('.diary-entries li time').first().innerText()).toBe('2026-10-21');
    await diary.getByRole('button', { name: 'Show older entries' }).click();
    await diary.locator('.diary-entries li').nth(20).waitFor();
    const days = await diary.locator('.diary-entries li time').allInnerTexts();
    expect(days).toEqual(Array.from({ length: 21 }, (_, i) => `2026-10-${String(21 - i).padStart(2, '0')}`));
    expect(await diary.locator('.diary-entries li .diary-body').last().innerText()).toBe('Night 1.');
    expect(await diary.getByRole('button', { name: 'Show older entries' }).count()).toBe(0);
    // Back to hatchet: only its own two entries.
    await diary.getByLabel('Agent', { exact: true }).selectOption('hatchet');
    await diary.locator('.diary-entries li').nth(2).waitFor({ state: 'detached' });
    expect(await diary.locator('.diary-entries li .diary-body').allInnerTexts()).toEqual(['Second night: quiet.', BODY]);
  });

  it('a server without a settings key refuses the secret in words with its code and stores nothing', async () => {
    const keyless = await startShipped();
    const other = await openPage(browser, VIEWPORTS.desktop);
    try {
      await signIn(other.page, keyless);
      expect(await other.page.locator('p.warning').innerText()).toBe(
        'The server has no settings key (BURROW_SETTINGS_KEY): connections without a secret can be stored, secrets cannot.',
      );
      const form = other.page.locator('form.model-connection-form');
      await form.getByLabel('URL').fill('https://models.example.com/v1');
      await form.getByLabel('Model').fill('embedder');
      await form.getByLabel('API key (write-only; leave empty to keep the stored one)').fill(API_KEY);
      await form.getByRole('button', { name: 'Save model connection' }).click();
      const alert = form.locator('[role=alert]');
      await alert.waitFor();
      expect(await alert.innerText()).toBe(
        'The server has no settings key (BURROW_SETTINGS_KEY), so it cannot store a secret: leave the secret empty, or set the key and restart Burrow (SETTINGS_KEY_REQUIRED)',
      );
      expect((await postGraphQL(keyless, keyless.operatorToken, { query: MODELS })).body.data.modelConnections).toEqual([]);
      await expectNoSeriousViolations(other.page, 'operations: no settings key');
      expect(await other.page.content()).not.toContain(API_KEY);
    } finally {
      await other.page.close();
      expect((await keyless.stop()).code).toBe(0);
    }
  });
});
