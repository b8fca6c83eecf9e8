// Google Calendar: the provider of a connected host's booking events (with Google Meet links) and the source of
// their busy time (freeBusy). Plain fetch against the REST API; every request has a timeout, and no token ever
// appears in an error message or a log line (errors carry the operation, the HTTP status and Google's reason code).
import { randomBytes } from 'node:crypto';
import type { Sql } from '../db/client';
import type { Interval } from '../slots/slots';
import { googleApiBase, googleCalendarId, googleClient, googleOAuthBase, REQUEST_TIMEOUT_MS } from './config';
import { decryptSecret, encryptSecret } from './encryption';
import {
  markGoogleEventCancelled,
  recordGoogleEvent,
  recordSyncError,
  storeAccessToken,
  upsertGoogleConnection,
} from './mutations';
import type { CalendarProvider, CreatedEvent, EventRequest } from './provider';
import { type ConnectionRow, getGoogleConnection, getGoogleEventCalendar } from './queries';

export class GoogleError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'GoogleError';
  }
}

// Ciphertexts are bound to their account and role (see encryptSecret).
const accessContext = (accountId: string) => `google:access:${accountId}`;
const refreshContext = (accountId: string) => `google:refresh:${accountId}`;

// Google answers freeBusy for at most about three months per request ("The requested time range is too long").
const FREE_BUSY_CHUNK_MS = 60 * 86_400_000;
// Refresh a little before the stored expiry, so a token never expires between the check and Google's.
const EXPIRY_MARGIN_MS = 60_000;

export type GoogleTokens = { accessToken: string; refreshToken: string; expiresAt: Date };

/** Stores (creates or replaces) a host's Google connection with its tokens encrypted. */
export async function saveGoogleConnection(
  db: Sql,
  accountId: string,
  tokens: GoogleTokens,
  calendarId = googleCalendarId(),
): Promise<{ id: string }> {
  return upsertGoogleConnection(db, accountId, calendarId, {
    accessTokenEnc: encryptSecret(tokens.accessToken, accessContext(accountId)),
    refreshTokenEnc: encryptSecret(tokens.refreshToken, refreshContext(accountId)),
    expiresAt: tokens.expiresAt,
  });
}

/** The refresh token of a stored connection, decrypted (the OAuth callback keeps it when Google sends none). */
export function storedRefreshToken(connection: ConnectionRow): string | null {
  return connection.refresh_token_enc
    ? decryptSecret(connection.refresh_token_enc, refreshContext(connection.account_id))
    : null;
}

function networkReason(error: unknown): string {
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? code : 'unreachable';
}

/** fetch with the timeout; network failures become a GoogleError naming only the operation. */
async function send(label: string, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    const name = (error as Error).name;
    const why =
      name === 'TimeoutError' || name === 'AbortError'
        ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`
        : `network error (${networkReason(error)})`;
    throw new GoogleError(`${label}: ${why}`, null);
  }
}

/** The error of a failed answer: status and Google's machine-readable reason, never the body as such. */
async function failure(label: string, response: Response): Promise<GoogleError> {
  let reason: unknown = '';
  try {
    const body = (await response.json()) as {
      error?: string | { status?: string; errors?: { reason?: string }[] };
    };
    reason = typeof body.error === 'string' ? body.error : (body.error?.errors?.[0]?.reason ?? body.error?.status);
  } catch {
    // Not JSON: the status says enough.
  }
  const code = String(reason ?? '')
    .replace(/[^A-Za-z0-9_.-]/g, '')
    .slice(0, 60);
  return new GoogleError(`${label}: HTTP ${response.status}${code ? ` ${code}` : ''}`, response.status);
}

/** A JSON answer; a parse error would quote the body, so it is replaced by one naming the operation only. */
async function readJson<T>(label: string, response: Response): Promise<T> {
  try {
    return (await response.json()) as T;
  } catch {
    throw new GoogleError(`${label}: the answer is not JSON`, response.status);
  }
}

type TokenAnswer = { access_token: string; expires_in?: number; refresh_token?: string; scope?: string };

/** POST to Google's token endpoint (authorization_code or refresh_token grant). */
export async function requestTokens(label: string, params: Record<string, string>): Promise<TokenAnswer> {
  const client = googleClient();
  if (!client)
    throw new GoogleError('Google Calendar is not configured (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET)', null);
  const response = await send(label, `${googleOAuthBase()}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ client_id: client.clientId, client_secret: client.clientSecret, ...params }),
  });
  if (!response.ok) throw await failure(label, response);
  const body = await readJson<Partial<TokenAnswer>>(label, response);
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw new GoogleError(`${label}: the answer has no access token`, response.status);
  }
  return body as TokenAnswer;
}

export function expiryOf(expiresIn: unknown, now = Date.now()): Date {
  const seconds = Number(expiresIn);
  return new Date(now + (Number.isFinite(seconds) && seconds > 0 ? seconds : 3600) * 1000);
}

