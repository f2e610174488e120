import type { BurrowConfig } from '../src/config.js';
import { testConfig } from '../test/support/harness.js';

/** A throwaway embedded database with every background job off: the test servers' configuration. */
export function testConfigForBench(): BurrowConfig {
  return testConfig({ lifecycle: 'embedded', dataDir: 'memory://' });
}
