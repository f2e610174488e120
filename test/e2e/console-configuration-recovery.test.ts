/**
 * The Operations page's configuration export and import and its continuity recovery queue, in
 * headless Chromium against the shipped server (with a settings key). Download export saves a
 * file that is exactly the API's export (no secret in it; with a password, the secrets only in
 * the encrypted envelope). Importing a file: one that is not JSON, or a wrong password, is
 * refused in words with its code and changes nothing; the right password restores what was
 * changed and deleted since the export, and the page shows the counts per category. The
 * recovery queue lists an interrupted run with its state; Reconcile asks first (Escape changes
 * nothing), then assesses it: the page says what the pass did and lists the run as recovery
 * pending with its queue, as the API holds it. axe-core finds no serious or critical violation
 * at each state.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectNoSeriousViolations } from '../support/axe.js';
import { consoleUrl, DOCS_IMAGES, hasChromium, launchBrowser, NO_CHROMIUM, openPage, screenshot, VIEWPORTS, type ConsolePage } from '../support/browser.js';
import { announced } from '../support/announcer.js';
import { interruptedRun } from '../support/continuity.js';
import { postGraphQL, shippedAgentClient, startShipped, type ShippedServer } from '../support/shipped.js';

const API_KEY = 'sk-configuration-0123456789abcdef';
const PASSWORD = 'correct horse battery staple';
const MODELS = '{ modelConnections { purpose url model timeoutMs hasSecret revision } }';
const MCPS = '{ mcpConnections { name url transport enabled description hasSecret } }';
const RUN = '{ continuityRun(agentId: "hatchet", runId: "run-deploy-7") { state generation headRevision recoveryQueue } }';
const FILE_NAME = /^burrow-configuration-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.json$/;

describe.skipIf(!hasChromium)(`console: configuration export/import and the recovery queue in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`, () => {
  let server: ShippedServer;
  let browser: Browser;
  let tab: ConsolePage;
  let page: Page;
  let withSecrets: { name: string; text: string };

  const asOperator = async (query: string, variables?: Record<string, unknown>) => (await postGraphQL(server, server.operatorToken, { query, variables })).body;
  const exportForm = () => page.locator('form.configuration-export');
  const importForm = () => page.locator('form.configuration-import');
  const downloadExport = async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), exportForm().getByRole('button', { name: 'Download export' }).click()]);
    return { name: download.suggestedFilename(), text: await readFile((await download.path())!, 'utf8') };
  };
  const upload = (name: string, text: string) =>
    importForm()
      .getByLabel('Export file (JSON)')
      .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });

  beforeAll(async () => {
    server = await startShipped({ env: { BURROW_SETTINGS_KEY: randomBytes(32).toString('base64') } });
    for (const query of [
      'mutation { createAgent(input: { agentId: "hatchet", name: "Hatchet the deploy bot" }) { __typename } }',
      `mutation { setModelConnection(input: { purpose: BRAIN_EMBEDDINGS, url: "https://models.example.com/v1", model: "embedder", timeoutMs: 9000, apiKey: "${API_KEY}" }) { __typename } }`,
      'mutation { setMcpConnection(input: { name: "tickets", url: "https://tickets.example.com/mcp", transport: SSE, enabled: true, description: "The ticket tracker" }) { __typename } }',
    ]) {
      const data = (await asOperator(query)).data as Record<string, { __typename: string }>;
      expect(Object.values(data)[0]!.__typename).toMatch(/Success$/);
    }
    const runtime = await shippedAgentClient(server, 'hatchet', { scope: 'proj', session: 'sess-1' });
    try {
      expect((await interruptedRun(runtime, 'run-deploy-7', 'post-ticket-1')).state).toBe('INTERRUPTED');
    } finally {
      await runtime.close();
    }
    browser = await launchBrowser();
    tab = await openPage(browser, VIEWPORTS.desktop);
    page = tab.page;
    await page.goto(`${consoleUrl(server.url)}#/operations`);
    await page.getByLabel('Operator token').fill(server.operatorToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 2, name: 'Configuration export and import' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    if (server) expect((await server.stop()).code).toBe(0);
  });

  it('Download export saves exactly the API export, without any secret', async () => {
    const file = await downloadExport();
    expect(file.name).toMatch(FILE_NAME);
    await announced(page).toBe(`Configuration exported to ${file.name}, without secrets.`);
    const downloaded = JSON.parse(file.text);
    const fromApi = (await asOperator('mutation { exportConfiguration { ... on ExportConfigurationSuccess { document } } }')).data.exportConfiguration.document;
    const { exportedAt, ...rest } = downloaded;
    expect(exportedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(rest).toEqual({ ...fromApi, exportedAt: undefined });
    expect(downloaded['model-connections']).toEqual([{ purpose: 'BRAIN_EMBEDDINGS', url: 'https://models.example.com/v1', model: 'embedder', timeoutMs: 9000, hasSecret: true }]);
    expect(downloaded.secrets).toBeNull();
    expect(file.text).not.toContain(API_KEY);
    await expectNoSeriousViolations(page, 'operations: configuration exported');
  });

  it('with a password, the secrets travel only in the encrypted envelope', async () => {
    await exportForm().getByLabel('Include secrets, encrypted with a password').check();
    await exportForm().getByLabel('Password for the secrets (at least 12 characters)').fill(PASSWORD);
    withSecrets = await downloadExport();
    await announced(page).toBe(`Configuration exported to ${withSecrets.name}, secrets encrypted with the password.`);
    expect(JSON.parse(withSecrets.text).secrets).toEqual(expect.any(Object));
    expect(withSecrets.text).not.toContain(API_KEY);
    expect(withSecrets.text).not.toContain(PASSWORD);
    // The password is not kept in the page.
    expect(await exportForm().getByLabel('Password for the secrets (at least 12 characters)').inputValue()).toBe('');
  });

  it('a file that is not JSON, or a wrong password, is refused in words and changes nothing', async () => {
    const changed = await asOperator(
      'mutation { setModelConnection(input: { purpose: BRAIN_EMBEDDINGS, url: "https://models.example.com/v1", model: "changed-after-export", clearApiKey: true }) { __typename } }',
    );
    expect(changed.data.setModelConnection.__typename).toBe('SetModelConnectionSuccess');
    expect((await asOperator('mutation { deleteMcpConnection(name: "tickets") { deleted } }')).data.deleteMcpConnection.deleted).toBe(true);
    const before = { models: (await asOperator(MODELS)).data, mcps: (await asOperator(MCPS)).data };

    await upload('notes.json', 'this is not JSON');
    await importForm().getByRole('button', { name: 'Import file' }).click();
    const alert = importForm().getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe('The file is not JSON; nothing was imported (VALIDATION_FAILED)');
    await expectNoSeriousViolations(page, 'operations: import refused');

    await upload(withSecrets.name, withSecrets.text);
    await importForm().getByLabel('Password (only for a file with secrets)').fill('not the password at all');
    await importForm().getByRole('button', { name: 'Import file' }).click();
    await expect
      .poll(() => alert.innerText())
      .toBe('The password does not open the secrets envelope (wrong password, or the file was altered); nothing was imported (VALIDATION_FAILED)');
    expect({ models: (await asOperator(MODELS)).data, mcps: (await asOperator(MCPS)).data }).toEqual(before);
    expect(await page.locator('table.import-counts').count()).toBe(0);
  });

  it('the right password imports it: the page shows the counts, the API holds the exported values and the key again', async () => {
    await importForm().getByLabel('Password (only for a file with secrets)').fill(PASSWORD);
    await importForm().getByRole('button', { name: 'Import file' }).click();
    const counts = page.locator('table.import-counts');
    await counts.waitFor();
    expect(await counts.locator('caption').innerText()).toBe(`What the import of ${withSecrets.name} did`);
    const rows = await counts.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent)));
    expect(rows).toEqual([
      ['Agents and profiles', '0', '0', '1'],
      ['Per-agent settings', '0', '0', '0'],
      ['Model connections', '0', '1', '0'],
      ['MCP connections', '1', '0', '0'],
    ]);
    await announced(page).toBe(`Imported ${withSecrets.name}: 2 items created or updated.`);
    expect(await importForm().getByRole('alert').count()).toBe(0);
    expect((await asOperator(MODELS)).data.modelConnections).toEqual([
      { purpose: 'BRAIN_EMBEDDINGS', url: 'https://models.example.com/v1', model: 'embedder', timeoutMs: 9000, hasSecret: true, revision: 3 },
    ]);
    expect((await asOperator(MCPS)).data.mcpConnections).toEqual([
      { name: 'tickets', url: 'https://tickets.example.com/mcp', transport: 'SSE', enabled: true, description: 'The ticket tracker', hasSecret: false },
    ]);
    // The connection lists above were read again.
    await page.locator('tr[data-mcp=tickets]').waitFor();
    await expectNoSeriousViolations(page, 'operations: import counts');
  });

  it('the recovery queue lists the interrupted run; Reconcile asks first, then assesses it', async () => {
    const row = page.locator('tr[data-run="hatchet/run-deploy-7"]');
    const cells = () => row.locator('th, td').allInnerTexts();
    const before = (await cells()).slice(0, 4);
    expect(before).toEqual(['hatchet', 'run-deploy-7', 'interrupted, not assessed', '1']);
    expect((await asOperator(RUN)).data.continuityRun.state).toBe('INTERRUPTED');

    const reconcile = page.getByRole('button', { name: 'Reconcile hatchet (run run-deploy-7)' });
    const dialog = page.getByRole('dialog', { name: 'Reconcile the runs of hatchet?' });
    await reconcile.click();
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await expectNoSeriousViolations(page, 'operations: the reconcile dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await asOperator(RUN)).data.continuityRun.state).toBe('INTERRUPTED');

    await reconcile.click();
    await dialog.getByRole('button', { name: 'Reconcile' }).click();
    await dialog.waitFor({ state: 'detached' });
    const result = 'Reconciled hatchet: 0 owners checked; interrupted: none; assessed: run-deploy-7; failed: none.';
    await expect.poll(() => page.locator('section.recovery-queue p.result').innerText()).toBe(result);
    await announced(page).toBe(result);
    // After the queue is read again, focus goes to the section (the dialog's button is gone).
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('recovery-h');

    const run = (await asOperator(RUN)).data.continuityRun;
    expect(run).toEqual({
      state: 'RECOVERY_PENDING',
      generation: 1,
      headRevision: run.headRevision,
      recoveryQueue: [
        { kind: 'RECONCILE_EFFECT', effectId: 'post-ticket-1', effectKind: 'http.post', outcome: 'UNKNOWN', intendedGeneration: 1 },
        { kind: 'RESUME_TURN', headRevision: run.headRevision },
      ],
    });
    await expect.poll(async () => (await cells()).slice(0, 4)).toEqual(['hatchet', 'run-deploy-7', 'recovery pending', '1']);
    expect(await row.locator('ul.queue-items li').allInnerTexts()).toEqual([
      'Check effect post-ticket-1 (http.post): outcome unknown',
      `Resume the turn (head revision ${run.headRevision})`,
    ]);
    await expectNoSeriousViolations(page, 'operations: recovery pending');
    await screenshot(page, 'console-recovery-queue-1280');
    // The section alone for docs/console.md (the page's own screenshot, from the tour, shows its top).
    await page.locator('section.recovery-queue').screenshot({ path: `${DOCS_IMAGES}console-recovery-queue.png` });
    expect(tab.blocked).toEqual([]);
    expect(tab.consoleErrors).toEqual([]);
  });
});
