import { randomToken, sha256Hex } from '../auth/tokens';

// Spec, Authentication 3-5.
export const SCOPES = [
  'booking_pages:read',
  'booking_pages:slots',
  'bookings:create',
  'bookings:read',
  'bookings:write',
] as const;
export type Scope = (typeof SCOPES)[number];
export type KeyType = 'secret' | 'publishable';

export const KEY_PREFIX: Record<KeyType, string> = { secret: 'service_sk_', publishable: 'service_pk_' };

export const DEFAULT_SCOPES: Record<KeyType, readonly Scope[]> = {
  secret: SCOPES,
  publishable: ['booking_pages:read', 'booking_pages:slots', 'bookings:create'],
};

/** Scopes a publishable key can never hold, because booking reads expose guest names and emails. */
export const SECRET_ONLY_SCOPES: readonly Scope[] = ['bookings:read', 'bookings:write'];

/** The key type a presented key claims by its prefix, or null for a string that is no key of ours. */
export function keyTypeOf(key: string): KeyType | null {
  if (key.startsWith(KEY_PREFIX.secret)) return 'secret';
  if (key.startsWith(KEY_PREFIX.publishable)) return 'publishable';
  return null;
}

// Type prefix plus 4 characters of the random part: enough to tell keys apart in a list, useless to an attacker.
const DISPLAY_PREFIX_EXTRA = 4;

export type NewKey = { key: string; hash: string; prefix: string };

export function generateKey(type: KeyType): NewKey {
  const key = `${KEY_PREFIX[type]}${randomToken(32)}`;
  return { key, hash: sha256Hex(key), prefix: key.slice(0, KEY_PREFIX[type].length + DISPLAY_PREFIX_EXTRA) };
}

export function hashKey(key: string): string {
  return sha256Hex(key);
}
