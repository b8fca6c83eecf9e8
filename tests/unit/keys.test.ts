// API key format, hashing and scope defaults (spec: Authentication).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { presentedKey, requireScopes } from '../../lib/api-keys/auth';
import { DEFAULT_SCOPES, generateKey, hashKey, keyTypeOf } from '../../lib/api-keys/keys';
import { hashPassword, verifyPassword } from '../../lib/auth/password';
import { hexDigestsEqual } from '../../lib/auth/tokens';
import { ApiError } from '../../lib/http/errors';

test('generated keys carry their type prefix, 256 random bits, and are stored as a SHA-256', () => {
  const secret = generateKey('secret');
  const publishable = generateKey('publishable');
  assert.match(secret.key, /^service_sk_[A-Za-z0-9_-]{43}$/);
  assert.match(publishable.key, /^service_pk_[A-Za-z0-9_-]{43}$/);
  assert.equal(secret.hash, hashKey(secret.key));
  assert.equal(secret.prefix, secret.key.slice(0, 15));
  assert.notEqual(generateKey('secret').key, secret.key);
  assert.equal(keyTypeOf(secret.key), 'secret');
  assert.equal(keyTypeOf(publishable.key), 'publishable');
  assert.equal(keyTypeOf('sk_live_123'), null);
});

test('default scopes: publishable keys never read or write bookings', () => {
  assert.deepEqual(DEFAULT_SCOPES.publishable, ['booking_pages:read', 'booking_pages:slots', 'bookings:create']);
  assert.equal(DEFAULT_SCOPES.secret.length, 5);
});

test('missing scopes are named in the 403', () => {
  const key = { id: 'k', accountId: 'a' as never, type: 'publishable' as const, scopes: DEFAULT_SCOPES.publishable };
  assert.throws(
    () => requireScopes(key, ['bookings:read', 'bookings:write']),
    (error: unknown) =>
      error instanceof ApiError &&
      error.status === 403 &&
      error.message === 'API key is missing required scope(s): bookings:read, bookings:write',
  );
  requireScopes(key, ['bookings:create']);
});

test('the key is taken from Authorization: Bearer first, then x-service-key', () => {
  assert.equal(presentedKey(new Headers({ authorization: 'Bearer abc' })), 'abc');
  assert.equal(presentedKey(new Headers({ authorization: 'bearer  abc ' })), 'abc');
  assert.equal(presentedKey(new Headers({ 'x-service-key': 'xyz' })), 'xyz');
  assert.equal(presentedKey(new Headers({ authorization: 'Bearer abc', 'x-service-key': 'xyz' })), 'abc');
  assert.equal(presentedKey(new Headers({ authorization: 'Basic abc' })), null);
  assert.equal(presentedKey(new Headers()), null);
});

test('digests compare in constant time and only when equal', () => {
  const a = hashKey('a');
  assert.equal(hexDigestsEqual(a, a), true);
  assert.equal(hexDigestsEqual(a, hashKey('b')), false);
  assert.equal(hexDigestsEqual(a, ''), false);
});

test('passwords and access codes: salted scrypt, verified in constant time', async () => {
  const hash = await hashPassword('letmein');
  assert.match(hash, /^scrypt\$131072\$8\$1\$/);
  assert.notEqual(await hashPassword('letmein'), hash);
  assert.equal(await verifyPassword('letmein', hash), true);
  assert.equal(await verifyPassword('letmeout', hash), false);
  assert.equal(await verifyPassword('letmein', null), false);
  assert.equal(await verifyPassword('letmein', 'garbage'), false);
});
