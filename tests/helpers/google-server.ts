// A local stand-in for the few Google endpoints the calendar provider uses: the OAuth token endpoint
// (authorization_code and refresh_token grants), events.insert, events.delete and freeBusy. Point the provider at it
// with GOOGLE_API_BASE_URL and GOOGLE_OAUTH_BASE_URL. It checks bearer tokens like Google (401 for an unknown or
// revoked one), records every request, and has switches for the failures the tests need.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { freePort } from './server';

export type GoogleRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON, or the form fields of the token endpoint. */
  body: Record<string, unknown>;
};

export type GoogleEventRecord = {
  calendarId: string;
  id: string;
  body: Record<string, unknown>;
  deleted: boolean;
  meetLink: string | null;
};

export type GoogleStandIn = {
  url: string;
  requests: GoogleRequest[];
  events: Map<string, GoogleEventRecord>;
  /** Access tokens currently accepted. */
  accessTokens: Set<string>;
  refreshTokens: Set<string>;
  /** An authorization code the token endpoint exchanges (once) for a fresh token pair. */
  issueCode(options?: { scope?: string; withRefreshToken?: boolean }): string;
  /** A token pair as if a connection had been made earlier. */
  issueTokens(): { accessToken: string; refreshToken: string };
  /** Busy blocks freeBusy reports for a calendar (clipped to the query's window, like Google). */
  setBusy(calendarId: string, busy: { start: string; end: string }[]): void;
  /** The next events.insert answers with this status (default 500) without creating anything. */
  failNextInsert(status?: number): void;
  /** The next API request (any endpoint but the token one) answers 401 and its access token stops working. */
  unauthorizedOnce(): void;
  /** Every refresh token stops working (the user revoked access): refreshes answer 400 invalid_grant. */
  revokeRefreshTokens(): void;
  /** The next freeBusy answers with this status. */
  failNextFreeBusy(status?: number): void;
  count(method: string, pathPrefix: string): number;
  close(): Promise<void>;
};

const SCOPES = 'https://www.googleapis.com/auth/calendar.events https://www.googleapis.com/auth/calendar.freebusy';

