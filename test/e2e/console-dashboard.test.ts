/**
 * The console's dashboard and profiles in headless Chromium against the shipped server (`npm
 * start`, or `npm run burrow -- serve` on the real server's pass): the agents with their counts,
 * an event shown live (the page only subscribes, it never polls), Tiddle status, continuity runs
 * by state with the interruption manifest, working records and handoffs of a scope; a profile
 * edit that meets a second writer, and the diff between revisions. Also what the server answers
 * at /console itself: content types, the CSP, no file outside the build.
 *
 * The live stream when it breaks: every WebSocket of the page goes through the test (playwright's
 * routeWebSocket), which records the frames, cuts the connection and keeps the server unreachable
 * while events are written; the page must say why in words, resume with `after:` the last event's
 * cursor and show each event written meanwhile once, in order. A revoked token stops the stream, with its reason shown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import type { BurrowClient } from '../../clients/typescript/sdk.js';
import { CONSOLE_CSP } from '../../src/console.js';
import { ok, openOwner, type OwnerHandle } from '../support/continuity.js';
import { expectNoSeriousViolations } from '../support/axe.js';
import { consoleUrl, hasChromium, launchBrowser, NO_CHROMIUM, openPage, screenshot, VIEWPORTS, type ConsolePage } from '../support/browser.js';
import { announced } from '../support/announcer.js';
import { waitUntil } from '../support/harness.js';
import { createShippedToken, operatorClient, shippedAgentClient, startShipped, type ShippedServer } from '../support/shipped.js';

type Frame = { type: string; id?: string; payload?: any };

/**
 * The page's WebSockets through the test: frames recorded both ways, the newest connection can be
 * cut, and while `holding` new ones are held unanswered (a server that cannot be reached) until
 * `release` refuses them, after which they go through again.
 */
async function relayWebSockets(page: Page) {
  const relay = {
    holding: false,
    held: [] as WebSocketRoute[],
    sent: [] as Frame[],
    received: [] as Frame[],
    connections: [] as { page: WebSocketRoute; server: WebSocketRoute }[],
    /** Closes the newest connection on both sides, as a dropped network or a restarting server does. */
    async cut(code: number, reason: string) {
      const last = relay.connections.at(-1)!;
      await Promise.all([last.page.close({ code, reason }), last.server.close({ code: 1000, reason: 'cut by the test' })]);
    },
    async release() {
      relay.holding = false;
      await Promise.all(relay.held.splice(0).map((ws) => ws.close({ code: 1013, reason: 'the test kept the server unreachable' })));
    },
  };
  await page.routeWebSocket(/\/graphql$/, (ws) => {
    if (relay.holding) return void relay.held.push(ws);
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      relay.sent.push(JSON.parse(String(message)));
      server.send(message);
    });
    server.onMessage((message) => {
      relay.received.push(JSON.parse(String(message)));
      ws.send(message);
    });
    relay.connections.push({ page: ws, server });
  });
  return relay;
}

