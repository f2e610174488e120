/**
 * Writes client/generated/trusted-documents.json (hash -> document text) from the operations the
 * generated SDK carries, i.e. client/operations. Run by `npm run codegen`; the server serves
 * these documents by hash and, with BURROW_TRUSTED_DOCUMENTS=agents, runs nothing else for agents.
 */
import { writeFileSync } from 'node:fs';
import { Kind, type DocumentNode } from 'graphql';
import * as generated from '../client/generated/sdk.js';
import { documentHash, documentText } from '../client/document-hash.js';

const manifest: Record<string, string> = {};
for (const [name, value] of Object.entries(generated).sort(([a], [b]) => a.localeCompare(b))) {
  const document = value as DocumentNode;
  if (!name.endsWith('Document') || document?.kind !== Kind.DOCUMENT) continue;
  if (!document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION)) continue;
  const text = documentText(document);
  manifest[documentHash(text)] = text;
}
const sorted = Object.fromEntries(Object.entries(manifest).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(new URL('../client/generated/trusted-documents.json', import.meta.url), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`trusted documents: ${Object.keys(sorted).length} operations in client/generated/trusted-documents.json`);
