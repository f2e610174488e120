/**
 * The console in a real browser: Debian's chromium driven by playwright-core, every request to
 * anything but this machine blocked and recorded, screenshots kept under test-artifacts/
 * (git-ignored). The console is built first when console/dist is missing or older than its source.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const NO_CHROMIUM = `skipped: no chromium binary at ${CHROMIUM}; apt-get install chromium`;
export const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname;
/**
 * Where the console tests save the screenshots docs/console.md shows: docs/images/ with
 * BURROW_DOCS_SCREENSHOTS=1 (refreshing the docs' pictures), else test-artifacts/, so that a plain
 * `npm test` never rewrites tracked files.
 */
export const DOCS_IMAGES = process.env.BURROW_DOCS_SCREENSHOTS === '1' ? `${ROOT}docs/images/` : ARTIFACTS;
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 375, height: 800 } } as const;

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function ensureConsoleBuilt() {
  const index = join(ROOT, 'console/dist/index.html');
  const sourceTime = Math.max(newestMtime(join(ROOT, 'console/src')), statSync(join(ROOT, 'console/index.html')).mtimeMs);
  if (existsSync(index) && statSync(index).mtimeMs >= sourceTime) return;
  execFileSync('npm', ['run', '-s', 'build:console'], { cwd: ROOT, stdio: 'inherit' });
}

export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface ConsolePage {
  page: Page;
  /** Requests to another origin that were attempted (and blocked). */
  blocked: string[];
  /** Errors the page logged (CSP violations show up here). */
  consoleErrors: string[];
}

export async function openPage(browser: Browser, viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const blocked: string[] = [];
  const consoleErrors: string[] = [];
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || LOCAL_HOSTS.has(url.hostname)) return route.continue();
    blocked.push(url.href);
    return route.abort();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  return { page, blocked, consoleErrors };
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}

export const consoleUrl = (graphqlUrl: string) => graphqlUrl.replace(/\/graphql$/, '/console');