export async function startGoogleStandIn(): Promise<GoogleStandIn> {
  const requests: GoogleRequest[] = [];
  const events = new Map<string, GoogleEventRecord>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const codes = new Map<string, { scope: string; withRefreshToken: boolean }>();
  const busyByCalendar = new Map<string, { start: string; end: string }[]>();
  let failInsert: number | null = null;
  let failFreeBusy: number | null = null;
  let unauthorized = false;
  let counter = 0;

  const newAccessToken = () => {
    const token = `ya29.fake-access-${++counter}-${randomUUID()}`;
    accessTokens.add(token);
    return token;
  };
  const newRefreshToken = () => {
    const token = `1//fake-refresh-${++counter}-${randomUUID()}`;
    refreshTokens.add(token);
    return token;
  };

  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://localhost');
    const isForm = String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    let body: Record<string, unknown> = {};
    try {
      body = isForm ? Object.fromEntries(new URLSearchParams(raw)) : raw ? JSON.parse(raw) : {};
    } catch {
      body = { unparsed: raw };
    }
    requests.push({
      method: request.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      body,
    });
    const send = (status: number, value?: unknown) => {
      response.statusCode = status;
      if (value === undefined) return response.end();
      response.setHeader('content-type', 'application/json; charset=utf-8');
      response.end(JSON.stringify(value));
    };
    const apiError = (status: number, reason: string) =>
      send(status, { error: { code: status, message: reason, errors: [{ reason }], status: reason.toUpperCase() } });

    if (request.method === 'POST' && url.pathname === '/token') {
      if (body.client_id !== 'test-client-id' || body.client_secret !== 'test-client-secret') {
        return send(401, { error: 'invalid_client' });
      }
      if (body.grant_type === 'authorization_code') {
        const code = codes.get(String(body.code));
        if (!code) return send(400, { error: 'invalid_grant', error_description: 'Malformed auth code.' });
        codes.delete(String(body.code));
        return send(200, {
          access_token: newAccessToken(),
          expires_in: 3599,
          ...(code.withRefreshToken ? { refresh_token: newRefreshToken() } : {}),
          scope: code.scope,
          token_type: 'Bearer',
        });
      }
      if (body.grant_type === 'refresh_token') {
        if (!refreshTokens.has(String(body.refresh_token))) {
          return send(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
        }
        return send(200, { access_token: newAccessToken(), expires_in: 3599, scope: SCOPES, token_type: 'Bearer' });
      }
      return send(400, { error: 'unsupported_grant_type' });
    }

    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    if (!bearer || !accessTokens.has(bearer)) return apiError(401, 'authError');
    if (unauthorized) {
      unauthorized = false;
      accessTokens.delete(bearer);
      return apiError(401, 'authError');
    }

    const eventPath = /^\/calendar\/v3\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/.exec(url.pathname);
    if (eventPath && request.method === 'POST' && !eventPath[2]) {
      const calendarId = decodeURIComponent(eventPath[1] as string);
      if (failInsert !== null) {
        const status = failInsert;
        failInsert = null;
        return apiError(status, status >= 500 ? 'backendError' : 'invalid');
      }
      const id = typeof body.id === 'string' ? body.id : randomUUID().replaceAll('-', '');
      if (events.has(id)) return apiError(409, 'duplicate');
      const wantsMeet =
        url.searchParams.get('conferenceDataVersion') === '1' &&
        (body.conferenceData as { createRequest?: unknown } | undefined)?.createRequest !== undefined;
      const meetLink = wantsMeet ? `https://meet.google.com/fak-${String(++counter).padStart(4, '0')}-xyz` : null;
      events.set(id, { calendarId, id, body, deleted: false, meetLink });
      return send(200, {
        kind: 'calendar#event',
        id,
        status: 'confirmed',
        htmlLink: `https://www.google.com/calendar/event?eid=${id}`,
        summary: body.summary,
        start: body.start,
        end: body.end,
        attendees: body.attendees,
        organizer: { email: 'host@example.com', self: true },
        ...(meetLink
          ? {
              hangoutLink: meetLink,
              conferenceData: {
                createRequest: {
                  ...((body.conferenceData as { createRequest: object }).createRequest ?? {}),
                  status: { statusCode: 'success' },
                },
                entryPoints: [{ entryPointType: 'video', uri: meetLink, label: meetLink.slice(8) }],
                conferenceSolution: { key: { type: 'hangoutsMeet' }, name: 'Google Meet' },
              },
            }
          : {}),
      });
    }
    if (eventPath?.[2] && request.method === 'DELETE') {
      const event = events.get(decodeURIComponent(eventPath[2]));
      if (!event) return apiError(404, 'notFound');
      if (event.deleted) return apiError(410, 'deleted');
      event.deleted = true;
      return send(204);
    }
    if (request.method === 'POST' && url.pathname === '/calendar/v3/freeBusy') {
      if (failFreeBusy !== null) {
        const status = failFreeBusy;
        failFreeBusy = null;
        return apiError(status, 'backendError');
      }
      const timeMin = Date.parse(String(body.timeMin));
      const timeMax = Date.parse(String(body.timeMax));
      if (!(timeMax > timeMin) || timeMax - timeMin > 90 * 86_400_000) return apiError(400, 'timeRangeTooLong');
      const calendars: Record<string, unknown> = {};
      for (const item of (body.items as { id: string }[] | undefined) ?? []) {
        const busy = (busyByCalendar.get(item.id) ?? [])
          .map((block) => ({
            start: Math.max(Date.parse(block.start), timeMin),
            end: Math.min(Date.parse(block.end), timeMax),
          }))
          .filter((block) => block.end > block.start)
          .map((block) => ({ start: new Date(block.start).toISOString(), end: new Date(block.end).toISOString() }));
        calendars[item.id] = { busy };
      }
      return send(200, { kind: 'calendar#freeBusy', timeMin: body.timeMin, timeMax: body.timeMax, calendars });
    }
    return apiError(404, 'notFound');
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    events,
    accessTokens,
    refreshTokens,
    issueCode(options = {}) {
      const code = `4/fake-code-${randomUUID()}`;
      codes.set(code, { scope: options.scope ?? SCOPES, withRefreshToken: options.withRefreshToken ?? true });
      return code;
    },
    issueTokens() {
      return { accessToken: newAccessToken(), refreshToken: newRefreshToken() };
    },
    setBusy(calendarId, busy) {
      busyByCalendar.set(calendarId, busy);
    },
    failNextInsert(status = 500) {
      failInsert = status;
    },
    unauthorizedOnce() {
      unauthorized = true;
    },
    revokeRefreshTokens() {
      refreshTokens.clear();
    },
    failNextFreeBusy(status = 500) {
      failFreeBusy = status;
    },
    count(method, pathPrefix) {
      return requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix)).length;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Environment that points the service at a stand-in (client credentials match what it accepts). */
export function googleEnv(standIn: GoogleStandIn, encryptionKey: string): Record<string, string> {
  return {
    GOOGLE_CLIENT_ID: 'test-client-id',
    GOOGLE_CLIENT_SECRET: 'test-client-secret',
    GOOGLE_API_BASE_URL: standIn.url,
    GOOGLE_OAUTH_BASE_URL: standIn.url,
    GOOGLE_AUTH_URL: `${standIn.url}/o/oauth2/v2/auth`,
    TOKEN_ENCRYPTION_KEY: encryptionKey,
  };
}
