/**
 * A tour of the whole console in headless Chromium against the shipped server, at 1280×800: the
 * sign-in form, then every page the navigation links to (read from the page itself, so a page
 * added later is toured without changing this test), and the first agent's own page when the
 * Agents page links one. On each: axe-core finds no serious or critical violation; focus is on
 * the page's heading after the navigation; Tab from there reaches every enabled control of the
 * page in turn, each with a visible focus ring; and a screenshot is saved to
 * console-<page>.png (docs/images/ for docs/console.md with BURROW_DOCS_SCREENSHOTS=1). The install has data on every page (an
 * agent with a memory, a token, connections, a run waiting for recovery, a diary entry), so the
 * checks see tables and forms, not only empty states.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectNoSeriousViolations } from '../support/axe.js';
import { consoleUrl, DOCS_IMAGES, hasChromium, launchBrowser, NO_CHROMIUM, openPage, VIEWPORTS, type ConsolePage } from '../support/browser.js';
import { interruptedRun } from '../support/continuity.js';
import { postGraphQL, shippedAgentClient, startShipped, type ShippedServer } from '../support/shipped.js';

const IMAGES = DOCS_IMAGES;

/** "#/agents" -> "agents"; an agent's own page "#/agents/<id>" -> "agent", whatever the id. */
const pageName = (hash: string) => (/^#\/agents\/[^/]+$/.test(hash) ? 'agent' : hash.replace(/^#\//, '').replace(/[^a-z0-9]+/gi, '-'));

/** Waits until the page stops changing (its requests answered, its lists drawn): two equal looks 300 ms apart. */
async function settled(page: Page) {
  let before = '';
  for (let i = 0; i < 40; i++) {
    const now = await page.evaluate(() => document.body.innerHTML);
    if (now === before && !now.includes('class="loading"')) return;
    before = now;
    await page.waitForTimeout(300);
  }
  throw new Error(`${page.url()} kept changing for 12 s`);
}

interface Stop {
  key: string;
  label: string;
  ring: boolean;
}

/**
 * Presses Tab from the current focus until focus leaves the page content (or 300 presses) and
 * returns each element reached: a key to compare with the page's controls, its accessible
 * text, and whether a focus ring is drawn (an outline or a box shadow).
 */
async function tabThrough(page: Page): Promise<Stop[]> {
  const stops: Stop[] = [];
  for (let i = 0; i < 300; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body || !document.getElementById('content')?.contains(el)) return null;
      if (!el.dataset.tourKey) el.dataset.tourKey = String(Math.random()).slice(2);
      const style = getComputedStyle(el);
      const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
      return { key: el.dataset.tourKey, label: el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? el.id, ring };
    });
    if (!stop) break;
    // A date input takes one Tab per part (day, month, year): the same element again in a row.
    if (stops.at(-1)?.key === stop.key) continue;
    if (stops.some((s) => s.key === stop.key)) break;
    stops.push(stop);
  }
  return stops;
}

/** Every control in the page content a keyboard user must be able to reach: visible, enabled, not taken out of the order. */
const controlsOf = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('#content a[href], #content button, #content input, #content select, #content textarea, #content summary')]
      .filter((el) => !(el as HTMLButtonElement).disabled && el.tabIndex >= 0 && el.offsetParent !== null && !el.closest('dialog, [inert]'))
      // One radio group is one Tab stop.
      .filter((el) => !(el instanceof HTMLInputElement && el.type === 'radio' && !el.checked && document.querySelector(`input[type=radio][name="${el.name}"]:checked`)))
      .map((el) => {
        if (!el.dataset.tourKey) el.dataset.tourKey = String(Math.random()).slice(2);
        return { key: el.dataset.tourKey, label: el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? el.id };
      }),
  );

