import crypto, { createHash, randomBytes, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

// crypto.hash (Node 20.12+) hashes in one call, a third of createHash's time: every request hashes
// its token to find it in the token cache.
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string | Buffer, encoding: 'hex') => string }).hash;
export const sha256Hex = (text: string | Buffer): string => (oneShotHash ? oneShotHash('sha256', text, 'hex') : createHash('sha256').update(text).digest('hex'));

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** A stable 32-bit key for advisory locks derived from text (same on every instance). */
export const lockKey = (text: string): number => createHash('sha256').update(text).digest().readInt32BE(0);
