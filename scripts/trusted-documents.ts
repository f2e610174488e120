/**
 * Writes clients/typescript/generated/trusted-documents.json (hash -> document text) from the operations the
 * generated SDK carries, i.e. clients/typescript/operations. Run by `npm run codegen`; the server serves
 * these documents by hash and, with BURROW_TRUSTED_DOCUMENTS=agents, runs nothing else for agents.
 */
import { writeFileSync } from 'node:fs';
import { Kind, type DocumentNode } from 'graphql';
import * as generated from '../clients/typescript/generated/sdk.js';
import { documentHash, documentText } from '../clients/typescript/document-hash.js';

const manifest: Record<string, string> = {};
for (const [name, value] of Object.entries(generated).sort(([a], [b]) => a.localeCompare(b))) {
  const document = value as DocumentNode;
  if (!name.endsWith('Document') || document?.kind !== Kind.DOCUMENT) continue;
  if (!document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION)) continue;
  const text = documentText(document);
  manifest[documentHash(text)] = text;
}
const sorted = Object.fromEntries(Object.entries(manifest).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(new URL('../clients/typescript/generated/trusted-documents.json', import.meta.url), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`trusted documents: ${Object.keys(sorted).length} operations in clients/typescript/generated/trusted-documents.json`);
