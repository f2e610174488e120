/**
 * The console's Brains page, second part, in headless Chromium against the shipped server:
 * totals and paging ("1–10 of 12"), sort and ownership filter, ids and times, a memory's revision
 * history with its line diff and Restore (a revision-checked update: a restore after another
 * writer's change shows the conflict), a confirmation before a single delete (Cancel changes
 * nothing), human error messages with the code kept small, and at 1280×800 the editor beside the
 * list, inside the viewport. Every change is checked through the API as well.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { BurrowClient } from '../../clients/typescript/sdk.js';
import { expectNoSeriousViolations } from '../support/axe.js';
import { consoleUrl, hasChromium, launchBrowser, NO_CHROMIUM, openPage, screenshot, VIEWPORTS, type ConsolePage } from '../support/browser.js';
import { announced } from '../support/announcer.js';
import { createShippedToken, operatorClient, shippedAgentClient, startShipped, type ShippedServer } from '../support/shipped.js';

const title = (i: number) => `Note ${String(i).padStart(2, '0')}`;
const V1 = 'alpha\nbeta\ngamma';
const V2 = 'alpha\nBETA\ngamma';
const V3 = 'alpha\nBETA\ngamma\ndelta';

describe.skipIf(!hasChromium)(`console: Brains history, totals and layout in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`, () => {
  let server: ShippedServer;
  let operator: BurrowClient;
  let browser: Browser;
  let hatchet: BurrowClient;
  let tab: ConsolePage;
  let page: Page;
  const ids = new Map<string, string>();

  const visibleTitles = () => page.locator('.memories li button.link').allInnerTexts();
  const totals = () => page.locator('nav[aria-label=Pages] .totals').innerText();
  const read = async (t: string) => (await operator.brainRead({ agentId: 'hatchet', memoryId: ids.get(t)!, revisions: 10 })).brainRead;
  const update = async (t: string, expectedRevision: number, content: string) => {
    const r = await operator.brainUpdate({ input: { agentId: 'hatchet', memoryId: ids.get(t)!, expectedRevision, content } });
    expect(r.brainUpdate.__typename).toBe('BrainUpdateSuccess');
  };

  beforeAll(async () => {
    server = await startShipped();
    operator = operatorClient(server);
    hatchet = await shippedAgentClient(server, 'hatchet');
    for (let i = 1; i <= 12; i++) {
      const saved = await hatchet.brainSave({ input: { title: title(i), content: i === 5 ? V1 : `Content of note ${i}.`, sourceRefs: i === 5 ? ['conversation:c1/e1'] : [] } });
      if (saved.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(saved));
      ids.set(title(i), saved.brainSave.memory.memoryId);
    }
    // Note 05 edited twice by an operator: three revisions, operator-owned, the most recently updated.
    await update(title(5), 1, V2);
    await update(title(5), 2, V3);
    const { secret } = await createShippedToken(server, { name: 'console-operator' });
    browser = await launchBrowser();
    tab = await openPage(browser, VIEWPORTS.desktop);
    page = tab.page;
    await page.goto(`${consoleUrl(server.url)}?token=${encodeURIComponent(secret)}#/brains`);
    await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([hatchet, operator].map((client) => client?.close()));
    if (server) expect((await server.stop()).code).toBe(0);
  });

  it('shows totals and pages ("1–10 of 12", "11–12 of 12"), most recently updated first', async () => {
    await page.getByLabel('Agent owner').selectOption('hatchet');
    await expect.poll(totals).toBe('1–10 of 12');
    expect(await visibleTitles()).toEqual([title(5), ...[12, 11, 10, 9, 8, 7, 6, 4, 3].map(title)]);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(totals).toBe('11–12 of 12');
    expect(await visibleTitles()).toEqual([title(2), title(1)]);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(totals).toBe('1–10 of 12');
    // Ids and times are on each row.
    const row = page.locator('.memories li').first();
    expect(await row.innerText()).toContain(`id ${ids.get(title(5))}`);
    expect(await row.locator('time').first().getAttribute('datetime')).toBe((await read(title(5)))!.updatedAt);
  });

  it('sorts by title and by creation, and filters by ownership', async () => {
    await page.getByLabel('Sort').selectOption('TITLE_ASC');
    await expect.poll(visibleTitles).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(title));
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(visibleTitles).toEqual([title(11), title(12)]);
    expect(await totals()).toBe('11–12 of 12');
    await page.getByLabel('Sort').selectOption('CREATED_AT_DESC');
    // A new order starts at the first page.
    await expect.poll(visibleTitles).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map(title));
    await page.getByLabel('Owned by').selectOption('OPERATOR');
    await expect.poll(visibleTitles).toEqual([title(5)]);
    expect(await totals()).toBe('1–1 of 1');
    await page.getByLabel('Owned by').selectOption('AGENT');
    await expect.poll(totals).toBe('1–10 of 11');
    expect(await visibleTitles()).not.toContain(title(5));
    await page.getByLabel('Owned by').selectOption('');
    await page.getByLabel('Sort').selectOption('UPDATED_AT_DESC');
    await expect.poll(totals).toBe('1–10 of 12');
  });

  it('opens the editor beside the list, inside the 1280×800 viewport', async () => {
    await page.getByRole('button', { name: title(5), exact: true }).click();
    await page.getByRole('heading', { name: `Memory: ${title(5)}` }).waitFor();
    // Keyboard: the title field has the focus (given on the next animation frame, so waited for).
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('mem-title');
    // Seen without scrolling: from the top of the page, the editor stands beside the list, whole.
    await page.evaluate(() => window.scrollTo(0, 0));
    const editor = (await page.locator('.brains-editor').boundingBox())!;
    const list = (await page.locator('.brains-list').boundingBox())!;
    expect(editor.x).toBeGreaterThanOrEqual(list.x + list.width);
    expect(Math.abs(editor.y - list.y)).toBeLessThan(2);
    expect(editor.y).toBeGreaterThanOrEqual(0);
    expect(editor.y + editor.height).toBeLessThanOrEqual(800);
    expect(editor.x + editor.width).toBeLessThanOrEqual(1280);
    const save = (await page.getByRole('button', { name: 'Save changes' }).boundingBox())!;
    expect(save.y + save.height).toBeLessThanOrEqual(800);
    const facts = await page.locator('.brains-editor .facts').innerText();
    expect(facts).toContain(ids.get(title(5)));
    expect(facts).toContain('by agent hatchet');
    expect(facts).toMatch(/Updated\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC by operator /);
  });

  it('shows three revisions of a memory edited twice, with a line diff against the current one', async () => {
    const history = page.getByRole('list', { name: '3 revisions, newest first' });
    await history.waitFor();
    expect(await history.locator('li').evaluateAll((lis) => lis.map((li) => li.textContent!.split(' by ')[0]))).toEqual([
      'Revision 3 updated',
      'Revision 2 updated',
      'Revision 1 created',
    ]);
    await page.getByRole('button', { name: 'Revision 1', exact: true }).click();
    const diff = page.getByRole('region', { name: 'What restoring revision 1 would change' });
    expect(await diff.locator('del').allInnerTexts()).toEqual(['- BETA', '- delta']);
    expect(await diff.locator('ins').allInnerTexts()).toEqual(['+ beta']);
    await page.locator('.brains-editor').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await screenshot(page, 'console-brains-history-1280');
    await expectNoSeriousViolations(page, 'console-brains-history-1280');
  });

  it('Restore of revision 1 writes revision 4 with revision 1’s content', async () => {
    await page.getByRole('button', { name: 'Restore revision 1' }).click();
    await announced(page).toBe('Restored revision 1 as revision 4.');
    expect(await read(title(5))).toMatchObject({ revision: 4, title: title(5), content: V1, sourceRefs: ['conversation:c1/e1'], ownership: 'OPERATOR' });
    await page.getByRole('list', { name: '4 revisions, newest first' }).waitFor();
    expect(await page.getByLabel('Content', { exact: true }).inputValue()).toBe(V1);
  });

  it('a restore after another writer changed the memory shows the conflict and writes nothing', async () => {
    await update(title(5), 4, 'written elsewhere');
    await page.getByRole('button', { name: 'Revision 2', exact: true }).click();
    await page.getByRole('button', { name: 'Restore revision 2' }).click();
    const conflict = page.locator('.conflict');
    await conflict.waitFor();
    expect(await conflict.innerText()).toContain('you read revision 4, it is now revision 5. Nothing was restored');
    expect(await conflict.innerText()).toContain('Code: REVISION_CONFLICT');
    expect(await read(title(5))).toMatchObject({ revision: 5, content: 'written elsewhere' });
    await page.getByRole('button', { name: 'Reload memory' }).click();
    await page.getByRole('list', { name: '5 revisions, newest first' }).waitFor();
  });

  it('asks before a single delete: Cancel (or Escape) deletes nothing, Confirm deletes', async () => {
    await page.getByRole('button', { name: 'Delete memory' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete “${title(5)}”?` });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await read(title(5))).toMatchObject({ revision: 5, content: 'written elsewhere' });
    await page.getByRole('button', { name: 'Delete memory' }).click();
    await dialog.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Delete memory');
    expect(await read(title(5))).not.toBeNull();
    await page.getByRole('button', { name: 'Delete memory' }).click();
    await dialog.getByRole('button', { name: 'Confirm delete' }).click();
    await expect.poll(() => read(title(5))).toBeNull();
    await expect.poll(totals).toBe('1–10 of 11');
    await announced(page).toBe(`Deleted “${title(5)}”.`);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('brain-query');
  });

  it('shows human error messages with the code small, never the API text', async () => {
    await page.getByRole('button', { name: title(7), exact: true }).click();
    await page.getByRole('heading', { name: `Memory: ${title(7)}` }).waitFor();
    await page.getByLabel('Title', { exact: true }).fill('   ');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const alert = page.locator('p.error[role=alert]');
    await expect
      .poll(() => alert.innerText())
      .toBe('The memory was not saved: check the title (1 to 240 characters), the content (up to 24,000) and at most 12 source references. Code: VALIDATION_FAILED');
    expect(await alert.innerText()).not.toContain('must not be empty');
    expect(await read(title(7))).toMatchObject({ revision: 1, title: title(7) });

    // A memory another writer removed meanwhile.
    const removed = await hatchet.brainRemove({ input: { memoryId: ids.get(title(6))!, expectedRevision: 1 } });
    expect(removed.brainRemove.__typename).toBe('BrainRemoveSuccess');
    await page.getByRole('button', { name: title(6), exact: true }).click();
    await expect.poll(() => alert.innerText()).toBe('This memory no longer exists: another writer removed it. Reload the list. Code: NOT_FOUND');
    expect(tab.blocked).toEqual([]);
    expect(tab.consoleErrors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
  });
});
