/**
 * The page of one agent in headless Chromium against the shipped server: reached from the Agents
 * list by keyboard (Tab to the agent's link, Enter), it shows the counts, profile, newest
 * memories, working records, handoffs and a rolling card (made by a Tiddle pass over a scripted
 * proposer) grouped by scope, conversation sessions, continuity runs and Tiddle status of an agent
 * seeded through the API, exactly; a memory saved through the API
 * appears live (its event first in the list, the counts and the memories read again) without a
 * reload; its links open Profiles and Brains with the agent chosen; the page passes axe's checks
 * and keeps to the viewport at phone width.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { BurrowClient } from '../../clients/typescript/sdk.js';
import { startChatServer, type ChatServer } from '../support/chat-server.js';
import { ok, openOwner, type OwnerHandle } from '../support/continuity.js';
import { append } from '../support/conversations.js';
import { consoleUrl, DOCS_IMAGES, hasChromium, launchBrowser, NO_CHROMIUM, openPage, screenshot, VIEWPORTS, type ConsolePage } from '../support/browser.js';
import { waitUntil } from '../support/harness.js';
import { append as appendResidue } from '../support/tiddle.js';
import { operatorClient, shippedAgentClient, startShipped, type ShippedServer } from '../support/shipped.js';

const ORIENTATION = 'Hatchet deploys the shop on Fridays.\nIt asks before touching the database.';
const MEMORIES = ['Deploys go out on Fridays', 'Ask before a migration', 'Staging lives at staging.example'];
const AXE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

/** axe-core's WCAG 2 A/AA rules over the page as it is now: the violations, by rule and target. */
async function axeViolations(page: Page): Promise<string[]> {
  // page.evaluate is not subject to the page's CSP (no inline script is added to the document).
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  });
}

