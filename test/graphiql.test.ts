/**
 * GraphiQL as a person opens it: headless Chromium (Debian's `chromium`, driven by
 * playwright-core) loads the page with every request to anything but this machine blocked and
 * recorded, sees the editor render with the Authorization header prefilled, puts a real token
 * in the header editor and runs a query that returns data. The screenshot is kept in
 * test/artifacts/ (git-ignored).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './support/harness.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

const hasChromium = existsSync(CHROMIUM);
/** Monaco renders spaces as U+00A0. */
const textOf = async (locator: import('playwright-core').Locator) => (await locator.innerText()).replace(/\u00a0/g, ' ');

describe.skipIf(!hasChromium)(`GraphiQL offline in headless Chromium${hasChromium ? '' : ` (skipped: no chromium binary at ${CHROMIUM}; apt-get install chromium)`}`, () => {
  let server: TestServer;
  let browser: import('playwright-core').Browser;

  beforeAll(async () => {
    server = await startServer({ config: { graphiql: true } });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('loads without a token, renders the editor from local assets and runs a query with a real token', async () => {
    const { token } = await server.app.services.tokens.create({ kind: 'operator', name: 'graphiql-person' });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const blocked: string[] = [];
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      const local = url.protocol === 'data:' || url.protocol === 'blob:' || LOCAL_HOSTS.has(url.hostname);
      if (local) return route.continue();
      blocked.push(url.href);
      return route.abort();
    });

    // A plain browser GET: no Authorization header, HTML back.
    const response = await page.goto(server.url, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toContain('text/html');
    expect(await page.title()).toBe('Burrow');
    await page.locator('.graphiql-container').first().waitFor({ timeout: 30_000 });
    // The first example tab is open, and four tabs wait.
    await expect.poll(() => textOf(page.locator('.graphiql-query-editor').first()), { timeout: 15_000 }).toContain('query Viewer');
    expect(await page.locator('.graphiql-tab').count()).toBe(4);

    // The header editor starts with the Authorization header; the person pastes a token after "Bearer ".
    await page.getByRole('button', { name: 'Headers' }).click();
    const headerEditor = page.locator('.graphiql-editor-tool .graphiql-editor').last();
    await expect.poll(() => textOf(headerEditor), { timeout: 10_000 }).toContain('"Bearer "');
    const headers = JSON.stringify({ Authorization: `Bearer ${token}` });
    // The editor closes brackets and quotes as they are typed, sometimes after a delay on a busy
    // machine: type, drop what it added after the cursor, and look again until exactly the JSON stays.
    await expect
      .poll(
        async () => {
          await headerEditor.click();
          await page.keyboard.press('ControlOrMeta+A');
          await page.keyboard.insertText(headers);
          await page.keyboard.press('Shift+ControlOrMeta+End');
          await page.keyboard.press('Delete');
          const text = (await textOf(headerEditor)).trim();
          return text.includes(headers) && text.endsWith(`${token}"}`);
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);

    await page.locator('.graphiql-execute-button').click();
    const result = page.locator('.graphiql-response');
    await expect.poll(() => textOf(result), { timeout: 20_000 }).toContain('graphiql-person');
    const text = await textOf(result);
    expect(text).toContain('"principal": "OPERATOR"');
    expect(text).not.toContain('UNAUTHENTICATED');

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}graphiql.png` });
    // Nothing was even attempted beyond this machine.
    expect(blocked).toEqual([]);
  });
});
