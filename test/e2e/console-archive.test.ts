/**
 * The Agents page's "Agent archive" panel in headless Chromium against the shipped server: an
 * agent with a changed profile is downloaded as its archive file (gzip, the header names the
 * agent), imported under a new id (the answer in words, and the API reads the same profile), then
 * imported again: without "Replace" the refusal is said with its code and nothing changes; with it,
 * the agent is replaced.
 */
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectNoSeriousViolations } from '../support/axe.js';
import { consoleUrl, hasChromium, launchBrowser, NO_CHROMIUM, openPage, screenshot, VIEWPORTS, type ConsolePage } from '../support/browser.js';
import { announced } from '../support/announcer.js';
import { postGraphQL, startShipped, type ShippedServer } from '../support/shipped.js';

const ORIENTATION = 'Hatchet deploys the shop on Fridays.\nIt asks before touching the database.';
const profile = (agentId: string) => `{ profileDocument(agentId: "${agentId}", kind: ORIENTATION) { content revision } }`;

describe.skipIf(!hasChromium)(`console: agent archive in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`, () => {
  let server: ShippedServer;
  let browser: Browser;
  let tab: ConsolePage;
  let page: Page;
  let archivePath = '';
  /** Rows in the downloaded archive (its trailer's counts), which an import of it reports. */
  let archiveRows = 0;

  const asOperator = async (query: string, variables?: Record<string, unknown>) => (await postGraphQL(server, server.operatorToken, { query, variables })).body;
  const updateOrientation = async (agentId: string, content: string) => {
    const { revision } = (await asOperator(profile(agentId))).data.profileDocument;
    const result = await asOperator(
      'mutation($input: UpdateProfileDocumentInput!) { updateProfileDocument(input: $input) { __typename ... on UpdateProfileDocumentSuccess { document { revision } } } }',
      { input: { agentId, kind: 'ORIENTATION', content, expectedRevision: revision } },
    );
    expect(result.data.updateProfileDocument.__typename).toBe('UpdateProfileDocumentSuccess');
  };
  const importForm = () => page.locator('form.archive-import');
  const importArchive = async (agentId: string, replace: boolean) => {
    await importForm().getByLabel('Archive file').setInputFiles(archivePath);
    await importForm().getByLabel('Import under the id').fill(agentId);
    await importForm().getByLabel('Replace an existing agent').setChecked(replace);
    // A replace is submitted by keyboard (Enter in the id field), the others by the button.
    if (replace) await importForm().getByLabel('Import under the id').press('Enter');
    else await importForm().getByRole('button', { name: 'Import' }).click();
  };

  beforeAll(async () => {
    server = await startShipped();
    browser = await launchBrowser();
    tab = await openPage(browser, VIEWPORTS.desktop);
    page = tab.page;
    const created = await asOperator('mutation { createAgent(input: { agentId: "hatchet", name: "Hatchet the deploy bot" }) { __typename } }');
    expect(created.data.createAgent.__typename).toBe('CreateAgentSuccess');
    await updateOrientation('hatchet', ORIENTATION);
  });

  afterAll(async () => {
    await browser?.close();
    if (server) expect((await server.stop()).code).toBe(0);
  });

  it('downloads the chosen agent as a gzip archive whose header names it', async () => {
    await page.goto(`${consoleUrl(server.url)}#/agents`);
    await page.getByLabel('Operator token').fill(server.operatorToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 2, name: 'Agent archive' }).waitFor();
    const form = page.locator('form.archive-download');
    // The agent list arrives after sign-in; the first agent is chosen until the operator picks another.
    await form.locator('option[value=hatchet]').waitFor({ state: 'attached' });
    expect(await form.getByLabel('Agent', { exact: true }).inputValue()).toBe('hatchet');
    await form.getByLabel('Include the event log').check();
    const [download] = await Promise.all([page.waitForEvent('download'), form.getByRole('button', { name: 'Download archive' }).click()]);
    expect(download.suggestedFilename()).toBe('hatchet.burrow-agent.gz');
    archivePath = join(tmpdir(), `console-archive-${process.pid}.burrow-agent.gz`);
    await download.saveAs(archivePath);
    const bytes = await readFile(archivePath);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    const lines = gunzipSync(bytes).toString('utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0]!);
    const trailer = JSON.parse(lines.at(-1)!);
    archiveRows = Object.values(trailer.counts as Record<string, number>).reduce((sum, n) => sum + n, 0);
    // The profile change and the event log travel: more than the agents row.
    expect([trailer.counts.agent_profile_revisions > 0, trailer.counts.agent_events > 0, archiveRows]).toEqual([true, true, lines.length - 2]);
    expect([header.format, header.version, header.agentId, header.includesEvents]).toEqual(['burrow-agent-archive', 1, 'hatchet', true]);
    await announced(page).toBe('Archive of hatchet downloaded with its event log.');
  });

  it('imports it under a new id: the answer is shown, the list reloads, and the API reads the same profile', async () => {
    await importArchive('hatchet-copy', false);
    const answer = importForm().locator('[role=status]');
    await answer.waitFor();
    expect(await answer.innerText()).toBe(`Imported hatchet as hatchet-copy: ${archiveRows} rows.`);
    expect(await importForm().locator('[role=alert]').count()).toBe(0);
    await page.locator('.agent-list li[data-agent=hatchet-copy]').waitFor();
    expect(await page.locator('.agent-list li[data-agent=hatchet-copy]').innerText()).toBe('Hatchet the deploy bot (hatchet-copy)');
    // The reloaded list puts the copy first; the download keeps the agent the operator used.
    expect(await page.locator('form.archive-download').getByLabel('Agent', { exact: true }).inputValue()).toBe('hatchet');
    const [original, copy] = [(await asOperator(profile('hatchet'))).data.profileDocument, (await asOperator(profile('hatchet-copy'))).data.profileDocument];
    expect(copy).toEqual(original);
    expect(copy.content).toBe(ORIENTATION);
    await announced(page).toBe('Archive imported as hatchet-copy.');
    await screenshot(page, 'console-archive-1280');
    await expectNoSeriousViolations(page, 'console-archive-1280');
  });

  it('a second import without "Replace" is refused in words with its code and changes nothing; with it, the agent is replaced', async () => {
    // The copy changes after the import, so a refused import that still wrote would show.
    await updateOrientation('hatchet-copy', 'Changed after the import.');
    const before = (await asOperator(profile('hatchet-copy'))).data.profileDocument;
    await importArchive('hatchet-copy', false);
    const alert = importForm().locator('[role=alert]');
    await alert.waitFor();
    expect(await alert.innerText()).toBe('Agent "hatchet-copy" already exists: import with replace to overwrite it (ALREADY_EXISTS)');
    expect(await importForm().locator('[role=status]').count()).toBe(0);
    expect((await asOperator(profile('hatchet-copy'))).data.profileDocument).toEqual(before);

    await importArchive('hatchet-copy', true);
    const answer = importForm().locator('[role=status]');
    await answer.waitFor();
    expect(await answer.innerText()).toBe(`Imported hatchet as hatchet-copy: ${archiveRows} rows, replacing the agent that was there.`);
    expect(await alert.count()).toBe(0);
    expect((await asOperator(profile('hatchet-copy'))).data.profileDocument).toEqual((await asOperator(profile('hatchet'))).data.profileDocument);
    expect(await page.locator('.agent-list li').allInnerTexts()).toContain('Hatchet the deploy bot (hatchet-copy)');
    expect(tab.blocked).toEqual([]);
    // Chromium logs every non-2xx response; the refused import is the only one, and nothing else failed.
    expect(tab.consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 409 (Conflict)']);
  });
});
