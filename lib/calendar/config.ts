// Environment of the calendar side effects. Read on every call (not at import), so tests and the CLI can set them.

/** Every outgoing calendar request (Google, iCalendar feeds) gives up after this long. */
export const REQUEST_TIMEOUT_MS = 10_000;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Public origin of the app, for links the service hands out (OAuth redirect, feed URLs). */
export function appUrl(): string {
  return trimSlash(process.env.APP_URL || 'http://localhost:3000');
}

export type GoogleClient = { clientId: string; clientSecret: string };

/** The OAuth client of the deployment; null (Google off, local provider everywhere) unless both are set. */
export function googleClient(): GoogleClient | null {
  const clientId = process.env.GOOGLE_CLIENT_ID?.trim();
  const clientSecret = process.env.GOOGLE_CLIENT_SECRET?.trim();
  return clientId && clientSecret ? { clientId, clientSecret } : null;
}

export function googleConfigured(): boolean {
  return googleClient() !== null;
}

export function googleApiBase(): string {
  return trimSlash(process.env.GOOGLE_API_BASE_URL || 'https://www.googleapis.com');
}

export function googleOAuthBase(): string {
  return trimSlash(process.env.GOOGLE_OAUTH_BASE_URL || 'https://oauth2.googleapis.com');
}

export function googleAuthUrl(): string {
  return process.env.GOOGLE_AUTH_URL || 'https://accounts.google.com/o/oauth2/v2/auth';
}

/** The calendar new connections write to and read busy time from. */
export function googleCalendarId(): string {
  return process.env.GOOGLE_CALENDAR_ID?.trim() || 'primary';
}

export function googleRedirectUri(): string {
  return `${appUrl()}/api/calendar/google/callback`;
}

/** How far ahead busy time is synced (days); slots further out ignore external calendars. */
export function syncHorizonDays(): number {
  const raw = process.env.SYNC_HORIZON_DAYS;
  if (raw === undefined || raw.trim() === '') return 90;
  const days = Number(raw);
  if (!Number.isInteger(days) || days < 1 || days > 3650) {
    throw new Error('SYNC_HORIZON_DAYS must be a whole number of days between 1 and 3650');
  }
  return days;
}

/** Period of the in-process busy-time sync; 0 turns it off. */
export function syncIntervalMs(): number {
  const raw = process.env.CALENDAR_SYNC_INTERVAL_MS;
  if (raw === undefined || raw.trim() === '') return 10 * 60_000;
  const ms = Number(raw);
  return Number.isFinite(ms) && ms > 0 ? Math.max(ms, 1000) : 0;
}
