// Tokens at rest and the OAuth state: key parsing, AES-256-GCM round trips, tamper detection, signed expiring state.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  DecryptionError,
  decryptSecret,
  derivedKey,
  EncryptionKeyError,
  encryptSecret,
  parseEncryptionKey,
} from '../../lib/calendar/encryption';
import { STATE_TTL_SECONDS, signState, verifyState } from '../../lib/calendar/oauth-state';

const master = randomBytes(32);
const ACCOUNT = '0b7f1c6e-54c1-4a8e-9d2b-3f1d2c4b5a69';

/** Flips one bit of a base64url value. */
function flipBit(value: string): string {
  const bytes = Buffer.from(value, 'base64url');
  bytes[0] = (bytes[0] as number) ^ 0x01;
  return bytes.toString('base64url');
}

/** Flips one bit of the n-th dot-separated part of a stored secret. */
function flip(stored: string, part: number): string {
  const parts = stored.split('.');
  parts[part] = flipBit(parts[part] as string);
  return parts.join('.');
}

describe('TOKEN_ENCRYPTION_KEY', () => {
  test('accepts 32 bytes as hex, base64 and base64url', () => {
    const key = randomBytes(32);
    assert.deepEqual(parseEncryptionKey(key.toString('hex')), key);
    assert.deepEqual(parseEncryptionKey(key.toString('base64')), key);
    assert.deepEqual(parseEncryptionKey(key.toString('base64url')), key);
    assert.deepEqual(parseEncryptionKey(` ${key.toString('base64')}\n`), key);
  });

  test('a missing key names the variable and why it is needed', () => {
    assert.throws(
      () => parseEncryptionKey(undefined),
      (error: Error) => {
        assert.ok(error instanceof EncryptionKeyError);
        assert.match(error.message, /TOKEN_ENCRYPTION_KEY is not set/);
        assert.match(error.message, /GOOGLE_CLIENT_ID/);
        assert.match(error.message, /openssl rand -base64 32/);
        return true;
      },
    );
    assert.throws(() => parseEncryptionKey('  '), EncryptionKeyError);
  });

  test('a key of the wrong size or alphabet is refused without echoing it', () => {
    for (const bad of [randomBytes(16).toString('base64'), randomBytes(33).toString('hex'), 'not a key at all!']) {
      assert.throws(
        () => parseEncryptionKey(bad),
        (error: Error) =>
          error instanceof EncryptionKeyError && !error.message.includes(bad) && /32 bytes/.test(error.message),
      );
    }
  });

  test('purpose keys are distinct from each other and from the master key', () => {
    const a = derivedKey('token-encryption', master);
    const b = derivedKey('oauth-state', master);
    assert.equal(a.length, 32);
    assert.notDeepEqual(a, b);
    assert.notDeepEqual(a, master);
  });
});

describe('encryptSecret / decryptSecret', () => {
  const context = `google:refresh:${ACCOUNT}`;
  const secret = '1//0g-refresh-token-ünïcode';

  test('round trip; the ciphertext does not contain the secret; every encryption is different', () => {
    const a = encryptSecret(secret, context, master);
    const b = encryptSecret(secret, context, master);
    assert.match(a, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.notEqual(a, b);
    assert.ok(!a.includes('refresh'));
    assert.equal(decryptSecret(a, context, master), secret);
    assert.equal(decryptSecret(b, context, master), secret);
  });

  test('tampering with IV, body or tag, a wrong context or a wrong key is detected', () => {
    const stored = encryptSecret(secret, context, master);
    for (const part of [1, 2, 3]) {
      assert.throws(() => decryptSecret(flip(stored, part), context, master), DecryptionError);
    }
    assert.throws(
      () => decryptSecret(stored, `google:refresh:${randomBytes(4).toString('hex')}`, master),
      DecryptionError,
    );
    assert.throws(() => decryptSecret(stored, `google:access:${ACCOUNT}`, master), DecryptionError);
    assert.throws(() => decryptSecret(stored, context, randomBytes(32)), DecryptionError);
  });

  test('malformed stored values are refused with the same error', () => {
    const stored = encryptSecret(secret, context, master);
    const [, iv, body, tag] = stored.split('.');
    for (const bad of [
      '',
      'plain-token',
      `v2.${iv}.${body}.${tag}`,
      `v1.${iv}.${body}`,
      `${stored}.x`,
      `v1.${iv}.${body}.AA`,
    ]) {
      assert.throws(
        () => decryptSecret(bad, context, master),
        (error: Error) => error instanceof DecryptionError && !error.message.includes(secret),
      );
    }
  });
});

describe('OAuth state', () => {
  const key = derivedKey('oauth-state', master);
  const now = new Date('2030-01-07T10:00:00Z');

  test('names the account and verifies until it expires after 15 minutes', () => {
    const state = signState(ACCOUNT, now, key);
    assert.match(state, /^[\w-]+\.[\w-]+$/);
    assert.deepEqual(verifyState(state, now, key), { ok: true, accountId: ACCOUNT });
    const almost = new Date(now.getTime() + (STATE_TTL_SECONDS - 1) * 1000);
    assert.deepEqual(verifyState(state, almost, key), { ok: true, accountId: ACCOUNT });
    const later = new Date(now.getTime() + STATE_TTL_SECONDS * 1000);
    assert.deepEqual(verifyState(state, later, key), { ok: false, reason: 'expired' });
    assert.equal(STATE_TTL_SECONDS, 15 * 60);
  });

  test('two states for one account differ (nonce)', () => {
    assert.notEqual(signState(ACCOUNT, now, key), signState(ACCOUNT, now, key));
  });

  test('a changed payload, a changed signature, another key or garbage is invalid', () => {
    const state = signState(ACCOUNT, now, key);
    const [body, signature] = state.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, a: randomBytes(16).toString('hex') })).toString(
      'base64url',
    );
    const invalid = { ok: false, reason: 'invalid' };
    assert.deepEqual(verifyState(`${forged}.${signature}`, now, key), invalid);
    assert.deepEqual(verifyState(`${body}.${flipBit(signature)}`, now, key), invalid);
    assert.deepEqual(verifyState(state, now, derivedKey('oauth-state', randomBytes(32))), invalid);
    for (const garbage of ['', '.', 'abc', `${body}.`, `${state}.x`, 'x'.repeat(5000)]) {
      assert.deepEqual(verifyState(garbage, now, key), invalid);
    }
    // A token-encryption key cannot sign states (purpose separation).
    const other = signState(ACCOUNT, now, derivedKey('token-encryption', master));
    assert.deepEqual(verifyState(other, now, key), invalid);
  });
});
