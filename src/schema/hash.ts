/**
 * The schema's identity for clients: the SHA-256 (hex) of schema.graphql's text, which is what
 * this printer writes (scripts/print-schema.ts) and drift keeps equal to the file. Each client
 * package carries the hash it was generated from and compares it with the one the server sends
 * (the Burrow-Schema-Hash response header, and `schemaHash` in graphql-ws's connection_ack).
 */
import { createHash } from 'node:crypto';
import { lexicographicSortSchema, printSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { schema } from './index.js';

export const SCHEMA_HASH_HEADER = 'burrow-schema-hash';
export const schemaText = (): string => `${printSchema(lexicographicSortSchema(schema))}\n`;
export const SCHEMA_HASH = createHash('sha256').update(schemaText()).digest('hex');

/** Every HTTP answer of the GraphQL endpoint names the schema, refusals included. */
export function useSchemaHashHeader(): Plugin {
  return {
    onResponse({ response }) {
      response.headers.set(SCHEMA_HASH_HEADER, SCHEMA_HASH);
    },
  };
}
