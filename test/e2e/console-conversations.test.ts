/**
 * The Conversations page in headless Chromium against the shipped server. Two sessions of one
 * agent are seeded through the API with known messages, and one is compacted there, so a summary
 * exists. The page shows each session's counts and archive generations; the active history with
 * the summary where the compaction happened (and the originals it replaced, on request); every
 * original with its exact JSON text and where it lives; a search hit in both sessions. A session is
 * archived (by keyboard, with the confirmation) and shows its archived state and generation, then
 * unarchived; another is compacted through the page. A cancelled or escaped confirmation changes
 * nothing, and a refused compaction is said in words with its code; both checked through the API.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { consoleUrl, hasChromium, launchBrowser, NO_CHROMIUM, openPage, screenshot, VIEWPORTS, type ConsolePage } from '../support/browser.js';
import { announced } from '../support/announcer.js';
import { postGraphQL, startShipped, type ShippedServer } from '../support/shipped.js';

const AGENT = 'hatchet';
/** Known messages, each session's in append order; the odd spacing shows the originals are the stored text byte for byte. */
const ALPHA = [
  '{"content": "Deploy the shop on Friday?"}',
  '{"content":"The kestrel release needs a database migration first.",  "n": 2}',
  '{"content": "Then run the migration on Thursday."}',
  '{"content": "Agreed: migration Thursday, deploy Friday."}',
];
const BETA = ['{"content": "A kestrel was seen near the datacenter."}', '{"content": "Noted in the facilities log."}'];
const ALPHA_SUMMARY = '{"content": "Summary: the kestrel release waits for Thursday\'s migration."}';

const SESSION = `query($s: String!) { conversationSession(agentId: "${AGENT}", sessionId: $s) {
  activeCount archivedCount originalCount archiveGenerations archived archiveReason archivedBy { kind principalId }
  archives { generation kind entryCount firstPosition lastPosition summaryEntryId } } }`;
const HISTORY = `query($s: String!) { conversationHistory(agentId: "${AGENT}", sessionId: $s) { edges { node { position historyPosition summarizesGeneration payload } } } }`;

