import { createHash, randomBytes, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

export const sha256Hex = (text: string | Buffer): string =>
  createHash('sha256').update(text).digest('hex');

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** A stable 32-bit key for advisory locks derived from text (same on every instance). */
export const lockKey = (text: string): number => createHash('sha256').update(text).digest().readInt32BE(0);
