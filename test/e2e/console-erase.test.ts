/**
 * The console's Erase action in headless Chromium against the shipped server: the button stays
 * disabled until the operator types the agent id; a live runtime owner refuses the erasure (the
 * page says so and nothing changes) until Force is ticked; then the receipt is shown, the agent
 * leaves the list, and the other agent keeps everything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { BurrowClient } from '../../clients/typescript/sdk.js';
import { openOwner, type OwnerHandle } from '../support/continuity.js';
import { expectNoSeriousViolations } from '../support/axe.js';
import { consoleUrl, hasChromium, launchBrowser, NO_CHROMIUM, openPage, screenshot, VIEWPORTS } from '../support/browser.js';
import { announced } from '../support/announcer.js';
import { waitUntil } from '../support/harness.js';
import { createShippedToken, operatorClient, shippedAgentClient, startShipped, type ShippedServer } from '../support/shipped.js';

describe.skipIf(!hasChromium)(`console: erasing an agent in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`, () => {
  let server: ShippedServer;
  let operator: BurrowClient;
  let doomed: BurrowClient;
  let keeper: BurrowClient;
  let owner: OwnerHandle;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startShipped();
    operator = operatorClient(server);
    doomed = await shippedAgentClient(server, 'doomed');
    keeper = await shippedAgentClient(server, 'keeper');
    for (const client of [doomed, keeper]) {
      const saved = await client.brainSave({ input: { title: 'A note', content: 'Kept until erased.' } });
      if (saved.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(saved));
    }
    owner = await openOwner(operator, 'doomed');
    const { secret } = await createShippedToken(server, { name: 'console-eraser' });
    browser = await launchBrowser();
    page = (await openPage(browser, VIEWPORTS.desktop)).page;
    await page.goto(`${consoleUrl(server.url)}?token=${encodeURIComponent(secret)}#/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  });

  afterAll(async () => {
    await owner?.close();
    await browser?.close();
    await Promise.all([doomed, keeper, operator].map((client) => client?.close()));
    if (server) expect((await server.stop()).code).toBe(0);
  });

  it('erases only once the agent id is typed, refuses a live owner until forced, and shows the receipt', async () => {
    await page.locator('tr[data-agent="doomed"]').waitFor();
    await page.locator('#focus-agent').selectOption('doomed');
    const erase = page.getByRole('button', { name: 'Erase doomed' });
    expect(await erase.isDisabled()).toBe(true);
    await page.getByLabel('Type the agent id to confirm').fill('doome');
    expect(await erase.isDisabled()).toBe(true);
    await page.getByLabel('Type the agent id to confirm').fill('doomed');
    expect(await erase.isDisabled()).toBe(false);

    await erase.click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Not erased' });
    await refusal.waitFor();
    expect(await refusal.innerText()).toBe(`Not erased: a runtime owns doomed (live ownership sessions: ${owner.ownerId}). Tick "Force" to erase it anyway.`);
    expect((await operator.agent({ id: 'doomed' })).agent?.agentId).toBe('doomed');
    expect((await operator.dataRemovalReceipts({ agentId: 'doomed' })).dataRemovalReceipts.edges).toEqual([]);

    await page.getByLabel('Force (even while a runtime owner is live)').check();
    await erase.click();
    const receipt = page.locator('.receipt');
    await receipt.waitFor();
    const [kept] = (await operator.dataRemovalReceipts({ agentId: 'doomed' })).dataRemovalReceipts.edges.map((e) => e.node);
    expect(kept.completedAt).not.toBeNull();
    expect(kept.forced).toBe(true);
    expect(await receipt.getAttribute('data-receipt')).toBe(kept.receiptId);
    expect(await receipt.locator('h3').innerText()).toBe(`Receipt ${kept.receiptId}`);
    expect(await receipt.locator('code').innerText()).toBe(kept.contentHash);
    expect(await receipt.locator('tr[data-store="brain_memories"] td').allInnerTexts()).toEqual(['brain_memories', '1']);
    expect(await receipt.locator('tr[data-store="agents"] td').allInnerTexts()).toEqual(['agents', '1']);
    expect(await receipt.locator('tbody tr').count()).toBe(kept.counts.length);
    await announced(page).toBe(`Erased doomed; receipt ${kept.receiptId}.`);
    await waitUntil(async () => (await page.locator('tr[data-agent="doomed"]').count()) === 0, 'doomed to leave the agent list');
    expect(await page.locator('tr[data-agent="keeper"]').count()).toBe(1);
    expect((await operator.agent({ id: 'doomed' })).agent).toBeNull();
    expect((await operator.brainMemories({ agentId: 'keeper', first: 10 })).brainMemories.edges.map((e) => e.node.title)).toEqual(['A note']);
    await screenshot(page, 'console-erase');
    await expectNoSeriousViolations(page, 'console-erase');
  });
});
