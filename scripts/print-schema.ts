// Prints the Pothos schema to schema.graphql (committed; CI fails when it drifts).
import { writeFileSync } from 'node:fs';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../src/schema/index.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), `${printSchema(lexicographicSortSchema(schema))}\n`);
