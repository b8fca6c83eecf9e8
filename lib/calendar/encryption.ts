// OAuth tokens at rest: AES-256-GCM under a key from TOKEN_ENCRYPTION_KEY. The same master key also signs the OAuth
// `state` (a separate HKDF-derived key per purpose, so one use can never be turned against the other).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12; // NIST SP 800-38D: 96-bit IVs for GCM
const TAG_BYTES = 16;

export class EncryptionKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EncryptionKeyError';
  }
}

const HINT = 'Generate one with `openssl rand -base64 32`.';

/** 32 bytes written as 64 hex characters or as base64 / base64url. The value never appears in an error. */
export function parseEncryptionKey(value: string | undefined): Buffer {
  const text = value?.trim();
  if (!text) {
    throw new EncryptionKeyError(
      `TOKEN_ENCRYPTION_KEY is not set; it is required when Google Calendar is configured (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET). ${HINT}`,
    );
  }
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(text)) key = Buffer.from(text, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  }
  if (key?.length === 32) return key;
  throw new EncryptionKeyError(`TOKEN_ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64. ${HINT}`);
}

let cached: { raw: string; key: Buffer } | null = null;

/** The master key from the environment (parsed once per value). */
export function masterKey(): Buffer {
  const raw = process.env.TOKEN_ENCRYPTION_KEY ?? '';
  if (cached?.raw !== raw) cached = { raw, key: parseEncryptionKey(raw) };
  return cached.key;
}

/** A 32-byte key for one purpose, derived from the master key (RFC 5869 HKDF-SHA256). */
export function derivedKey(purpose: 'token-encryption' | 'oauth-state', master = masterKey()): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `booking-service ${purpose} v1`, 32));
}

/**
 * Encrypts a secret. `context` (e.g. "google:refresh:<account id>") is authenticated but not stored: a ciphertext
 * copied to another account or column fails to decrypt.
 */
export function encryptSecret(plaintext: string, context: string, master = masterKey()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', derivedKey('token-encryption', master), iv, {
    authTagLength: TAG_BYTES,
  });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    body.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.');
}

export class DecryptionError extends Error {
  constructor() {
    super('A stored calendar token cannot be decrypted (TOKEN_ENCRYPTION_KEY changed, or the data was altered)');
    this.name = 'DecryptionError';
  }
}

export function decryptSecret(stored: string, context: string, master = masterKey()): string {
  const [version, iv, body, tag, ...rest] = stored.split('.');
  if (version !== VERSION || iv === undefined || body === undefined || tag === undefined || rest.length > 0) {
    throw new DecryptionError();
  }
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      derivedKey('token-encryption', master),
      Buffer.from(iv, 'base64url'),
      {
        authTagLength: TAG_BYTES,
      },
    );
    decipher.setAAD(Buffer.from(context, 'utf8'));
    const tagBytes = Buffer.from(tag, 'base64url');
    if (tagBytes.length !== TAG_BYTES) throw new DecryptionError();
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new DecryptionError();
  }
}
