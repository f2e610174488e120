// Prints the Pothos schema to schema.graphql (committed; CI fails when it drifts).
import { writeFileSync } from 'node:fs';
import { schemaText } from '../src/schema/hash.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), schemaText());
