import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import { timeoutFactor } from './test/support/load.js';

// One copy of graphql under the test runner. The packages (Pothos, Yoga, envelop) are loaded by
// Node itself, which resolves `graphql` to its CommonJS build; vitest's own resolver would hand
// the sources the ESM build (the package's `module` field) and the two copies' instanceof checks
// refuse each other's schema. So the sources get what Node gives the packages. The built server
// (scripts/build.mjs) makes the same rule the other way round: everything is graphql's ESM build.
const graphqlEntry = createRequire(import.meta.url).resolve('graphql');

// Timeouts are deadlines that catch a hung test, never a judgement of speed: 10 minutes a test or
// a hook, stretched by the machine's load at the start of the run (test/support/load.ts), so a
// machine that gets busy later (load 25 on two cores, measured) still finishes conclusively; the
// harness's waits stretch with the load at the moment they start waiting. A test states its own
// timeout only when it needs more than these.
const factor = timeoutFactor();

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlEntry }] },
  test: {
    include: ['test/**/*.test.ts'],
    // The production topologies (HAProxy, PgBouncer, replicas, failover) need engines a developer's
    // machine does not have: they run only with BURROW_TEST_TOPOLOGY=1 (docs/scaling.md), so a plain
    // `npm test` neither starts nor skips them.
    exclude: process.env.BURROW_TEST_TOPOLOGY === '1' ? ['**/node_modules/**'] : ['**/node_modules/**', 'test/topology/**'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: Math.round(600_000 * factor),
    hookTimeout: Math.round(600_000 * factor),
    teardownTimeout: Math.round(60_000 * factor),
    pool: 'forks',
    // Two cores: two files at a time, each with its own server and database.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    reporters: ['default', './test/support/skip-summary.ts'],
  },
});
