/**
 * A fresh install in headless Chromium against the shipped server (`npm start` on a new data
 * directory, or `npm run burrow -- serve` on a new database): the operator signs in with the
 * server's operator token and, without leaving the console, creates the first agent and its agent
 * token; the secret shown once is the real one (the API accepts it as that agent), and Copy puts
 * exactly it on the clipboard. Then the Agents page (a taken id said in words, with its code) and
 * the Tokens page: the list, an operator token with a lifetime, and a revocation behind a
 * confirmation dialog, after which the API refuses the revoked secret (UNAUTHENTICATED).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectNoSeriousViolations } from '../support/axe.js';
import { consoleUrl, hasChromium, launchBrowser, NO_CHROMIUM, openPage, screenshot, VIEWPORTS, type ConsolePage } from '../support/browser.js';
import { announced } from '../support/announcer.js';
import { postGraphQL, startShipped, type ShippedServer } from '../support/shipped.js';

const VIEWER = '{ viewer { principal agentId tokenName } }';
const TOKENS = '{ apiTokens(first: 200) { totalCount edges { node { tokenId name kind agentId createdAt expiresAt lastUsedAt revokedAt } } } }';
/** The console's rendering of a timestamp (pages/Tokens.tsx). */
const shown = (iso: string) => iso.replace('T', ' ').slice(0, 19);

