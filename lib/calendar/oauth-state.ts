// The OAuth `state` of the Google consent flow: names the account being connected, expires, and is HMAC-signed, so
// the callback only ever attaches tokens to the account an administrator asked for (RFC 6749, 10.12).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { derivedKey } from './encryption';

export const STATE_TTL_SECONDS = 15 * 60;

type StatePayload = { v: 1; a: string; x: number; n: string };

export type StateCheck = { ok: true; accountId: string } | { ok: false; reason: 'invalid' | 'expired' };

function mac(body: string, key: Buffer): Buffer {
  return createHmac('sha256', key).update(`oauth-state.${body}`).digest();
}

export function signState(accountId: string, now = new Date(), key = derivedKey('oauth-state')): string {
  const payload: StatePayload = {
    v: 1,
    a: accountId,
    x: Math.floor(now.getTime() / 1000) + STATE_TTL_SECONDS,
    n: randomBytes(9).toString('base64url'),
  };
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${mac(body, key).toString('base64url')}`;
}

export function verifyState(state: string, now = new Date(), key = derivedKey('oauth-state')): StateCheck {
  const invalid = { ok: false, reason: 'invalid' } as const;
  if (state.length > 1000) return invalid;
  const [body, signature, ...rest] = state.split('.');
  if (!body || !signature || rest.length > 0) return invalid;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(body, key);
  // The signature is checked before the payload is even parsed.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return invalid;
  let payload: Partial<StatePayload>;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<StatePayload>;
  } catch {
    return invalid;
  }
  if (payload.v !== 1 || typeof payload.a !== 'string' || typeof payload.x !== 'number') return invalid;
  if (payload.x * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, accountId: payload.a };
}
