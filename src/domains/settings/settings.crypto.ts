/**
 * Secrets at rest and in exports. Stored secrets are AES-256-GCM under BURROW_SETTINGS_KEY; each
 * ciphertext names the key it was made with (a fingerprint, never the key), so rotation can
 * find what is left to re-encrypt and a wrong key is told apart from a damaged value. The row
 * and column a secret belongs to are its associated data: a ciphertext copied to another row
 * does not decrypt. Exported secrets use a password instead (scrypt + AES-256-GCM), in an
 * envelope separate from the rest of the export.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, scryptSync } from 'node:crypto';
import { BurrowError } from '../../lib/errors.js';

export interface SettingsKey {
  /** The 32 raw key bytes. Never logged, printed or returned. */
  readonly bytes: Buffer;
  /** A fingerprint that names the key in every ciphertext made with it. */
  readonly id: string;
}

/** The shape a stored secret must have: the database refuses anything else (no plaintext). */
export const SECRET_PATTERN = '^v1\\.[0-9a-f]{16}\\.[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]*$';

/** Returns the key, or a description of what is wrong with it (which never quotes the value). */
export function parseSettingsKey(raw: string): SettingsKey | string {
  const value = raw.trim();
  let bytes: Buffer | null = null;
  if (/^[0-9a-fA-F]+$/.test(value) && value.length === 64) bytes = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (!bytes) return 'must be base64 or hex; it is neither';
  if (bytes.length !== 32) return `must decode (base64 or hex) to exactly 32 bytes; it decodes to ${bytes.length}`;
  return { bytes, id: keyIdOf(bytes) };
}

export const keyIdOf = (bytes: Buffer) => createHash('sha256').update('burrow-settings-key:').update(bytes).digest('hex').slice(0, 16);

/** Writing a secret-bearing setting needs a key; everything else works without one. */
export class SettingsKeyRequiredError extends BurrowError {
  constructor(readonly field: string) {
    super(
      'SETTINGS_KEY_REQUIRED',
      `${field} is a secret and secrets are stored encrypted: start Burrow with BURROW_SETTINGS_KEY (32 bytes, base64 or hex) to write it; nothing was changed`,
    );
  }
}

/** A stored secret that the configured key cannot open (another key, or a damaged value). */
export class SecretUnreadableError extends BurrowError {
  constructor(where: string, keyId: string | null, currentKeyId: string | null) {
    super(
      'SECRET_UNREADABLE',
      keyId && keyId !== currentKeyId
        ? `the secret of ${where} was encrypted with key ${keyId}, not the configured key ${currentKeyId ?? '(none)'}`
        : `the secret of ${where} cannot be decrypted with the configured key`,
    );
  }
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');
const unb64 = (text: string) => Buffer.from(text, 'base64url');

/** `v1.<keyId>.<iv>.<tag>.<ciphertext>`; `where` (table/row/column) is bound as associated data. */
export function encryptSecret(key: SettingsKey, where: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.bytes, iv);
  cipher.setAAD(Buffer.from(where));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', key.id, b64(iv), b64(cipher.getAuthTag()), b64(ciphertext)].join('.');
}

export const keyIdOfSecret = (stored: string): string | null => stored.split('.')[1] ?? null;

/** Opens a stored secret with whichever of `keys` made it. */
export function decryptSecret(keys: (SettingsKey | null)[], where: string, stored: string): string {
  const [version, keyId, iv, tag, ciphertext] = stored.split('.');
  const key = keys.find((k) => k?.id === keyId);
  if (version !== 'v1' || !key || ciphertext === undefined) throw new SecretUnreadableError(where, keyId ?? null, keys[0]?.id ?? null);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, unb64(iv));
    decipher.setAAD(Buffer.from(where));
    decipher.setAuthTag(unb64(tag));
    return Buffer.concat([decipher.update(unb64(ciphertext)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretUnreadableError(where, keyId, key.id);
  }
}

/** scrypt cost of export envelopes: 2^15 x 8 uses 32 MiB and well under a second. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
export const EXPORT_PASSWORD_MIN = 12;

export interface SecretEnvelope {
  kdf: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  cipher: 'aes-256-gcm';
  iv: string;
  tag: string;
  ciphertext: string;
}

export function sealEnvelope(password: string, secrets: Record<string, string>): SecretEnvelope {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, SCRYPT);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from('burrow-export-secrets'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return { kdf: 'scrypt', N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, salt: b64(salt), cipher: 'aes-256-gcm', iv: b64(iv), tag: b64(cipher.getAuthTag()), ciphertext: b64(ciphertext) };
}

/** The secrets, or null when the password is wrong or the envelope was altered. */
export function openEnvelope(password: string, envelope: SecretEnvelope): Record<string, string> | null {
  // Bounded costs only: an import file must not choose an expensive KDF for us.
  if (envelope.N > 2 ** 17 || envelope.r > 16 || envelope.p > 4) return null;
  try {
    const key = scryptSync(password, unb64(envelope.salt), 32, { N: envelope.N, r: envelope.r, p: envelope.p, maxmem: 256 * 1024 * 1024 });
    const decipher = createDecipheriv('aes-256-gcm', key, unb64(envelope.iv));
    decipher.setAAD(Buffer.from('burrow-export-secrets'));
    decipher.setAuthTag(unb64(envelope.tag));
    const parsed = JSON.parse(Buffer.concat([decipher.update(unb64(envelope.ciphertext)), decipher.final()]).toString('utf8')) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return null;
  }
}
