/**
 * What the console announces, for its browser tests. Apart from browser.ts because it needs
 * vitest's expect, and the global setup (which builds the console through browser.ts) cannot load vitest.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { scaled } from './load.js';

/**
 * The text of the polite live region the console announces results in, polled until it matches:
 * `await announced(page).toBe('…')`. Never read once: the console clears the region and sets the
 * message a frame later (announce in console/src/main.tsx, so a message repeated is announced
 * again), and a single read can fall between the two.
 */
export const announced = (page: Page) => expect.poll(() => page.locator('#announcer').innerText(), { timeout: scaled(10_000), interval: 20 });