describe.skipIf(!hasChromium)(`console: the page of one agent in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`, () => {
  let server: ShippedServer;
  let chat: ChatServer;
  let operator: BurrowClient;
  let alpha: BurrowClient;
  let beta: BurrowClient;
  let owner: OwnerHandle;
  let browser: Browser;
  let tab: ConsolePage;
  let page: Page;

  /** The counts section as { key: text }. */
  const counts = () =>
    page.$$eval('.agent-counts [data-count]', (rows) => Object.fromEntries(rows.map((r) => [(r as HTMLElement).dataset.count!, r.querySelector('dd')!.textContent!.trim()])));
  const texts = (selector: string) => page.locator(selector).allInnerTexts();
  const lastSequence = async () => (await operator.agent({ id: 'hatchet' })).agent!.lastEventSequence;

  beforeAll(async () => {
    // No background reconciler: the run stays 'running' as this test leaves it. Tiddle's proposer
    // is a scripted chat-completions server that turns hatchet's residue into one rolling card.
    chat = await startChatServer();
    chat.script('hatchet', (request) => ({
      proposals: [{ action: 'create', title: 'Deploys use blue-green', body: 'Decided in planning.', evidence: request.residue!.map((r) => r.reference) }],
    }));
    server = await startShipped({
      env: { BURROW_CONTINUITY_RECONCILE_INTERVAL_SECONDS: '0', BURROW_TIDDLE_PROPOSER: 'openai', BURROW_TIDDLE_URL: chat.url, BURROW_TIDDLE_MODEL: 'tiddle-test' },
    });
    operator = operatorClient(server);
    ok((await operator.createAgent({ input: { agentId: 'hatchet', name: 'Hatchet the deploy bot' } })).createAgent, 'CreateAgentSuccess');
    ok((await operator.createAgent({ input: { agentId: 'quill', name: 'Quill the scribe' } })).createAgent, 'CreateAgentSuccess');
    alpha = await shippedAgentClient(server, 'hatchet', { scope: 'alpha', session: 'sess-1' });
    beta = await shippedAgentClient(server, 'hatchet', { scope: 'beta', session: 'sess-2' });
    for (const title of MEMORIES) ok((await alpha.brainSave({ input: { title, content: `${title}.` } })).brainSave, 'BrainSaveSuccess');
    ok(
      (await operator.updateProfileDocument({ input: { agentId: 'hatchet', kind: 'ORIENTATION', content: ORIENTATION, expectedRevision: 1 } })).updateProfileDocument,
      'UpdateProfileDocumentSuccess',
    );
    ok(
      (await alpha.memoryWorkingWrite({ input: { kind: 'DECISION', title: 'Use blue-green deploys', content: 'Decided in planning.' } })).memoryWorkingWrite,
      'MemoryWorkingWriteSuccess',
    );
    ok(
      (await alpha.memoryWorkingWrite({ input: { kind: 'FINDING', title: 'Staging is slow on Mondays', content: 'Seen twice.' } })).memoryWorkingWrite,
      'MemoryWorkingWriteSuccess',
    );
    ok((await beta.memoryWorkingWrite({ input: { kind: 'BLOCKER', title: 'Waiting for DNS', content: 'Ticket open.' } })).memoryWorkingWrite, 'MemoryWorkingWriteSuccess');
    ok(
      (await beta.sessionWriteHandoff({ input: { title: 'Deploy half done', goal: 'Ship 2.4', outcome: 'Staging is green', body: 'Production next.' } })).sessionWriteHandoff,
      'SessionWriteHandoffSuccess',
    );
    for (const n of [1, 2, 3]) await append(alpha, `{"n":${n}}`, 'user');
    await append(beta, '{"n":4}', 'user');
    await appendResidue(alpha, 'turn-1', 'Deploy with blue-green.');
    await appendResidue(alpha, 'turn-2', 'Yes, blue-green for every service.');
    ok(await operator.tiddleRunPass({ agentId: 'hatchet', project: 'alpha' }).then((r) => r.tiddleRunPass), 'TiddleRunPassSuccess');
    owner = await openOwner(alpha);
    ok((await alpha.startContinuityRun({ input: { runId: 'run-deploy', ownerId: owner.ownerId, head: '{"step":1}' } })).startContinuityRun, 'StartContinuityRunSuccess');
    browser = await launchBrowser();
    tab = await openPage(browser, VIEWPORTS.desktop);
    page = tab.page;
  });

  afterAll(async () => {
    await owner?.close();
    await browser?.close();
    await Promise.all([alpha, beta, operator].map((client) => client?.close()));
    await chat?.close();
    if (server) expect((await server.stop()).code).toBe(0);
  });

  it('is reached from the Agents list with Tab and Enter; the Agents entry stays current', async () => {
    await page.goto(`${consoleUrl(server.url)}#/agents`);
    await page.getByLabel('Operator token').fill(server.operatorToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const link = page.locator('.agent-list li[data-agent=hatchet] a');
    await link.waitFor();
    expect([await link.innerText(), await link.getAttribute('href')]).toEqual(['Hatchet the deploy bot', '#/agents/hatchet']);
    let tabs = 0;
    while (!(await link.evaluate((a) => a === document.activeElement))) {
      expect(++tabs).toBeLessThan(40);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Agent hatchet' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/agents/hatchet');
    // Focus moves to the page's heading, as on every page change: in an effect after the paint,
    // so possibly a moment after the heading shows (a loaded machine showed BODY when read at once).
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName), { timeout: 10_000 }).toBe('H1');
    expect(await page.locator('nav[aria-label=Console] a[aria-current=page]').allInnerTexts()).toEqual(['Agents']);
  });

  it('shows the seeded counts and items exactly', async () => {
    await page.locator('.agent-counts').waitFor();
    expect(await counts()).toEqual({
      memories: '3',
      profile: '6 (1 written)',
      working: '3',
      handoffs: '1',
      cards: '1',
      scopes: '2',
      sessions: '2',
      originals: '4',
      runs: '1 (running 1)',
    });
    expect(await page.locator('.agent-intro').innerText()).toMatch(/^All agents · Hatchet the deploy bot \(hatchet\) · created \d{4}-\d\d-\d\d \d\d:\d\d UTC · newest event #\d+$/);
    // Profile: six documents, each a link to its editor on Profiles.
    expect(await texts('tr[data-kind] th')).toEqual(['SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY']);
    const orientation = page.locator('tr[data-kind=ORIENTATION] td');
    expect([await orientation.nth(0).innerText(), await orientation.nth(2).innerText()]).toEqual(['2', 'Hatchet deploys the shop on Fridays.']);
    expect(await page.locator('tr[data-kind=ORIENTATION] a').getAttribute('href')).toBe('#/profiles?agent=hatchet&kind=ORIENTATION');
    // Brains: the newest first, and the link to the Brains page with this owner chosen.
    expect(await texts('.agent-memories li')).toEqual([...MEMORIES].reverse().map((t) => expect.stringMatching(new RegExp(`^${t} revision 1, created `))));
    expect(await page.getByRole('link', { name: 'Search, write and remove hatchet’s memories on the Brains page' }).getAttribute('href')).toBe('#/brains?agent=hatchet');
    // Per scope: working records and handoffs grouped.
    expect(await texts('.scope h3')).toEqual(['Scope alpha', 'Scope beta']);
    const list = (scope: string, kind: string) => texts(`.scope[data-scope=${scope}] [data-list=${kind}] li`);
    expect(await list('alpha', 'working')).toEqual([
      expect.stringMatching(/^finding Staging is slow on Mondays active, until /),
      expect.stringMatching(/^decision Use blue-green deploys active, until /),
    ]);
    expect([await list('alpha', 'handoffs'), await list('alpha', 'cards')]).toEqual([['none'], [expect.stringMatching(/^Deploys use blue-green refreshed \d{4}-/)]]);
    expect(await list('beta', 'working')).toEqual([expect.stringMatching(/^blocker Waiting for DNS active, until /)]);
    expect(await list('beta', 'handoffs')).toEqual(['Deploy half done explicit, session sess-2']);
    expect(await texts('.scope[data-scope=beta] [data-list] > .meta')).toEqual(['1 live', '1 unexpired', '0 live']);
    // Conversation sessions with their originals, runs with their states, Tiddle status.
    const session = (id: string) => page.locator(`tr[data-session=${id}]`).locator('th, td').allInnerTexts();
    expect((await session('sess-1')).slice(0, 4)).toEqual(['sess-1', 'alpha', '3', '3 / 0']);
    expect((await session('sess-2')).slice(0, 4)).toEqual(['sess-2', 'beta', '1', '1 / 0']);
    expect((await page.locator('tr[data-run=run-deploy]').locator('th, td').allInnerTexts()).slice(0, 4)).toEqual(['run-deploy', 'running', 'alpha', '1']);
    expect(await texts('li[data-state]')).toEqual(['running: 1', 'finalizing: 0', 'interrupted: 0', 'recovery pending: 0', 'completed: 0']);
    const tiddle = page.locator('section[aria-labelledby=agent-tiddle-h]');
    expect(await tiddle.locator('p').first().innerText()).toBe('Card TTL 90 days · scheduler off · proposer OPENAI');
    const status = (await operator.tiddleStatus({ agentId: 'hatchet' })).tiddleStatus.scopes;
    expect(status.map((s) => s.project)).toEqual(['alpha']);
    expect(await tiddle.locator('tbody tr').locator('th, td').allInnerTexts()).toEqual(['alpha', status[0]!.nextRunAt, status[0]!.lastSuccessAt, 'none']);
    // Nothing of the other agent.
    expect(await page.locator('text=quill').count()).toBe(0);
  });

  it('shows a write made elsewhere live, newest first, and reads the page again without a reload', async () => {
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same document'));
    await expect.poll(() => page.locator('.agent-events .stream-status').innerText()).toBe('Live: events appear as they happen.');
    // "Live" is the socket's acknowledgement, a moment before the server holds the subscription:
    // a poke (an edit of TOOLS, which no count shows) is repeated until one arrives on the page.
    await waitUntil(async () => {
      const tools = (await operator.agent({ id: 'hatchet' })).agent!.profile.find((d) => d.kind === 'TOOLS')!;
      ok(
        (await operator.updateProfileDocument({ input: { agentId: 'hatchet', kind: 'TOOLS', content: '', expectedRevision: tools.revision } })).updateProfileDocument,
        'UpdateProfileDocumentSuccess',
      );
      return page.locator(`li[data-event="${await lastSequence()}"]`).isVisible();
    }, 'a poke shown on the page');
    const { memory } = ok((await beta.brainSave({ input: { title: 'Rollback plan', content: 'Keep the previous image for a day.' } })).brainSave, 'BrainSaveSuccess');
    const sequence = await lastSequence();
    const shown = page.locator(`li[data-event="${sequence}"]`);
    await shown.waitFor();
    expect(await shown.innerText()).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d #${sequence} BRAIN_CREATED ${memory.memoryId}$`));
    // Newest first.
    expect(await page.locator('.agent-events li').first().getAttribute('data-event')).toBe(String(sequence));
    await expect.poll(() => page.locator('.agent-memories li').first().innerText()).toMatch(/^Rollback plan revision 1, created /);
    expect((await counts()).memories).toBe('4');
    expect(await page.locator('.agent-intro').innerText()).toMatch(new RegExp(`newest event #${sequence}$`));
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('same document');
  });

  it('opens a profile document on Profiles and the memories on Brains with this agent chosen', async () => {
    await page.locator('tr[data-kind=ORIENTATION] a').click();
    await page.getByRole('heading', { level: 1, name: 'Profiles' }).waitFor();
    await expect.poll(() => page.getByLabel('Content of ORIENTATION', { exact: false }).inputValue()).toBe(ORIENTATION);
    expect(await page.getByLabel('Agent', { exact: true }).inputValue()).toBe('hatchet');
    expect(await page.locator('button[aria-pressed=true]').innerText()).toMatch(/^ORIENTATION/);
    await page.goBack();
    await page.getByRole('link', { name: 'Search, write and remove hatchet’s memories on the Brains page' }).click();
    await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
    expect(await page.getByLabel('Agent owner').inputValue()).toBe('hatchet');
    await expect.poll(() => page.locator('ul.memories li button.link').allInnerTexts()).toEqual(['Rollback plan', ...[...MEMORIES].reverse()]);
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Agent hatchet' }).waitFor();
    await page.locator('.agent-counts').waitFor();
  });

  it('uses the width at 1280 px, passes axe, and stacks within the viewport at 375 px', async () => {
    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    const [countsBox, eventsBox, scopesBox] = [await box('.agent-counts'), await box('.agent-events'), await box('.agent-scopes')];
    // Side by side from 1100 px; the scopes across the whole width.
    expect([countsBox.y === eventsBox.y, eventsBox.x > countsBox.x + countsBox.width]).toEqual([true, true]);
    expect(scopesBox.width).toBeGreaterThan(countsBox.width * 2);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${DOCS_IMAGES}console-agent.png`, fullPage: true });
    await screenshot(page, 'console-agent-1280');

    await page.setViewportSize(VIEWPORTS.phone);
    await page.reload();
    await page.locator('.agent-counts').waitFor();
    const [narrowCounts, narrowEvents] = [await box('.agent-counts'), await box('.agent-events')];
    expect(narrowEvents.y).toBeGreaterThan(narrowCounts.y);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-agent-375');
    expect(tab.blocked).toEqual([]);
    expect(tab.consoleErrors).toEqual([]);
  });
});