describe.skipIf(!hasChromium)(`console: conversations in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`, () => {
  let server: ShippedServer;
  let browser: Browser;
  let tab: ConsolePage;
  let page: Page;
  let tokenName = '';

  const asOperator = async (query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    (await postGraphQL(server, server.operatorToken, { query, variables }, headers)).body;
  const append = async (sessionId: string, payload: string, role: string) => {
    const r = await asOperator(
      `mutation($p: String!, $r: String) { appendConversationEntry(input: { agentId: "${AGENT}", payload: $p, role: $r }) { __typename } }`,
      { p: payload, r: role },
      { 'burrow-session': sessionId },
    );
    expect(r.data.appendConversationEntry.__typename).toBe('AppendConversationEntrySuccess');
  };
  const sessionOf = async (sessionId: string) => (await asOperator(SESSION, { s: sessionId })).data.conversationSession;
  const historyOf = async (sessionId: string) => (await asOperator(HISTORY, { s: sessionId })).data.conversationHistory.edges.map((e: { node: unknown }) => e.node);
  const detail = () => page.locator('section.session-detail');
  const row = (sessionId: string) => page.locator(`tr[data-session="${sessionId}"]`);
  const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? null);

  beforeAll(async () => {
    server = await startShipped();
    browser = await launchBrowser();
    tab = await openPage(browser, VIEWPORTS.desktop);
    page = tab.page;
    const created = await asOperator(`mutation { createAgent(input: { agentId: "${AGENT}", name: "Hatchet the deploy bot" }) { __typename } }`);
    expect(created.data.createAgent.__typename).toBe('CreateAgentSuccess');
    tokenName = (await asOperator('{ viewer { tokenName } }')).data.viewer.tokenName;
    const other = await asOperator('mutation { createAgent(input: { agentId: "wren", name: "Wren" }) { __typename } }');
    expect(other.data.createAgent.__typename).toBe('CreateAgentSuccess');
    for (const [i, payload] of ALPHA.entries()) await append('s-alpha', payload, i % 2 === 0 ? 'user' : 'assistant');
    for (const [i, payload] of BETA.entries()) await append('s-beta', payload, i % 2 === 0 ? 'user' : 'assistant');
    const compacted = await asOperator(
      `mutation($p: String!) { compactConversation(input: { agentId: "${AGENT}", sessionId: "s-alpha", fromPosition: 2, toPosition: 3, summary: $p, role: "system" }) {
        __typename ... on CompactConversationSuccess { compaction { archive { generation } summary { position historyPosition } } } } }`,
      { p: ALPHA_SUMMARY },
    );
    expect(compacted.data.compactConversation).toEqual({
      __typename: 'CompactConversationSuccess',
      compaction: { archive: { generation: 1 }, summary: { position: 5, historyPosition: 2 } },
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (server) expect((await server.stop()).code).toBe(0);
  });

  it("lists the chosen agent's sessions with their counts and archive generations", async () => {
    await page.goto(`${consoleUrl(server.url)}#/conversations`);
    await page.getByLabel('Operator token').fill(server.operatorToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Conversations');
    expect(await page.locator('nav a[aria-current=page]').innerText()).toBe('Conversations');
    expect(await page.locator('nav a').allInnerTexts()).toEqual(['Agents', 'Brains', 'Conversations', 'Dashboard', 'Operations', 'Profiles', 'Tokens']);
    await page.locator(`#conversation-owner option[value=${AGENT}]`).waitFor({ state: 'attached' });
    await page.getByLabel('Agent owner').selectOption(AGENT);
    await row('s-alpha').waitFor();
    // Newest first (first append): beta started after alpha. The last-activity cell is a time.
    expect(await page.locator('tr[data-session]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-session')))).toEqual(['s-beta', 's-alpha']);
    const cells = async (sessionId: string) => (await row(sessionId).locator('th, td').allInnerTexts()).filter((_, i) => i !== 4);
    expect(await cells('s-alpha')).toEqual(['s-alpha', '3', '5 (2 archived)', '1', 'open']);
    expect(await cells('s-beta')).toEqual(['s-beta', '2', '2', '0', 'open']);
  });

  it('opens a session beside the list: the history has the summary where the compaction happened, and the originals it replaced', async () => {
    await row('s-alpha').getByRole('button', { name: 's-alpha' }).click();
    await detail().getByRole('heading', { name: 'Session s-alpha' }).waitFor();
    // Focus is moved in an effect after the paint: polled, not read the moment the heading shows.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 10_000 }).toBe('session-h');
    await detail().locator('[data-counts]').waitFor();
    expect(await detail().locator('[data-counts]').innerText()).toBe('3 messages in the active history, 5 originals (2 archived), 1 archive generation');
    expect(await detail().locator('[data-state]').innerText()).toBe('open: accepts appends, compactions and resets');
    expect(await detail().locator('li[data-generation]').allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`^Generation 1: compaction, positions 2–3 \\(2\\), .+ by OPERATOR:${tokenName}$`)),
    ]);
    // Side by side at 1280 px: the detail starts level with the list, to its right.
    const [list, open] = [await page.locator('.conversations-list').boundingBox(), await page.locator('.conversations-detail').boundingBox()];
    expect([open!.x > list!.x + list!.width - 1, Math.abs(open!.y - list!.y) < 2]).toEqual([true, true]);

    const history = detail().locator('ol.history-entries > li');
    await history.first().waitFor();
    expect(await history.evaluateAll((items) => items.map((li) => [li.getAttribute('data-position'), li.className]))).toEqual([
      ['1', ''],
      ['5', 'summary'],
      ['4', ''],
    ]);
    const summary = detail().locator('ol.history-entries > li.summary');
    expect(await summary.locator('.summary-label').innerText()).toBe('Compaction summary of generation 1 (positions 2–3, 2 originals)');
    expect(await summary.locator('.entry-text').innerText()).toBe("Summary: the kestrel release waits for Thursday's migration.");
    await summary.getByRole('button', { name: 'Show the originals it replaced' }).click();
    const replaced = summary.locator('ol[aria-label="Originals of generation 1"] > li');
    await replaced.first().waitFor();
    expect(await replaced.locator('.entry-text').allInnerTexts()).toEqual(['The kestrel release needs a database migration first.', 'Then run the migration on Thursday.']);
    expect(await summary.getByRole('button', { name: 'Hide the originals it replaced' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('shows every original with its exact JSON text and where it lives now', async () => {
    await detail().getByRole('button', { name: 'All originals (5)' }).click();
    const originals = detail().locator('ol.original-entries > li');
    await originals.first().waitFor();
    expect(await originals.evaluateAll((items) => items.map((li) => li.getAttribute('data-position')))).toEqual(['1', '2', '3', '4', '5']);
    expect(await originals.locator('pre.payload').allTextContents()).toEqual([...ALPHA, ALPHA_SUMMARY]);
    expect(await originals.locator('[data-place]').allInnerTexts()).toEqual(['active', 'archived in generation 1', 'archived in generation 1', 'active', 'active']);
    expect(await originals.nth(4).locator('.meta').nth(1).innerText()).toMatch(/^active, the summary of generation 1 · conversation:s-alpha\/\S+$/);
    expect(await detail().getByRole('button', { name: 'All originals (5)' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('finds a word across both sessions, archived originals included, and opens a hit by its session', async () => {
    const search = page.locator('section.conversation-search');
    await search.getByLabel('Search text (at least 3 characters)').fill('ke');
    await search.getByRole('button', { name: 'Search' }).click();
    expect(await search.locator('[role=alert]').innerText()).toBe('Search needs at least 3 characters.');
    await search.getByLabel('Search text (at least 3 characters)').fill('KESTREL');
    await search.getByLabel('Search text (at least 3 characters)').press('Enter');
    const hits = search.locator('ol.search-hits > li');
    await hits.first().waitFor();
    // Newest first: the summary, beta's first message, then alpha's archived original.
    expect(await hits.evaluateAll((items) => items.map((li) => li.getAttribute('data-hit')))).toEqual(['s-alpha/5', 's-beta/1', 's-alpha/2']);
    expect(await hits.nth(2).locator('.meta').innerText()).toMatch(/^Open session s-alpha #2 · assistant · archived in generation 1 · \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await announced(page).toBe('3 hits for “KESTREL”.');
    await hits.nth(1).getByRole('button', { name: 'Open session s-beta' }).click();
    await detail().getByRole('heading', { name: 'Session s-beta' }).waitFor();
    // Focus is moved in an effect after the paint: polled, not read the moment the heading shows.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 10_000 }).toBe('session-h');
    expect(await search.locator('[role=alert]').count()).toBe(0);
  });

  it('compacts a session through the page after a confirmation; a cancelled one and a refused one change nothing', async () => {
    const form = detail().locator('form.compact-form');
    const dialog = page.getByRole('dialog', { name: 'Compact positions 1–2 of session s-beta?' });
    const before = [await sessionOf('s-beta'), await historyOf('s-beta')];
    await form.getByLabel('From position').fill('1');
    await form.getByLabel('To position').fill('2');
    await form.getByLabel('Summary', { exact: true }).fill('A kestrel near the datacenter, logged.');
    await form.getByRole('button', { name: 'Compact…' }).click();
    await dialog.waitFor();
    expect(await focusedText()).toBe('Cancel');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await focusedText()).toBe('Compact…');
    expect([await sessionOf('s-beta'), await historyOf('s-beta')]).toEqual(before);

    // A position that is not in the active history: the refusal in words, with its code, in the dialog.
    await form.getByLabel('To position').fill('9');
    await form.getByRole('button', { name: 'Compact…' }).click();
    const refused = page.getByRole('dialog', { name: 'Compact positions 1–9 of session s-beta?' });
    await refused.getByRole('button', { name: 'Compact', exact: true }).click();
    await refused.locator('[role=alert]').waitFor();
    expect(await refused.locator('[role=alert]').innerText()).toBe('Position 9 is not an active entry of session s-beta (VALIDATION_FAILED)');
    await page.keyboard.press('Escape');
    await refused.waitFor({ state: 'detached' });
    expect([await sessionOf('s-beta'), await historyOf('s-beta')]).toEqual(before);

    await form.getByLabel('To position').fill('2');
    await form.getByRole('button', { name: 'Compact…' }).click();
    await dialog.getByRole('button', { name: 'Compact', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const result = 'Compacted 2 originals (positions 1–2) into archive generation 1; the summary is position 3, in their place.';
    await detail().locator('[data-result]').getByText(result).waitFor();
    await announced(page).toBe(result);
    expect(await historyOf('s-beta')).toEqual([{ position: 3, historyPosition: 1, summarizesGeneration: 1, payload: '{"content":"A kestrel near the datacenter, logged."}' }]);
    await detail().locator('li.summary[data-position="3"]').waitFor();
    // The counts are read again by a request of their own, which may answer after the history's.
    const counts = '1 message in the active history, 3 originals (2 archived), 1 archive generation';
    await detail().locator('[data-counts]', { hasText: counts }).waitFor();
    expect(await detail().locator('[data-counts]').innerText()).toBe(counts);
    await row('s-beta').locator('td', { hasText: '3 (2 archived)' }).waitFor();
  });

  it('archives a session by keyboard after the confirmation (Escape first changes nothing), then unarchives it', async () => {
    await row('s-alpha').getByRole('button', { name: 's-alpha' }).click();
    await detail().getByRole('heading', { name: 'Session s-alpha' }).waitFor();
    await detail().locator('[data-counts]').waitFor();
    const before = await sessionOf('s-alpha');
    const button = detail().getByRole('button', { name: 'Archive session' });
    const dialog = page.getByRole('dialog', { name: 'Archive session s-alpha?' });

    await button.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    expect(await focusedText()).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focusedText()).toBe('Archive session');
    expect(await sessionOf('s-alpha')).toEqual(before);

    // The whole archive by keyboard: open, back from Cancel to the reason, type it, forward to the confirm.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('archive-reason');
    await page.keyboard.type('Release shipped.');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusedText()).toBe('Archive session');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await detail()
      .locator('[data-state]')
      .getByText(/^archived /)
      .waitFor();
    expect(await detail().locator('[data-state]').innerText()).toMatch(
      new RegExp(`^archived \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d by OPERATOR:${tokenName}: Release shipped\\.$`),
    );
    // Archiving is metadata: the generation and the counts stay, the compaction form goes (an archived session refuses it).
    expect(await detail().locator('li[data-generation]').count()).toBe(1);
    expect(await detail().locator('[data-counts]').innerText()).toBe('3 messages in the active history, 5 originals (2 archived), 1 archive generation');
    expect(await detail().locator('form.compact-form').count()).toBe(0);
    expect(await focusedText()).toBe('Unarchive session');
    const said = 'Session s-alpha archived: its originals stay readable and searchable; it refuses appends, compactions and resets until unarchived.';
    expect(await detail().locator('[data-result]').innerText()).toBe(said);
    await announced(page).toBe(said);
    await row('s-alpha').locator('td[data-state]', { hasText: 'archived' }).waitFor();
    const archived = await sessionOf('s-alpha');
    expect(archived).toEqual({ ...before, archived: true, archiveReason: 'Release shipped.', archivedBy: { kind: 'OPERATOR', principalId: tokenName } });
    await screenshot(page, 'console-conversations');

    await page.getByLabel('Show', { exact: true }).selectOption('ONLY');
    await row('s-beta').waitFor({ state: 'detached' });
    await row('s-alpha').waitFor();
    expect(await page.locator('tr[data-session]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-session')))).toEqual(['s-alpha']);

    await detail().getByRole('button', { name: 'Unarchive session' }).click();
    const unarchive = page.getByRole('dialog', { name: 'Unarchive session s-alpha?' });
    await unarchive.getByRole('button', { name: 'Cancel' }).click();
    await unarchive.waitFor({ state: 'detached' });
    expect(await sessionOf('s-alpha')).toEqual(archived);
    await detail().getByRole('button', { name: 'Unarchive session' }).click();
    await unarchive.getByRole('button', { name: 'Unarchive session' }).click();
    await unarchive.waitFor({ state: 'detached' });
    await detail().locator('[data-state]').getByText('open: accepts appends, compactions and resets').waitFor();
    expect(await sessionOf('s-alpha')).toEqual({ ...before, archived: false, archiveReason: null, archivedBy: null });
    expect(await detail().locator('form.compact-form').count()).toBe(1);
    // The "Archived only" list no longer holds it.
    await page.locator('.session-list').getByText('No session is archived.').waitFor();
    expect(tab.blocked).toEqual([]);
    expect(tab.consoleErrors).toEqual([]);
  });

  it('at phone width the open session follows the list and nothing widens the page', async () => {
    const phone = await openPage(browser, VIEWPORTS.phone);
    await phone.page.goto(`${consoleUrl(server.url)}#/conversations`);
    await phone.page.getByLabel('Operator token').fill(server.operatorToken);
    await phone.page.getByRole('button', { name: 'Sign in' }).click();
    await phone.page.locator(`#conversation-owner option[value=${AGENT}]`).waitFor({ state: 'attached' });
    await phone.page.getByLabel('Agent owner').selectOption(AGENT);
    await phone.page.locator('tr[data-session="s-alpha"]').getByRole('button', { name: 's-alpha' }).click();
    await phone.page.locator('ol.history-entries > li').first().waitFor();
    const [list, open] = [await phone.page.locator('.conversations-list').boundingBox(), await phone.page.locator('.conversations-detail').boundingBox()];
    expect(open!.y).toBeGreaterThanOrEqual(list!.y + list!.height);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await screenshot(phone.page, 'console-conversations-375');
    await phone.page.context().close();
  });

  it('passes the axe checks with a session open', async () => {
    // Evaluated rather than added as a script tag: the console's CSP allows no inline script.
    await page.evaluate(await readFile(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8'));
    const violations = await page.evaluate(async () => {
      const result = await (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe.run(
        document,
        {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
        },
      );
      return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
    });
    expect(violations).toEqual([]);
  });

  it("another agent shows only its own sessions (none) and closes the open one; back again, the agent's sessions return", async () => {
    await page.getByLabel('Show', { exact: true }).selectOption('INCLUDE');
    await row('s-beta').waitFor();
    await page.getByLabel('Agent owner').selectOption('wren');
    await page.locator('.session-list').getByText("No session yet: a runtime's first append starts one.").waitFor();
    expect(await page.getByRole('heading', { level: 2, name: 'Sessions of wren' }).count()).toBe(1);
    expect(await detail().count()).toBe(0);
    await page.getByLabel('Agent owner').selectOption(AGENT);
    await row('s-alpha').waitFor();
    expect(await detail().count()).toBe(0);
    expect(tab.consoleErrors).toEqual([]);
  });
});