export const REVOKED_MESSAGE =
  'Google access was revoked or has expired; connect the calendar again (npm run cli -- calendar:google-connect USERNAME)';

/** Authorised requests for one connection: the stored access token, refreshed when expired or on a 401. */
class GoogleSession {
  private token: string | null = null;

  constructor(
    private readonly db: Sql,
    private readonly connection: ConnectionRow,
  ) {}

  private async accessToken(): Promise<string> {
    if (this.token) return this.token;
    const { access_token_enc: stored, token_expires_at: expires, account_id: accountId } = this.connection;
    if (stored && expires && new Date(expires).getTime() - EXPIRY_MARGIN_MS > Date.now()) {
      this.token = decryptSecret(stored, accessContext(accountId));
      return this.token;
    }
    return this.refresh();
  }

  private async refresh(): Promise<string> {
    const refreshToken = storedRefreshToken(this.connection);
    if (!refreshToken) throw new GoogleError('The Google connection has no refresh token; connect again', null);
    let answer: TokenAnswer;
    try {
      answer = await requestTokens('Google token refresh', {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      });
    } catch (error) {
      if (error instanceof GoogleError && error.status === 400 && error.message.includes('invalid_grant')) {
        await recordSyncError(this.db, this.connection.id, REVOKED_MESSAGE).catch(() => {});
        throw new GoogleError(REVOKED_MESSAGE, 400);
      }
      throw error;
    }
    const accountId = this.connection.account_id;
    const tokens = {
      accessTokenEnc: encryptSecret(answer.access_token, accessContext(accountId)),
      expiresAt: expiryOf(answer.expires_in),
      // Google may rotate the refresh token; the new one replaces the old.
      refreshTokenEnc: answer.refresh_token ? encryptSecret(answer.refresh_token, refreshContext(accountId)) : null,
    };
    await storeAccessToken(this.db, this.connection.id, tokens);
    this.connection.access_token_enc = tokens.accessTokenEnc;
    this.connection.token_expires_at = tokens.expiresAt;
    if (tokens.refreshTokenEnc) this.connection.refresh_token_enc = tokens.refreshTokenEnc;
    this.token = answer.access_token;
    return this.token;
  }