describe.skipIf(!hasChromium)(`console: a tour of every page in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`, () => {
  let server: ShippedServer;
  let browser: Browser;
  let tab: ConsolePage;
  let page: Page;
  const toured: string[] = [];

  const asOperator = async (query: string) => (await postGraphQL(server, server.operatorToken, { query })).body;

  beforeAll(async () => {
    server = await startShipped({ env: { BURROW_SETTINGS_KEY: randomBytes(32).toString('base64') } });
    const setup = [
      'mutation { createAgent(input: { agentId: "hatchet", name: "Hatchet the deploy bot" }) { __typename } }',
      'mutation { brainSave(input: { agentId: "hatchet", title: "Deploys on Friday", content: "Only with a rollback plan." }) { __typename } }',
      'mutation { setModelConnection(input: { purpose: BRAIN_EMBEDDINGS, url: "https://models.example.com/v1", model: "embedder", apiKey: "sk-tour-0123456789" }) { __typename } }',
      'mutation { setMcpConnection(input: { name: "tickets", url: "https://tickets.example.com/mcp", transport: SSE, enabled: true, description: "The ticket tracker" }) { __typename } }',
      'mutation { appendDreamDiaryEntry(input: { agentId: "hatchet", entryDate: "2026-12-01", title: "A calm week", body: "Nothing broke on Friday." }) { __typename } }',
    ];
    for (const query of setup) {
      const data = (await asOperator(query)).data as Record<string, { __typename: string }>;
      expect(Object.values(data)[0]!.__typename).toMatch(/Success$/);
    }
    const runtime = await shippedAgentClient(server, 'hatchet', { scope: 'proj', session: 'sess-1' });
    try {
      await interruptedRun(runtime, 'run-deploy-7', 'post-ticket-1');
    } finally {
      await runtime.close();
    }
    mkdirSync(IMAGES, { recursive: true });
    browser = await launchBrowser();
    tab = await openPage(browser, VIEWPORTS.desktop);
    page = tab.page;
  });

  afterAll(async () => {
    await browser?.close();
    if (server) expect((await server.stop()).code).toBe(0);
  });

  const visit = async (hash: string, label: string) => {
    // By keyboard where there is a link: focus it and press Enter, as a person without a mouse would.
    const link = page.locator(`nav a[href="${hash}"]`);
    if (await link.count()) {
      await link.focus();
      await page.keyboard.press('Enter');
    } else {
      const onPage = page.locator(`#content a[href="${hash}"]`).first();
      await onPage.focus();
      await page.keyboard.press('Enter');
    }
    await page.waitForFunction((h) => location.hash === h, hash);
    await settled(page);
    const name = pageName(hash);

    // Focus is on the page's heading, which names the page.
    const focused = await page.evaluate(() => ({ tag: document.activeElement?.tagName, text: (document.activeElement as HTMLElement | null)?.innerText }));
    expect(focused.tag, `${hash}: focus after navigation`).toBe('H1');
    if (label) expect(focused.text, `${hash}: heading`).toContain(label);

    await expectNoSeriousViolations(page, hash);
    // A page that could not load its data is not a page toured.
    expect(await page.locator('#content [role=alert]').allInnerTexts(), `${hash}: alerts`).toEqual([]);

    // Tab from the heading reaches every control of the page, each with a visible focus ring.
    const controls = await controlsOf(page);
    const stops = await tabThrough(page);
    const reached = new Set(stops.map((s) => s.key));
    expect(
      controls.filter((c) => !reached.has(c.key)).map((c) => c.label),
      `${hash}: controls Tab does not reach`,
    ).toEqual([]);
    expect(
      stops.filter((s) => !s.ring).map((s) => s.label),
      `${hash}: controls without a visible focus ring`,
    ).toEqual([]);
    expect(controls.length, `${hash}: a page with controls`).toBeGreaterThan(0);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('h1').first().focus();
    await page.screenshot({ path: `${IMAGES}console-${name}.png` });
    toured.push(name);
  };

  it('the sign-in form has no serious violation and is screenshotted', async () => {
    await page.goto(consoleUrl(server.url));
    await page.getByLabel('Operator token').waitFor();
    await expectNoSeriousViolations(page, 'sign-in');
    // The check can fail: an input without a label (critical: label) is named with its selector.
    await page.evaluate(() => document.querySelector('form')!.insertAdjacentHTML('beforeend', '<input id="tour-unlabelled">'));
    await expect(expectNoSeriousViolations(page, 'sign-in with an unlabelled input')).rejects.toThrow(/critical label: .*\n  - #tour-unlabelled: /);
    await page.evaluate(() => document.getElementById('tour-unlabelled')!.remove());
    // The form is reachable by keyboard: the token field, then Sign in.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('token');
    await page.screenshot({ path: `${IMAGES}console-signin.png` });
    await page.getByLabel('Operator token').fill(server.operatorToken);
    await page.keyboard.press('Enter');
    await page.locator('nav[aria-label=Console]').waitFor();
  });

  it('every page in the navigation passes axe, keeps focus order and a focus ring, and is screenshotted', async () => {
    const links = await page.locator('nav[aria-label=Console] a').evaluateAll((as) => as.map((a) => ({ hash: a.getAttribute('href')!, label: a.textContent!.trim() })));
    // The six pages of today at least; pages added later come from the same list.
    expect(links.map((l) => l.hash)).toEqual(expect.arrayContaining(['#/agents', '#/brains', '#/dashboard', '#/operations', '#/profiles', '#/tokens']));
    for (const { hash, label } of links) await visit(hash, label);
    expect(tab.blocked).toEqual([]);
    expect(tab.consoleErrors).toEqual([]);
  });

  it("the first agent's own page, when the Agents page links one", async () => {
    await visit('#/agents', 'Agents');
    const agentLinks = page.locator('#content a[href^="#/agents/"]');
    const href = (await agentLinks.count()) ? await agentLinks.first().getAttribute('href') : null;
    expect(href).toMatch(/^#\/agents\/.+/);
    if (!href) return;
    await visit(href, '');
    expect(tab.consoleErrors).toEqual([]);
  });

  it('screenshots were written for every page toured', () => {
    expect(toured).toEqual(expect.arrayContaining(['agent', 'agents', 'brains', 'conversations', 'dashboard', 'operations', 'profiles', 'tokens']));
  });
});