describe.skipIf(!hasChromium)(`console: first run and tokens in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`, () => {
  let server: ShippedServer;
  let browser: Browser;
  let tab: ConsolePage;
  let page: Page;
  let agentSecret = '';

  const asOperator = async (query: string) => (await postGraphQL(server, server.operatorToken, { query })).body;
  const tokenRow = (name: string) => page.locator('tr[data-token]').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

  beforeAll(async () => {
    // A new data directory (or database): no agent, only the operator token the server made.
    server = await startShipped();
    browser = await launchBrowser();
    tab = await openPage(browser, VIEWPORTS.desktop);
    page = tab.page;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  });

  afterAll(async () => {
    await browser?.close();
    if (server) expect((await server.stop()).code).toBe(0);
  });

  it('an empty install shows the first-run steps after sign-in', async () => {
    expect((await asOperator('{ agents(first: 10) { edges { node { agentId } } } }')).data.agents.edges).toEqual([]);
    await page.goto(consoleUrl(server.url));
    await page.getByLabel('Operator token').fill(server.operatorToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const panel = page.locator('section.first-run');
    await panel.getByRole('heading', { name: 'First run: no agent yet' }).waitFor();
    expect(await panel.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(['1. Create an agent', '2. Create its agent token']);
    expect(await panel.locator('li[aria-current=step] h3').innerText()).toBe('1. Create an agent');
    expect(await panel.getByText('After the agent exists.').isVisible()).toBe(true);
    // Labelled inputs: the form is reachable by its labels.
    expect(await panel.getByLabel('Agent id').isVisible()).toBe(true);
    expect(await panel.getByLabel('Name', { exact: true }).isVisible()).toBe(true);
  });

  it('creates the agent, then its token; the secret is shown once, copies exactly, and the API accepts it as that agent', async () => {
    const panel = page.locator('section.first-run');
    await panel.getByLabel('Agent id').fill('hatchet');
    await panel.getByLabel('Name', { exact: true }).fill('Hatchet the deploy bot');
    // By keyboard: Enter in the form submits it.
    await panel.getByLabel('Name', { exact: true }).press('Enter');
    await panel.getByText('Created agent Hatchet the deploy bot (hatchet).').waitFor();
    await announced(page).toBe('Agent hatchet created. Next: its token.');
    expect((await asOperator('{ agent(agentId: "hatchet") { agentId name } }')).data.agent).toEqual({ agentId: 'hatchet', name: 'Hatchet the deploy bot' });
    expect(await panel.locator('li[aria-current=step] h3').innerText()).toBe('2. Create its agent token');
    // Step 2 names the token after the agent; the operator may change it.
    expect(await panel.getByLabel('Token name').inputValue()).toBe('hatchet-runtime');
    await panel.getByRole('button', { name: 'Create token' }).click();

    const secretField = panel.getByLabel('Secret', { exact: true });
    await secretField.waitFor();
    agentSecret = await secretField.inputValue();
    expect(agentSecret.length).toBeGreaterThanOrEqual(32);
    expect(await panel.getByRole('heading', { name: 'Secret of hatchet-runtime' }).isVisible()).toBe(true);
    expect(await panel.locator('.secret-once [role=alert]').innerText()).toBe(
      'Copy it now: this secret will not be shown again. Only its hash is kept; if it is lost, revoke the token and create another.',
    );
    await panel.getByRole('button', { name: 'Copy', exact: true }).click();
    await panel.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    expect(await panel.locator('.secret-once [role=status]').innerText()).toBe('Copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(agentSecret);
    await screenshot(page, 'console-first-run-1280');
    await expectNoSeriousViolations(page, 'console-first-run-1280');

    // The secret shown is the real one: the API takes it as hatchet's token.
    const viewer = await postGraphQL(server, agentSecret, { query: VIEWER });
    expect(viewer.status).toBe(200);
    expect(viewer.body).toEqual({ data: { viewer: { principal: 'AGENT', agentId: 'hatchet', tokenName: 'hatchet-runtime' } } });
    // Nothing in the list carries a secret: the server does not have it any more.
    expect(JSON.stringify(await asOperator(TOKENS))).not.toContain(agentSecret);

    // At phone width the steps and the secret fit: nothing scrolls the page sideways.
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'console-first-run-375');
    await expectNoSeriousViolations(page, 'console-first-run-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize(VIEWPORTS.desktop);

    await panel.getByRole('button', { name: 'Done' }).click();
    expect(await page.locator('section.first-run').count()).toBe(0);
    await page.goto(`${consoleUrl(server.url)}#/dashboard`);
    await page.locator('tr[data-agent=hatchet]').waitFor();
    expect(await page.locator('section.first-run').count()).toBe(0);
  });

  it('Agents: creates another agent, and says in words (with the code) that an id is taken', async () => {
    await page.goto(`${consoleUrl(server.url)}#/agents`);
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    await page.getByLabel('Agent id').fill('hatchet');
    await page.getByLabel('Name', { exact: true }).fill('A second hatchet');
    await page.getByRole('button', { name: 'Create agent' }).click();
    const alert = page.locator('form.create-agent [role=alert]');
    await alert.waitFor();
    expect(await alert.innerText()).toBe('The agent id "hatchet" is already taken: choose another (ALREADY_EXISTS)');
    expect((await asOperator('{ agent(agentId: "hatchet") { name } }')).data.agent.name).toBe('Hatchet the deploy bot');
    // What the operator typed stays, to correct it.
    expect(await page.getByLabel('Agent id').inputValue()).toBe('hatchet');
    await page.getByLabel('Agent id').fill('quill');
    await page.getByLabel('Name', { exact: true }).fill('Quill');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.locator('.agent-list li[data-agent=quill]').waitFor();
    expect(await page.locator('.agent-list li').allInnerTexts()).toEqual(['Quill (quill)', 'Hatchet the deploy bot (hatchet)']);
    expect(await alert.count()).toBe(0);
    await announced(page).toBe('Agent quill created. Its runtime needs a token: see Tokens.');
  });

  it('Tokens: lists every token, creates an operator token with a lifetime, secret shown once', async () => {
    await page.goto(`${consoleUrl(server.url)}#/tokens`);
    await page.getByRole('heading', { level: 1, name: 'Tokens' }).waitFor();
    await tokenRow('hatchet-runtime').waitFor();
    const listed = (await asOperator(TOKENS)).data.apiTokens;
    expect(await page.locator('tr[data-token]').count()).toBe(listed.totalCount);
    const hatchet = listed.edges.map((e: any) => e.node).find((t: any) => t.name === 'hatchet-runtime');
    expect(hatchet.lastUsedAt).not.toBeNull(); // the viewer query above used it
    expect(await tokenRow('hatchet-runtime').locator('td').allInnerTexts()).toEqual([
      'agent hatchet',
      shown(hatchet.createdAt),
      'never',
      shown(hatchet.lastUsedAt),
      'active',
      'Revoke',
    ]);

    await page.getByLabel('Operator token (every agent)').check();
    expect(await page.getByLabel('Agent', { exact: true }).count()).toBe(0);
    await page.getByLabel('Token name').fill('night-shift');
    await page.getByLabel('Expires in (optional)').fill('12h');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secretField = page.getByLabel('Secret', { exact: true });
    await secretField.waitFor();
    const operatorSecret = await secretField.inputValue();
    expect(operatorSecret).not.toBe(agentSecret);
    expect((await postGraphQL(server, operatorSecret, { query: VIEWER })).body).toEqual({ data: { viewer: { principal: 'OPERATOR', agentId: null, tokenName: 'night-shift' } } });
    await tokenRow('night-shift').waitFor();
    const night = (await asOperator(TOKENS)).data.apiTokens.edges.map((e: any) => e.node).find((t: any) => t.name === 'night-shift');
    expect(Date.parse(night.expiresAt) - Date.parse(night.createdAt)).toBe(12 * 3600 * 1000);
    const cells = await tokenRow('night-shift').locator('td').allInnerTexts();
    expect(cells.slice(0, 3)).toEqual(['operator (every agent)', shown(night.createdAt), shown(night.expiresAt)]);
    expect(cells[4]).toBe('active');
    // Stored: the secret goes away, and is not shown again anywhere on the page.
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByLabel('Secret', { exact: true }).count()).toBe(0);
    expect(await page.content()).not.toContain(operatorSecret);
  });

  it('revokes a token only after the confirmation dialog; the API then refuses it (UNAUTHENTICATED)', async () => {
    const revokeButton = page.getByRole('button', { name: 'Revoke hatchet-runtime' });
    // Cancel by keyboard: Escape closes the dialog and nothing changes.
    await revokeButton.click();
    const dialog = page.getByRole('dialog', { name: 'Revoke hatchet-runtime?' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await postGraphQL(server, agentSecret, { query: VIEWER })).body.data.viewer.agentId).toBe('hatchet');
    expect(await tokenRow('hatchet-runtime').locator('td[data-state]').innerText()).toBe('active');

    await revokeButton.click();
    await dialog.waitFor();
    expect(await dialog.locator('#confirm-dialog-body').innerText()).toBe(
      'This token of agent hatchet is refused from now on, and its open live streams end. This cannot be undone: a runtime that uses it needs a new token.',
    );
    await screenshot(page, 'console-tokens-revoke-1280');
    await expectNoSeriousViolations(page, 'console-tokens-revoke-1280');
    // By keyboard: from Cancel, Tab to Revoke token and Enter.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Revoke token');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => tokenRow('hatchet-runtime').locator('td[data-state]').innerText()).toMatch(/^revoked \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await announced(page).toBe('Token hatchet-runtime revoked: it is refused from now on.');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('All tokens');
    expect(await page.getByRole('button', { name: 'Revoke hatchet-runtime' }).count()).toBe(0);
    const revoked = (await asOperator(TOKENS)).data.apiTokens.edges.map((e: any) => e.node).find((t: any) => t.name === 'hatchet-runtime');
    expect(await tokenRow('hatchet-runtime').locator('td[data-state]').innerText()).toBe(`revoked ${shown(revoked.revokedAt)}`);

    const refused = await postGraphQL(server, agentSecret, { query: VIEWER });
    // The same answer as for a token that never existed: the revoked secret is simply no token.
    expect([refused.status, refused.body]).toEqual([
      401,
      { errors: [{ message: 'a valid bearer token is required (Authorization: Bearer <token>)', extensions: { code: 'UNAUTHENTICATED' } }] },
    ]);
    // The other tokens still work: only that one was revoked.
    expect((await asOperator(VIEWER)).data.viewer.principal).toBe('OPERATOR');
    expect(await tokenRow('night-shift').locator('td[data-state]').innerText()).toBe('active');
    await screenshot(page, 'console-tokens-1280');
    await expectNoSeriousViolations(page, 'console-tokens-1280');
    // At phone width the list scrolls inside its panel, never the page.
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'console-tokens-375');
    await expectNoSeriousViolations(page, 'console-tokens-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize(VIEWPORTS.desktop);
    expect(tab.blocked).toEqual([]);
    expect(tab.consoleErrors).toEqual([]);
  });
});