  /** One API request; a 401 refreshes the access token once and repeats the request. */
  async request(label: string, method: string, path: string, body?: unknown): Promise<Response> {
    const attempt = (token: string) =>
      send(label, `${googleApiBase()}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const response = await attempt(await this.accessToken());
    if (response.status !== 401) return response;
    await response.body?.cancel();
    this.token = null;
    return attempt(await this.refresh());
  }
}

const calendarPath = (calendarId: string) => `/calendar/v3/calendars/${encodeURIComponent(calendarId)}`;

type GoogleEvent = {
  id?: string;
  hangoutLink?: string;
  conferenceData?: { entryPoints?: { entryPointType?: string; uri?: string }[] };
};

function meetLinkOf(event: GoogleEvent): string | null {
  const link =
    event.hangoutLink ?? event.conferenceData?.entryPoints?.find((entry) => entry.entryPointType === 'video')?.uri;
  return typeof link === 'string' && /^https:\/\/\S+$/.test(link) ? link : null;
}

async function loadConnection(db: Sql, accountId: string): Promise<ConnectionRow> {
  const connection = await getGoogleConnection(db, accountId);
  if (!connection) throw new GoogleError('The host has no Google connection any more', null);
  return connection;
}

/** events.insert with the guest invited by Google (sendUpdates=all) and, when asked, a Meet conference. */
export async function insertGoogleEvent(
  db: Sql,
  connection: ConnectionRow,
  request: EventRequest,
): Promise<CreatedEvent> {
  const session = new GoogleSession(db, connection);
  const calendarId = connection.calendar_id ?? 'primary';
  // Our own id (base32hex, 128 random bits): after an answer that never came, the event can still be deleted.
  const eventId = randomBytes(16).toString('hex');
  const body = {
    id: eventId,
    summary: request.title,
    start: { dateTime: request.start.toISOString(), timeZone: 'UTC' },
    end: { dateTime: request.end.toISOString(), timeZone: 'UTC' },
    attendees: [{ email: request.guest.email, displayName: request.guest.name }],
    extendedProperties: { private: { bookingId: request.bookingId } },
    ...(request.withMeetLink
      ? {
          conferenceData: {
            createRequest: { requestId: request.bookingId, conferenceSolutionKey: { type: 'hangoutsMeet' } },
          },
        }
      : {}),
  };
  const path = `${calendarPath(calendarId)}/events?conferenceDataVersion=1&sendUpdates=all`;
  let response: Response;
  try {
    response = await session.request('Google events.insert', 'POST', path, body);
  } catch (error) {
    // No answer (network, timeout): Google may still have created the event.
    if (error instanceof GoogleError && error.status === null) await removeQuietly(session, calendarId, eventId);
    throw error;
  }
  if (!response.ok) {
    const error = await failure('Google events.insert', response);
    if (response.status >= 500) await removeQuietly(session, calendarId, eventId);
    throw error;
  }
  const created = await readJson<GoogleEvent>('Google events.insert', response);
  const id = typeof created.id === 'string' && created.id !== '' ? created.id : eventId;
  const meetLink = request.withMeetLink ? meetLinkOf(created) : null;
  try {
    await recordGoogleEvent(db, {
      accountId: request.accountId,
      connectionId: connection.id,
      bookingId: request.bookingId,
      eventId: id,
      calendarId,
      title: request.title,
      start: request.start,
      end: request.end,
      meetLink,
    });
  } catch (error) {
    // Unrecorded, the event could never be cancelled through the service: take it back.
    await removeQuietly(session, calendarId, id);
    throw error;
  }
  return { eventId: id, calendarId, meetLink };
}

/** Best-effort clean-up after a failed insert (a 404 means there was nothing to remove). */
async function removeQuietly(session: GoogleSession, calendarId: string, eventId: string): Promise<void> {
  try {
    const path = `${calendarPath(calendarId)}/events/${encodeURIComponent(eventId)}?sendUpdates=all`;
    const response = await session.request('Google events.delete', 'DELETE', path);
    await response.body?.cancel();
  } catch {
    // The original error is the one to report.
  }
}

/** events.delete, Google notifying the guest; an event already gone (404, 410) counts as deleted. */
export async function deleteGoogleEvent(db: Sql, accountId: string, eventId: string): Promise<void> {
  const connection = await loadConnection(db, accountId);
  const calendarId = (await getGoogleEventCalendar(db, accountId, eventId)) ?? connection.calendar_id ?? 'primary';
  const session = new GoogleSession(db, connection);
  const path = `${calendarPath(calendarId)}/events/${encodeURIComponent(eventId)}?sendUpdates=all`;
  const response = await session.request('Google events.delete', 'DELETE', path);
  if (!response.ok && response.status !== 404 && response.status !== 410) {
    throw await failure('Google events.delete', response);
  }
  await response.body?.cancel();
  await markGoogleEventCancelled(db, accountId, eventId);
}

/** Busy intervals of the connection's calendar in [from, to), from freeBusy (in chunks Google accepts). */
export async function googleBusy(db: Sql, connection: ConnectionRow, from: Date, to: Date): Promise<Interval[]> {
  const session = new GoogleSession(db, connection);
  const calendarId = connection.calendar_id ?? 'primary';
  const busy: Interval[] = [];
  for (let chunkStart = from.getTime(); chunkStart < to.getTime(); chunkStart += FREE_BUSY_CHUNK_MS) {
    const chunkEnd = Math.min(chunkStart + FREE_BUSY_CHUNK_MS, to.getTime());
    const response = await session.request('Google freeBusy', 'POST', '/calendar/v3/freeBusy', {
      timeMin: new Date(chunkStart).toISOString(),
      timeMax: new Date(chunkEnd).toISOString(),
      items: [{ id: calendarId }],
    });
    if (!response.ok) throw await failure('Google freeBusy', response);
    const body = await readJson<{
      calendars?: Record<string, { busy?: { start?: string; end?: string }[]; errors?: { reason?: string }[] }>;
    }>('Google freeBusy', response);
    const calendars = Object.values(body.calendars ?? {});
    const entry = body.calendars?.[calendarId] ?? (calendars.length === 1 ? calendars[0] : undefined);
    if (!entry) throw new GoogleError('Google freeBusy: the calendar is missing from the answer', response.status);
    const problem = entry.errors?.[0]?.reason;
    if (problem) {
      throw new GoogleError(
        `Google freeBusy: ${String(problem)
          .replace(/[^A-Za-z0-9_.-]/g, '')
          .slice(0, 60)}`,
        null,
      );
    }
    for (const block of entry.busy ?? []) {
      const start = Date.parse(block.start ?? '');
      const end = Date.parse(block.end ?? '');
      if (Number.isFinite(start) && Number.isFinite(end) && end > start) {
        busy.push({ start: new Date(start), end: new Date(end) });
      }
    }
  }
  return busy;
}

/**
 * The provider of a host with a Google connection. `afterDelete` runs once an event is gone (the caller uses it to
 * re-sync busy time, since freeBusy counted the service's own event as busy).
 */
export function googleProvider(
  hooks: { afterDelete?: (db: Sql, accountId: string) => Promise<void> } = {},
): CalendarProvider {
  return {
    name: 'google',
    async createEvent(db, request) {
      return insertGoogleEvent(db, await loadConnection(db, request.accountId), request);
    },
    async deleteEvent(db, accountId, eventId) {
      await deleteGoogleEvent(db, accountId, eventId);
      if (hooks.afterDelete) {
        await hooks.afterDelete(db, accountId).catch((error: Error) => {
          console.error(`[calendar] busy re-sync after a cancellation failed: ${error.message}`);
        });
      }
    },
  };
}