describe.skipIf(!hasChromium)(`console: dashboard and profiles in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM})`}`, () => {
  let server: ShippedServer;
  let operator: BurrowClient;
  let relay: Awaited<ReturnType<typeof relayWebSockets>>;
  let browser: Browser;
  let hatchet: BurrowClient;
  let quill: BurrowClient;
  let owner: OwnerHandle;
  let token: string;
  let tab: ConsolePage;
  let page: Page;
  let base: string;

  const agentRow = (agentId: string) => page.locator(`tr[data-agent="${agentId}"]`);

  beforeAll(async () => {
    // The console's build is brought up to date by the global setup, before the server starts.
    // The background reconciler is off: the pages show runs as this test leaves them ('interrupted'),
    // and on a slow machine its 30 s pass would otherwise move them to 'recovery pending' mid-test.
    server = await startShipped({ env: { BURROW_CONTINUITY_RECONCILE_INTERVAL_SECONDS: '0' } });
    operator = operatorClient(server);
    base = consoleUrl(server.url);
    hatchet = await shippedAgentClient(server, 'hatchet', { scope: 'alpha', session: 'sess-1' });
    quill = await shippedAgentClient(server, 'quill', { scope: 'beta', session: 'sess-9' });
    owner = await openOwner(hatchet);
    ok((await hatchet.startContinuityRun({ input: { runId: 'run-live', ownerId: owner.ownerId, head: '{"step":1}' } })).startContinuityRun, 'StartContinuityRunSuccess');
    ok((await hatchet.startContinuityRun({ input: { runId: 'run-cut', ownerId: owner.ownerId, head: '{"step":7}' } })).startContinuityRun, 'StartContinuityRunSuccess');
    ok(
      (await hatchet.interruptContinuityRun({ input: { runId: 'run-cut', generation: 1, ownerId: owner.ownerId, reason: 'user cancelled' } })).interruptContinuityRun,
      'InterruptContinuityRunSuccess',
    );
    ok(
      (await hatchet.memoryWorkingWrite({ input: { kind: 'DECISION', title: 'Use blue-green deploys', content: 'Decided in the planning call.' } })).memoryWorkingWrite,
      'MemoryWorkingWriteSuccess',
    );
    ok(
      (await hatchet.sessionWriteHandoff({ input: { title: 'Deploy half done', goal: 'Ship 2.4', outcome: 'Staging is green', body: 'Production next.' } })).sessionWriteHandoff,
      'SessionWriteHandoffSuccess',
    );
    ok(
      (
        await hatchet.tiddleAppendResidue({
          input: {
            turnRef: 'turn-1',
            excerpts: [
              { role: 'USER', text: 'Deploy with blue-green.' },
              { role: 'ASSISTANT', text: 'noted' },
            ],
          },
        })
      ).tiddleAppendResidue,
      'TiddleAppendResidueSuccess',
    );
    await operator.tiddleRunPass({ agentId: 'hatchet', project: 'alpha' });
    ({ secret: token } = await createShippedToken(server, { name: 'dashboard-operator' }));
    browser = await launchBrowser();
    tab = await openPage(browser, VIEWPORTS.desktop);
    page = tab.page;
    relay = await relayWebSockets(page);
  });

  afterAll(async () => {
    await owner?.close();
    await browser?.close();
    await Promise.all([hatchet, quill, operator].map((client) => client?.close()));
    if (server) expect((await server.stop()).code).toBe(0);
  });

  it('serves the built console at /console with content types, a self-only CSP and nothing outside the build', async () => {
    const index = await fetch(base);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(index.headers.get('cache-control')).toBe('no-store');
    expect(index.headers.get('set-cookie')).toBeNull();
    const html = await index.text();
    const script = html.match(/src="(\/console\/assets\/[^"]+\.js)"/)![1];
    const style = html.match(/href="(\/console\/assets\/[^"]+\.css)"/)![1];
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script for the CSP to allow
    const js = await fetch(new URL(script, base));
    expect([js.status, js.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    const css = await fetch(new URL(style, base));
    expect([css.status, css.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8']);
    expect((await fetch(`${base}/`)).status).toBe(200);
    for (const path of [
      '/console/assets/missing.js',
      '/console/assets/..%2f..%2fpackage.json',
      '/console/assets/..%2f..%2fdist%2findex.html',
      '/console/vite.config.ts',
      '/console/assets/../index.html.ts',
    ]) {
      const response = await fetch(new URL(path, base));
      expect([path, response.status]).toEqual([path, 404]);
      expect(await response.text()).toBe('not found\n');
    }
    expect((await fetch(base, { method: 'POST' })).status).toBe(405);
    // GraphQL still answers at /graphql on the same port.
    expect((await operator.viewer()).viewer.principal).toBe('OPERATOR');
  });

  it('refuses a wrong token at sign-in, signs in from the form and keeps the token out of cookies', async () => {
    await page.goto(`${base}#/dashboard`);
    await page.getByLabel('Operator token').fill('not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('The token was refused (unknown, revoked or expired): sign in again (UNAUTHENTICATED)');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await screenshot(page, 'sign-in-refused-1280');
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('burrow.console.token'))).toBe(token);
    expect(await page.context().cookies()).toEqual([]);
  });

  it('shows the agents with their counts and continuity runs by state', async () => {
    await expect.poll(() => agentRow('hatchet').locator('[data-count=runs]').innerText()).toBe('running 1, interrupted 1');
    expect(await agentRow('hatchet').locator('[data-count=memories]').innerText()).toBe('0');
    expect(await agentRow('quill').locator('[data-count=memories]').innerText()).toBe('0');
    expect(await agentRow('quill').locator('[data-count=runs]').innerText()).toBe('none');
    // Exact counts from Agent.counts, the same numbers the API gives.
    const { agent } = await operator.agentCounts({ agentId: 'hatchet' });
    expect(agent!.counts.workingRecords).toBeGreaterThan(0);
    expect(await agentRow('hatchet').locator('[data-count=working]').innerText()).toBe(String(agent!.counts.workingRecords));
    expect(await agentRow('hatchet').locator('[data-count=cards]').innerText()).toBe(String(agent!.counts.rollingCards));
  });

  it('shows an event live, and the counts follow it without polling', async () => {
    // The page's live stream starts after the page has loaded and says nothing once the server
    // has it: the barrier is a poke (an edit of quill's SOUL, which no count shows) repeated until
    // one arrives on the page.
    await waitUntil(async () => {
      const soul = (await operator.agent({ id: 'quill' })).agent!.profile.find((d) => d.kind === 'SOUL')!;
      const poked = await quill.updateProfileDocument({ input: { agentId: 'quill', kind: 'SOUL', content: `poke ${soul.revision + 1}`, expectedRevision: soul.revision } });
      expect(poked.updateProfileDocument.__typename).toBe('UpdateProfileDocumentSuccess');
      const sequence = (await operator.agent({ id: 'quill' })).agent!.lastEventSequence;
      return page
        .locator(`li[data-event="quill:${sequence}"]`)
        .waitFor({ timeout: 1_000 })
        .then(() => true)
        .catch(() => false);
    }, "the dashboard's live stream shows a poke");
    const before = (await operator.agent({ id: 'quill' })).agent!.lastEventSequence;
    const saved = await quill.brainSave({ input: { title: 'Live note', content: 'Appears on the dashboard.' } });
    expect(saved.brainSave.__typename).toBe('BrainSaveSuccess');
    const after = (await operator.agent({ id: 'quill' })).agent!.lastEventSequence;
    expect(after).toBe(before + 1);
    const row = page.locator(`li[data-event="quill:${after}"]`);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.innerText()).toContain('BRAIN_CREATED');
    await expect.poll(() => agentRow('quill').locator('[data-count=memories]').innerText()).toBe('1');
    // Only the subscription delivered it: no GraphQL request over HTTP asked for events.
    expect(await page.locator('.events li').first().getAttribute('data-event')).toBe(`quill:${after}`);
  });

  it('says why a broken stream closed, resumes after the last event received, and shows the events written meanwhile once each, in order', async () => {
    const status = page.locator('.stream-status');
    const alert = page.locator('section[aria-labelledby=events-h] [role=alert]');
    const shown = () => page.locator('.events li').evaluateAll((items) => items.map((li) => li.getAttribute('data-event')));
    const delivered = (from: number) =>
      relay.received
        .slice(from)
        .filter((frame) => frame.type === 'next')
        .map((frame) => `${frame.payload.data.operatorEvents.agentId}:${frame.payload.data.operatorEvents.sequence}`);
    await expect.poll(() => status.getAttribute('data-state')).toBe('live');
    expect(await status.innerText()).toBe('Live: events appear as they happen.');
    const before = await shown();
    const lastFrame = relay.received.filter((frame) => frame.type === 'next').at(-1)!.payload.data.operatorEvents;
    expect(`${lastFrame.agentId}:${lastFrame.sequence}`).toBe(before[0]);

    // The connection drops, and the server stays unreachable until the events below are written.
    relay.holding = true;
    const sentAt = relay.sent.length;
    const receivedAt = relay.received.length;
    await relay.cut(1001, 'the test cut the connection');
    await expect.poll(() => alert.innerText()).toBe('Live stream closed (1001 Going away): the test cut the connection');
    // It tries again by itself (after 1 s), and that attempt hangs unanswered.
    await expect.poll(() => relay.held.length, { timeout: 15_000 }).toBe(1);
    await expect.poll(() => status.innerText()).toBe(`Reconnecting, resuming after ${lastFrame.agentId} #${lastFrame.sequence}…`);
    expect(await status.getAttribute('data-state')).toBe('reconnecting');
    expect(await alert.innerText()).toBe('Live stream closed (1001 Going away): the test cut the connection');
    await screenshot(page, 'dashboard-stream-closed-1280');

    const written: string[] = [];
    const write = async (client: BurrowClient, agentId: string, title: string) => {
      ok((await client.brainSave({ input: { title, content: 'Written while the console was cut off.' } })).brainSave, 'BrainSaveSuccess');
      written.push(`${agentId}:${(await operator.agent({ id: agentId })).agent!.lastEventSequence}`);
    };
    await write(hatchet, 'hatchet', 'Meanwhile one');
    await write(quill, 'quill', 'Meanwhile two');
    await write(hatchet, 'hatchet', 'Meanwhile three');
    expect(await page.locator('body').innerText()).not.toContain('[object');
    expect(await shown()).toEqual(before);

    // The hanging attempt is refused; the next one reaches the server.
    await relay.release();
    await page.locator(`li[data-event="${written.at(-1)}"]`).waitFor({ timeout: 60_000 });
    // The new subscription asked for what came after the last event the page had received.
    const resubscribed = relay.sent.slice(sentAt).filter((frame) => frame.type === 'subscribe');
    expect(resubscribed).toHaveLength(1);
    expect(resubscribed[0].payload.variables.after).toBe(lastFrame.cursor);
    expect([...resubscribed[0].payload.variables.agentIds].sort()).toEqual(['hatchet', 'quill']);
    // The server sent exactly the three events, in the order they were written, and the list shows each once, newest first.
    expect(delivered(receivedAt)).toEqual(written);
    expect(await shown()).toEqual([...[...written].reverse(), ...before]);
    await expect.poll(() => status.innerText()).toBe(`Live again, resumed after ${lastFrame.agentId} #${lastFrame.sequence}.`);
    expect(await alert.count()).toBe(0);

    // A later event arrives live, and nothing else came before it.
    await write(quill, 'quill', 'After the reconnection');
    await page.locator(`li[data-event="${written.at(-1)}"]`).waitFor({ timeout: 15_000 });
    expect(delivered(receivedAt)).toEqual(written);
    expect(await shown()).toEqual([...[...written].reverse(), ...before]);
    await expect.poll(() => agentRow('quill').locator('[data-count=memories]').innerText()).toBe('3');
    await screenshot(page, 'dashboard-stream-resumed-1280');
  });

  it('shows Tiddle status per scope, the interruption manifest, working records and handoffs of a scope', async () => {
    const { tiddleStatus } = await operator.tiddleStatus({ agentId: 'hatchet' });
    const detail = page.getByRole('region', { name: 'Agent details' });
    await page.getByLabel('Agent', { exact: true }).selectOption('hatchet');
    await expect.poll(() => detail.innerText()).toContain(`Card TTL ${tiddleStatus.cardTtlDays} days`);
    const scopeRow = detail.locator('tr', { has: page.locator('th', { hasText: 'alpha' }) });
    expect(tiddleStatus.scopes.map((s) => s.project)).toEqual(['alpha']);
    expect(await scopeRow.innerText()).toContain(tiddleStatus.scopes[0].nextRunAt);
    expect(await detail.locator('.states').innerText()).toMatch(/running: 1\s+finalizing: 0\s+interrupted: 1\s+recovery pending: 0\s+completed: 0/);
    const manifest = detail.locator('details', { hasText: 'run-cut' });
    await manifest.locator('summary').click();
    expect(await manifest.innerText()).toContain('"reason": "user cancelled"');
    const scope = detail.getByRole('region', { name: 'Scope alpha' });
    await expect.poll(() => scope.innerText()).toContain('Use blue-green deploys');
    expect(await scope.innerText()).toContain('Deploy half done');
    await screenshot(page, 'dashboard-1280');
    await expectNoSeriousViolations(page, 'dashboard-1280');
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'dashboard-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('edits a profile document with a revision check, shows the newer content on conflict, and diffs revisions', async () => {
    await page.getByRole('link', { name: 'Profiles' }).click();
    await page.getByRole('heading', { level: 1, name: 'Profiles' }).waitFor();
    await page.getByLabel('Agent', { exact: true }).selectOption('hatchet');
    await page.getByRole('button', { name: /^SOUL/ }).waitFor();
    const editor = page.getByLabel(/^Content of SOUL/);
    await editor.waitFor();
    const start = (await operator.profileDocument({ agentId: 'hatchet', kind: 'SOUL' })).profileDocument!;
    await editor.fill('Calm.\nPrecise.\nKind.');
    await page.getByRole('button', { name: 'Save document' }).click();
    await announced(page).toBe(`Saved SOUL as revision ${start.revision + 1}.`);

    // A second writer saves the next revision while the page still holds the previous one.
    ok(
      (await operator.updateProfileDocument({ input: { agentId: 'hatchet', kind: 'SOUL', content: 'Calm.\nTerse.\nKind.', expectedRevision: start.revision + 1 } }))
        .updateProfileDocument,
      'UpdateProfileDocumentSuccess',
    );
    await editor.fill('Calm.\nPrecise.\nKind.\nCurious.');
    await page.getByRole('button', { name: 'Save document' }).click();
    const conflict = page.locator('.conflict');
    await conflict.waitFor();
    expect(await conflict.innerText()).toContain(`Another writer saved revision ${start.revision + 2} of SOUL after you read revision ${start.revision + 1}. Nothing was saved.`);
    expect(await page.getByRole('region', { name: `Current revision ${start.revision + 2}` }).innerText()).toContain('Calm.\nTerse.\nKind.');
    expect((await operator.profileDocument({ agentId: 'hatchet', kind: 'SOUL' })).profileDocument).toMatchObject({ revision: start.revision + 2, content: 'Calm.\nTerse.\nKind.' });
    await screenshot(page, 'profiles-conflict-1280');

    await page.getByRole('button', { name: 'Reload document' }).click();
    await announced(page).toContain('your draft is kept');
    expect(await page.getByLabel('Your draft', { exact: false }).count()).toBe(0);
    expect(await editor.inputValue()).toBe('Calm.\nPrecise.\nKind.\nCurious.');
    await page.getByRole('button', { name: 'Save document' }).click();
    await announced(page).toBe(`Saved SOUL as revision ${start.revision + 3}.`);
    expect((await operator.profileDocument({ agentId: 'hatchet', kind: 'SOUL' })).profileDocument).toMatchObject({
      revision: start.revision + 3,
      content: 'Calm.\nPrecise.\nKind.\nCurious.',
    });

    // The diff defaults to the previous revision against the newest.
    const diff = page.getByRole('region', { name: `Changes from revision ${start.revision + 2} to ${start.revision + 3}` });
    await diff.waitFor();
    expect(await diff.locator('del').allInnerTexts()).toEqual(['- Terse.']);
    expect(await diff.locator('ins').allInnerTexts()).toEqual(['+ Precise.', '+ Curious.']);
    await page.getByLabel('From revision', { exact: true }).selectOption(String(start.revision + 1));
    await page.getByRole('region', { name: `Changes from revision ${start.revision + 1} to ${start.revision + 3}` }).waitFor();
    expect(await page.locator('.diff del').count()).toBe(0);
    expect(await page.locator('.diff ins').allInnerTexts()).toEqual(['+ Curious.']);
    await screenshot(page, 'profiles-diff-1280');
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'profiles-diff-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('signs out by forgetting the token, signs in again from a token in the hash, and nothing left this machine', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Operator token').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'sign-in-375');
    await page.setViewportSize(VIEWPORTS.desktop);
    // A token in the hash (beside the route) is taken once and removed from the address.
    await page.goto(`${base}#/profiles&token=${encodeURIComponent(token)}`);
    await page.getByRole('heading', { level: 1, name: 'Profiles' }).waitFor();
    expect(page.url()).toBe(`${base}#/profiles`);
    expect(await page.evaluate(() => sessionStorage.getItem('burrow.console.token'))).toBe(token);
    expect(tab.blocked).toEqual([]);
    expect(tab.consoleErrors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
  });

  it('a revoked token closes the live stream with the reason in words, and it stops', async () => {
    const { secret, tokenId } = await createShippedToken(server, { name: 'dashboard-revoked' });
    // Another tab, its WebSocket straight to the server.
    const other = await openPage(browser, VIEWPORTS.desktop);
    await other.page.goto(`${base}#/dashboard&token=${encodeURIComponent(secret)}`);
    await other.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const status = other.page.locator('.stream-status');
    await expect.poll(() => status.getAttribute('data-state')).toBe('live');
    // The page at rest, its reads done: a read after the revocation would be refused too, and
    // send the tab back to the sign-in form (test 'refuses a wrong token').
    const row = (agentId: string) => other.page.locator(`tr[data-agent="${agentId}"] [data-count=memories]`);
    await expect.poll(() => row('hatchet').innerText()).toBe('2');
    await expect.poll(() => row('quill').innerText()).toBe('3');
    await expect.poll(() => other.page.getByRole('region', { name: 'Agent details' }).innerText()).toContain('Card TTL');
    await expect.poll(() => other.page.locator('section.scope', { hasText: 'Loading…' }).count()).toBe(0);

    ok((await operator.revokeApiToken({ tokenId })).revokeApiToken, 'RevokeApiTokenSuccess');
    const alert = other.page.locator('section[aria-labelledby=events-h] [role=alert]');
    await expect.poll(() => alert.innerText()).toBe('Live stream closed (4403 Forbidden): Forbidden: the token was revoked or has expired');
    expect(await status.getAttribute('data-state')).toBe('stopped');
    expect(await status.innerText()).toBe('Stopped: the server refused the stream, and trying again would not help. Reload the page or sign in again.');
    expect(await other.page.locator('body').innerText()).not.toContain('[object');
    await screenshot(other.page, 'dashboard-stream-revoked-1280');
    await other.page.context().close();
  });
});
