// Connecting a host's Google Calendar: the consent URL (printed by the CLI) and the OAuth callback's work.
import type { Db } from '../db/client';
import { escapeHtml } from '../email/messages';
import { sqlState } from '../http/errors';
import { googleAuthUrl, googleCalendarId, googleClient, googleRedirectUri } from './config';
import { expiryOf, GoogleError, requestTokens, saveGoogleConnection, storedRefreshToken } from './google';
import { STATE_TTL_SECONDS, signState, verifyState } from './oauth-state';
import { getGoogleConnection } from './queries';
import { type SyncResult, syncConnection } from './sync';

/** Write events (with Meet links, guests invited) and read free/busy time; nothing else of the account. */
export const GOOGLE_SCOPES = [
  'https://www.googleapis.com/auth/calendar.events',
  'https://www.googleapis.com/auth/calendar.freebusy',
] as const;

export class NotConfiguredError extends Error {
  constructor() {
    super('Google Calendar is not configured: set GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and TOKEN_ENCRYPTION_KEY');
    this.name = 'NotConfiguredError';
  }
}

/** The URL a host opens to let the service use their calendar; valid for STATE_TTL_SECONDS. */
export function googleConsentUrl(accountId: string, now = new Date()): { url: string; expiresAt: Date } {
  const client = googleClient();
  if (!client) throw new NotConfiguredError();
  const url = new URL(googleAuthUrl());
  url.search = new URLSearchParams({
    client_id: client.clientId,
    redirect_uri: googleRedirectUri(),
    response_type: 'code',
    scope: GOOGLE_SCOPES.join(' '),
    // offline + consent: Google returns a refresh token on every connection, reconnections included.
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'true',
    state: signState(accountId, now),
  }).toString();
  return { url: url.toString(), expiresAt: new Date(now.getTime() + STATE_TTL_SECONDS * 1000) };
}

export type ConnectOutcome =
  | { ok: true; accountId: string; calendarId: string; sync: SyncResult }
  | { ok: false; status: number; message: string };

const fail = (status: number, message: string): ConnectOutcome => ({ ok: false, status, message });

/**
 * The callback's work: check `state`, exchange the code (grant_type=authorization_code), store the connection with
 * its tokens encrypted, then sync busy time once so that slots honour the calendar at once.
 */
export async function completeGoogleConnect(
  db: Db,
  params: { code: string | null; state: string | null; error: string | null },
  now = new Date(),
): Promise<ConnectOutcome> {
  if (!googleClient()) return fail(503, new NotConfiguredError().message);
  if (!params.state) return fail(400, 'The link is incomplete (no state). Ask for a new connection link.');
  const state = verifyState(params.state, now);
  if (!state.ok) {
    return fail(
      400,
      state.reason === 'expired'
        ? 'This connection link has expired. Ask for a new one.'
        : 'This connection link is not valid. Ask for a new one.',
    );
  }
  if (params.error) {
    return fail(400, params.error === 'access_denied' ? 'Access was not granted.' : 'Google did not grant access.');
  }
  if (!params.code) return fail(400, 'Google sent no authorization code.');

  let answer: Awaited<ReturnType<typeof requestTokens>>;
  try {
    answer = await requestTokens('Google token exchange', {
      grant_type: 'authorization_code',
      code: params.code,
      redirect_uri: googleRedirectUri(),
    });
  } catch (error) {
    console.error(`[calendar] ${(error as Error).message}`);
    return fail(502, 'Google did not accept the authorization. Try the connection link again.');
  }
  // Google's consent screen lets people untick scopes; without these the connection cannot do its job.
  const granted = new Set((answer.scope ?? GOOGLE_SCOPES.join(' ')).split(/\s+/));
  if (!GOOGLE_SCOPES.every((scope) => granted.has(scope))) {
    return fail(400, 'Calendar access was not fully granted. Open the link again and allow all requested access.');
  }
  const existing = await getGoogleConnection(db, state.accountId);
  const refreshToken = answer.refresh_token ?? (existing ? storedRefreshToken(existing) : null);
  if (!refreshToken) {
    return fail(
      400,
      'Google sent no refresh token. Remove the app at https://myaccount.google.com/permissions and connect again.',
    );
  }
  let saved: { id: string };
  try {
    saved = await saveGoogleConnection(db, state.accountId, {
      accessToken: answer.access_token,
      refreshToken,
      expiresAt: expiryOf(answer.expires_in),
    });
  } catch (error) {
    // 23503: the account named by the state was deleted in the meantime.
    if (sqlState(error) === '23503') return fail(400, 'The account of this link no longer exists.');
    if (error instanceof GoogleError) return fail(502, error.message);
    throw error;
  }
  const sync = await syncConnection(db, saved.id, now);
  return { ok: true, accountId: state.accountId, calendarId: googleCalendarId(), sync };
}

/** The small page the callback shows; it names the calendar, never a token. */
export function connectResultPage(outcome: ConnectOutcome): { status: number; html: string } {
  const page = (title: string, lines: string[]) =>
    [
      '<!doctype html>',
      '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
      `<title>${escapeHtml(title)}</title></head>`,
      '<body style="font-family:sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.5">',
      `<h1>${escapeHtml(title)}</h1>`,
      ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
      '</body></html>',
      '',
    ].join('\n');
  if (!outcome.ok) {
    return { status: outcome.status, html: page('Google Calendar not connected', [outcome.message]) };
  }
  const lines = [
    `New bookings will be added to the Google calendar "${outcome.calendarId}", with a Google Meet link, and Google will invite the guests.`,
    outcome.sync.ok
      ? `Busy times from this calendar now block booking slots (${outcome.sync.busy} busy blocks found).`
      : `Busy times could not be read yet (${outcome.sync.error}); the service tries again regularly.`,
    'You can close this page.',
  ];
  return { status: 200, html: page('Google Calendar connected', lines) };
}
