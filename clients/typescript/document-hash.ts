/**
 * How a document is named in the trusted-documents manifest: the SHA-256 (hex) of its printed
 * text. The SDK and scripts/trusted-documents.ts share this, so the hash the SDK sends is the key
 * the server finds.
 */
import { createHash } from 'node:crypto';
import { print, type DocumentNode } from 'graphql';

export const documentText = (document: DocumentNode): string => print(document);
export const documentHash = (text: string): string => createHash('sha256').update(text).digest('hex');
