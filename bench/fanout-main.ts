import { run } from './scenarios/fanout.js';
const result = await run({ smoke: process.argv.includes('--smoke'), databaseUrl: process.env.BURROW_TEST_DATABASE_URL ?? null, json: false });
for (const f of result.figures) console.log(`${f.name}: ${f.value} ${f.unit}${f.baselineValue !== undefined ? ` (baseline ${f.baselineValue}, ratio ${f.ratio})` : ''}${f.target ? ` target ${f.target}` : ''}`);
for (const n of result.notes) console.log(`- ${n}`);
process.exit(0);
