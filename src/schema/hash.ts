/**
 * The schema's identity for clients: the SHA-256 (hex) of schema.graphql, the file the clients are
 * generated from (drift keeps it equal to the printed Pothos schema, so it names what this server
 * serves). Each client package carries the hash it was generated from and compares it with the one
 * the server sends: the Burrow-Schema-Hash response header, and `schemaHash` in graphql-ws's
 * connection_ack payload.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Plugin } from 'graphql-yoga';

export const SCHEMA_HASH_HEADER = 'burrow-schema-hash';
export const SCHEMA_HASH = createHash('sha256')
  .update(readFileSync(new URL('../../schema.graphql', import.meta.url)))
  .digest('hex');

/** Every HTTP answer of the GraphQL endpoint names the schema, refusals included. */
export function useSchemaHashHeader(): Plugin {
  return {
    onResponse({ response }) {
      response.headers.set(SCHEMA_HASH_HEADER, SCHEMA_HASH);
    },
  };
}
