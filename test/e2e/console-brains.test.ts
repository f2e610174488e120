/**
 * The console's Brains page in headless Chromium against the shipped server (`npm start`, or `npm
 * run burrow -- serve` on the real server's pass), following the operator workflow: sign in (token from the URL, kept in sessionStorage, removed from the address), choose
 * the Agent owner, search, New memory with source references, an edit that meets a second writer
 * (Reload memory, newer content beside the draft, deliberate retry), Select page (only the page),
 * bulk delete with per-item results where one item conflicts and one is already gone, Reload
 * conflicts and retry, another owner's memories invisible. Legacy migration details need the
 * legacy tables filled, which only an external PostgreSQL allows from outside the server: that
 * part starts its own shipped server on the real PostgreSQL.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createBurrowClient, type BurrowClient } from '../../clients/typescript/sdk.js';
import { createTestDatabase, hasRealServer, NEEDS_REAL_SERVER, type TestDatabase } from '../support/harness.js';
import { expectNoSeriousViolations } from '../support/axe.js';
import { consoleUrl, hasChromium, launchBrowser, NO_CHROMIUM, openPage, screenshot, VIEWPORTS, type ConsolePage } from '../support/browser.js';
import { announced } from '../support/announcer.js';
import { createShippedToken, operatorClient, shippedAgentClient, startShipped, type ShippedServer } from '../support/shipped.js';

const PAGE_SIZE = 10;

describe.skipIf(!hasChromium)(`console: Brains in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`, () => {
  let server: ShippedServer;
  let operator: BurrowClient;
  let browser: Browser;
  let hatchet: BurrowClient;
  let quill: BurrowClient;
  let token: string;
  let tab: ConsolePage;
  let page: Page;
  const ids = new Map<string, string>();

  const memoryRow = (title: string) => page.locator('.memories li').filter({ has: page.getByRole('button', { name: title, exact: true }) });
  const visibleTitles = () => page.locator('.memories li button.link').allInnerTexts();
  const read = async (title: string) => (await operator.brainRead({ agentId: 'hatchet', memoryId: ids.get(title)!, revisions: 10 })).brainRead;
  const liveTitles = async (agentId: string) => {
    const all: string[] = [];
    let after: string | null = null;
    for (;;) {
      const { brainMemories: page } = await operator.brainMemories({ agentId, first: 100, after });
      all.push(...page.edges.map((e) => e.node.title));
      if (!page.pageInfo.hasNextPage) return all.sort();
      after = page.pageInfo.endCursor;
    }
  };

  beforeAll(async () => {
    // The console's build is brought up to date by the global setup, before the server starts.
    server = await startShipped();
    operator = operatorClient(server);
    hatchet = await shippedAgentClient(server, 'hatchet');
    quill = await shippedAgentClient(server, 'quill');
    // Twelve agent-written memories: more than one page of ten.
    for (let i = 1; i <= 12; i++) {
      const title = `Deploy note ${String(i).padStart(2, '0')}`;
      const saved = await hatchet.brainSave({ input: { title, content: `Deploys run from release branch ${i}.` } });
      if (saved.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(saved));
      ids.set(title, saved.brainSave.memory.memoryId);
    }
    const q = await quill.brainSave({ input: { title: 'Quill private note', content: 'Only quill deploys the docs site.' } });
    if (q.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(q));
    ({ secret: token } = await createShippedToken(server, { name: 'console-operator' }));
    browser = await launchBrowser();
    tab = await openPage(browser, VIEWPORTS.desktop);
    page = tab.page;
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([hatchet, quill, operator].map((client) => client?.close()));
    if (server) expect((await server.stop()).code).toBe(0);
  });

  it('signs in with a token from the URL, keeps it in sessionStorage only and removes it from the address', async () => {
    const response = await page.goto(`${consoleUrl(server.url)}?token=${encodeURIComponent(token)}#/brains`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
    expect(page.url()).toBe(`${consoleUrl(server.url)}#/brains`);
    expect(await page.evaluate(() => sessionStorage.getItem('burrow.console.token'))).toBe(token);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await page.context().cookies()).toEqual([]);
    expect(await page.getByText('console-operator (operator)').count()).toBe(1);
  });

  it('asks for the Agent owner before searching or writing', async () => {
    expect(await page.getByRole('button', { name: 'New memory' }).count()).toBe(0);
    expect(await page.getByLabel('Search title and content').count()).toBe(0);
    await screenshot(page, 'brains-choose-owner-1280');
    await expectNoSeriousViolations(page, 'brains-choose-owner-1280');
    await page.getByLabel('Agent owner').selectOption('hatchet');
    await page.getByRole('button', { name: 'New memory' }).waitFor();
    await expect.poll(visibleTitles).toHaveLength(PAGE_SIZE);
    // Newest first: 12 down to 03 on the first page, the rest on the next.
    expect(await visibleTitles()).toEqual(Array.from({ length: 10 }, (_, i) => `Deploy note ${String(12 - i).padStart(2, '0')}`));
    await announced(page).toBe('10 memories on page 1; more on the next page.');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(visibleTitles).toEqual(['Deploy note 02', 'Deploy note 01']);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(visibleTitles).toHaveLength(PAGE_SIZE);
  });

  it('searches by substring (at least 3 characters) before writing', async () => {
    await page.getByLabel('Search title and content').fill('ch 1');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // "branch 1", "branch 10", "branch 11", "branch 12"
    await expect.poll(visibleTitles).toEqual(['Deploy note 12', 'Deploy note 11', 'Deploy note 10', 'Deploy note 01']);
    await page.getByLabel('Search title and content').fill('de');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Search needs at least 3 characters (or none, for the newest memories).');
    await page.getByLabel('Search title and content').fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(visibleTitles).toHaveLength(PAGE_SIZE);
  });

  it('saves a New memory with one source reference per line, operator-owned', async () => {
    await page.getByRole('button', { name: 'New memory' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Release checklist');
    await page.getByLabel('Content', { exact: true }).fill('Tag, build, announce.');
    await page.getByLabel('Source references (optional, one per line)').fill('conversation:s1/e1\n\n  https://wiki.example/release  \n');
    await page.getByRole('button', { name: 'Save memory' }).click();
    await announced(page).toMatch(/^(Saved “Release checklist” \(revision 1, operator-owned\)\.|11 memories on page 1|10 memories on page 1; more on the next page\.)$/);
    await page.getByRole('heading', { name: 'Memory: Release checklist' }).waitFor();
    const { brainMemories } = await operator.brainMemories({ agentId: 'hatchet', query: 'Release checklist', first: 5 });
    expect(brainMemories.edges).toHaveLength(1);
    const saved = brainMemories.edges[0].node;
    ids.set('Release checklist', saved.memoryId);
    expect(saved).toMatchObject({
      title: 'Release checklist',
      content: 'Tag, build, announce.',
      sourceRefs: ['conversation:s1/e1', 'https://wiki.example/release'],
      revision: 1,
      ownership: 'OPERATOR',
    });
    // An agent cannot update or remove an operator-owned record.
    const refused = await hatchet.brainUpdate({ input: { memoryId: saved.memoryId, expectedRevision: 1, content: 'agent rewrite' } });
    expect(refused.brainUpdate.__typename).toBe('Forbidden');
    expect((await read('Release checklist'))?.content).toBe('Tag, build, announce.');
  });

  it('rejects a stale revision when a second writer changed the memory, shows the newer content beside the draft after Reload memory, and saves on a deliberate retry', async () => {
    // The editor holds revision 1; a second writer (another operator) makes revision 2.
    const second = createBurrowClient({ url: server.url, token: (await createShippedToken(server, { name: 'second-writer' })).secret });
    const other = await second.brainUpdate({ input: { agentId: 'hatchet', memoryId: ids.get('Release checklist')!, expectedRevision: 1, content: 'Tag, build, sign, announce.' } });
    expect(other.brainUpdate.__typename).toBe('BrainUpdateSuccess');
    await second.close();

    await page.getByLabel('Content', { exact: true }).fill('Tag, build, announce, celebrate.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const alert = page.locator('.conflict');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('you read revision 1, it is now revision 2. Nothing was saved');
    // Nothing was overwritten.
    expect(await read('Release checklist')).toMatchObject({ revision: 2, content: 'Tag, build, sign, announce.' });
    await screenshot(page, 'brains-conflict-1280');
    await expectNoSeriousViolations(page, 'brains-conflict-1280');

    await page.getByRole('button', { name: 'Reload memory' }).click();
    const newer = page.getByRole('region', { name: 'Current revision 2' });
    await newer.waitFor();
    expect(await newer.innerText()).toContain('Tag, build, sign, announce.');
    // The draft is kept beside it.
    expect(await page.getByLabel('Content', { exact: true }).inputValue()).toBe('Tag, build, announce, celebrate.');
    await announced(page).toBe('Reloaded revision 2. Compare it with your draft, then save or delete again deliberately.');
    await screenshot(page, 'brains-reloaded-beside-draft-1280');
    await expectNoSeriousViolations(page, 'brains-reloaded-beside-draft-1280');

    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Memory: Release checklist' }).waitFor();
    await expect.poll(async () => (await read('Release checklist'))?.revision).toBe(3);
    expect(await read('Release checklist')).toMatchObject({ content: 'Tag, build, announce, celebrate.', ownership: 'OPERATOR' });
    expect(await page.getByRole('region', { name: 'Current revision 2' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Close' }).click();
  });

  it('Select page selects only the memories of the page, not the whole archive', async () => {
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // The search's own page, not the list shown before it (which has as many titles).
    await announced(page).toBe(`${PAGE_SIZE} memories on page 1; more on the next page.`);
    await expect.poll(visibleTitles).toHaveLength(PAGE_SIZE);
    await page.getByRole('button', { name: 'Select page' }).click();
    await page.getByRole('button', { name: `Delete selected memories (${PAGE_SIZE})` }).waitFor();
    await announced(page).toBe(`Selected the ${PAGE_SIZE} memories on this page (not the whole archive). ${PAGE_SIZE} selected.`);
    expect(await page.locator('.memories input[type=checkbox]:checked').count()).toBe(PAGE_SIZE);
    // The next page's memories are not selected.
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.locator('.memories li').count()).toBe(3);
    expect(await page.locator('.memories input[type=checkbox]:checked').count()).toBe(0);
    expect(await page.getByRole('button', { name: `Delete selected memories (${PAGE_SIZE})` }).count()).toBe(1);
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByRole('button', { name: 'Delete selected memories (0)' }).waitFor();
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(visibleTitles).toHaveLength(PAGE_SIZE);
  });

  it('bulk delete: independent per-item results (DELETED, REVISION_CONFLICT, NOT_FOUND), Reload conflicts, deliberate retry', async () => {
    for (const title of ['Deploy note 12', 'Deploy note 11', 'Deploy note 10', 'Deploy note 09'])
      await memoryRow(title)
        .getByRole('checkbox', { name: `Select ${title}` })
        .check();
    await page.getByRole('button', { name: 'Delete selected memories (4)' }).waitFor();
    // Meanwhile the agent rewrites 11 and removes 10.
    const rewrite = await hatchet.brainUpdate({ input: { memoryId: ids.get('Deploy note 11')!, expectedRevision: 1, content: 'Deploys now run from main.' } });
    expect(rewrite.brainUpdate.__typename).toBe('BrainUpdateSuccess');
    const removed = await hatchet.brainRemove({ input: { memoryId: ids.get('Deploy note 10')!, expectedRevision: 1 } });
    expect(removed.brainRemove.__typename).toBe('BrainRemoveSuccess');

    await page.getByRole('button', { name: 'Delete selected memories (4)' }).click();
    await page.getByRole('button', { name: 'Confirm delete' }).click();
    const results = page.getByRole('region', { name: 'Deletion results' });
    await results.waitFor();
    await announced(page).toBe('Deletion results: 2 deleted, 1 revision conflicts, 1 not found, 0 forbidden.');
    const rows = async () => await results.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.children[0].textContent, tr.getAttribute('data-status')]));
    expect(await rows()).toEqual([
      ['Deploy note 12', 'DELETED'],
      ['Deploy note 11', 'REVISION_CONFLICT'],
      ['Deploy note 10', 'NOT_FOUND'],
      ['Deploy note 09', 'DELETED'],
    ]);
    // In words, not the API's developer text.
    expect(await results.locator('tr[data-status=REVISION_CONFLICT] td').last().innerText()).toBe(
      'Someone else changed this memory (now revision 2; you read 1). Reload to see their version.',
    );
    expect(await results.locator('tr[data-status=NOT_FOUND] td').last().innerText()).toBe('This memory no longer exists: another writer removed it. Reload the list.');
    // Independent, not atomic: 12 and 09 are gone, 11 keeps the agent's rewrite.
    expect(await read('Deploy note 12')).toBeNull();
    expect(await read('Deploy note 09')).toBeNull();
    expect(await read('Deploy note 11')).toMatchObject({ revision: 2, content: 'Deploys now run from main.' });
    // The conflict stays selected; the deleted and missing ones left the page and the selection.
    await page.getByRole('button', { name: 'Delete selected memories (1)' }).waitFor();
    expect(await visibleTitles()).not.toContain('Deploy note 12');
    await screenshot(page, 'brains-bulk-results-1280');
    await expectNoSeriousViolations(page, 'brains-bulk-results-1280');

    await page.getByRole('button', { name: 'Reload conflicts' }).click();
    await expect.poll(() => results.locator('tr[data-status=REVISION_CONFLICT]').innerText()).toContain('Reloaded: now revision 2, “Deploy note 11”');
    expect(await memoryRow('Deploy note 11').innerText()).toContain('Deploys now run from main.');
    expect(await memoryRow('Deploy note 11').getByRole('checkbox').isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Delete selected memories (1)' }).click();
    await page.getByRole('button', { name: 'Confirm delete' }).click();
    await announced(page).toBe('Deletion results: 1 deleted, 0 revision conflicts, 0 not found, 0 forbidden.');
    expect(await read('Deploy note 11')).toBeNull();
    expect(await liveTitles('hatchet')).toEqual([
      'Deploy note 01',
      'Deploy note 02',
      'Deploy note 03',
      'Deploy note 04',
      'Deploy note 05',
      'Deploy note 06',
      'Deploy note 07',
      'Deploy note 08',
      'Release checklist',
    ]);
    expect(await liveTitles('quill')).toEqual(['Quill private note']);
  });

  it("hides one agent's memories when another Agent owner is chosen", async () => {
    await page.getByLabel('Agent owner').selectOption('quill');
    await expect.poll(visibleTitles).toEqual(['Quill private note']);
    await page.getByLabel('Search title and content').fill('deploy');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await announced(page).toBe('1 memory on page 1 matching “deploy”.');
    expect(await visibleTitles()).toEqual(['Quill private note']);
    await page.getByLabel('Search title and content').fill('release branch');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await announced(page).toBe('0 memories on page 1 matching “release branch”.');
    expect(await visibleTitles()).toEqual([]);
    expect(await page.getByText('Deploy note', { exact: false }).count()).toBe(0);
  });

  it('is usable at phone width and by keyboard, and nothing left this machine', async () => {
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'brains-375');
    await expectNoSeriousViolations(page, 'brains-375');
    // No horizontal scrolling of the page at 375 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // Keyboard: from the heading, Tab reaches the Agent owner select before anything on the page.
    await page.getByRole('link', { name: 'Brains' }).click();
    await page.locator('h1').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('owner');
    await page.setViewportSize(VIEWPORTS.desktop);
    expect(tab.blocked).toEqual([]);
    expect(tab.consoleErrors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
  });
});

describe.skipIf(!hasChromium || !hasRealServer)(
  `console: Legacy migration details in headless Chromium (${!hasChromium ? NO_CHROMIUM : hasRealServer ? 'on an external PostgreSQL, where the legacy tables can be filled' : NEEDS_REAL_SERVER})`,
  () => {
    let database: TestDatabase;
    let server: ShippedServer;
    let operator: BurrowClient;
    let browser: Browser;
    let page: Page;
    const memoryRow = (title: string) => page.locator('.memories li').filter({ has: page.getByRole('button', { name: title, exact: true }) });
    const visibleTitles = () => page.locator('.memories li button.link').allInnerTexts();

    beforeAll(async () => {
      // The legacy tables live in the PostgreSQL Burrow is pointed at: `npm run burrow -- serve` on it.
      database = await createTestDatabase({ real: true });
      server = await startShipped({ lifecycle: 'external', database });
      operator = operatorClient(server);
      await shippedAgentClient(server, 'hatchet').then((client) => client.close());
      browser = await launchBrowser();
      page = (await openPage(browser, VIEWPORTS.desktop)).page;
    });

    afterAll(async () => {
      await browser?.close();
      await operator?.close();
      if (server) expect((await server.stop()).code).toBe(0);
      await database?.drop();
    });

    it('labels imported records migrated_albdruck and shows Legacy migration details', async () => {
      const legacy = new pg.Client({ connectionString: database.url! });
      await legacy.connect();
      try {
        await legacy.query(
          `INSERT INTO albdruck_knowledge (id, owner_agent_id, title, body, status, operator_corrected, operator_deleted, created_by, created_at, updated_at)
         VALUES ('legacy-7', NULL, 'Office hours', 'The office opens at nine.', 'active', true, false, 'legacy-user', '2025-03-01T10:00:00Z', '2025-04-01T10:00:00Z')`,
        );
        await legacy.query(
          `INSERT INTO albdruck_evidence (id, knowledge_id, reference, excerpt, created_at) VALUES ('ev-1', 'legacy-7', 'conv:41', 'said so', '2025-03-01T10:00:00Z')`,
        );
      } finally {
        await legacy.end();
      }
      const imported = await operator.importAlbdruck();
      expect(imported.importAlbdruck).toMatchObject({ imported: 1, failed: 0 });

      const { secret } = await createShippedToken(server, { name: 'console-operator' });
      await page.goto(`${consoleUrl(server.url)}#/brains&token=${encodeURIComponent(secret)}`);
      await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
      await page.getByLabel('Agent owner').selectOption('hatchet');
      await page.getByLabel('Search title and content').fill('office');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect.poll(visibleTitles).toEqual(['Office hours']);
      expect(await memoryRow('Office hours').locator('.label').allInnerTexts()).toEqual(['migrated_albdruck']);
      await page.getByRole('button', { name: 'Office hours', exact: true }).click();
      const details = page.locator('details.legacy');
      await details.locator('summary', { hasText: 'Legacy migration details' }).click();
      const text = await details.innerText();
      expect(text).toContain('legacy-7');
      expect(text).toContain('global (owned by hatchet after import)');
      expect(text).toContain('yes / no');
      expect(text).toContain('1 evidence, 0 revision snapshots');
      expect(text).toContain('conv:41');
      await screenshot(page, 'brains-legacy-1280');
      await expectNoSeriousViolations(page, 'brains-legacy-1280');
      await page.setViewportSize(VIEWPORTS.phone);
      await screenshot(page, 'brains-legacy-375');
      await expectNoSeriousViolations(page, 'brains-legacy-375');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    });
  },
);
