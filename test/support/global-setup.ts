/**
 * Before any test file runs: the built server (dist/) and the console's build are brought up to
 * date once, so the end-to-end layer's starts (npm start, npm run burrow) run what the sources say
 * and none of them rebuilds dist/ while another runs it.
 */
import { build, isStale } from '../../scripts/build.mjs';
import { ensureConsoleBuilt } from './browser.js';

export default async function setup() {
  if (isStale()) await build();
  ensureConsoleBuilt();
}
