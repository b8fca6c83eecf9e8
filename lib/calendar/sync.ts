// Busy-time sync: each calendar connection's busy intervals over the next SYNC_HORIZON_DAYS become calendar_events
// rows (kind 'busy'), which block slots (lib/slots/queries.ts loadBusy). A sync replaces one connection's rows in one
// transaction; a failed one keeps the previous rows and records why on the connection.
import { getProfileById } from '../accounts/queries';
import type { Db, Sql } from '../db/client';
import type { Interval } from '../slots/slots';
import { DAY_MS } from '../slots/time';
import { googleConfigured, REQUEST_TIMEOUT_MS, syncHorizonDays, syncIntervalMs } from './config';
import { masterKey } from './encryption';
import { googleBusy } from './google';
import { parseBusy } from './ical-parse';
import { recordSyncError, replaceBusy } from './mutations';
import { type ConnectionRow, getConnection, listConnections } from './queries';

export const MAX_FEED_BYTES = 2 * 1024 * 1024;
/** More busy blocks than this in the horizon is a broken or hostile feed, not a calendar. */
export const MAX_BUSY_ROWS = 10_000;

export type SyncResult = {
  connection_id: string;
  account_id: string;
  provider: 'google' | 'ical';
  /** The Google calendar id, or the feed's host (a feed URL is often a secret, so its path is never shown). */
  source: string;
  ok: boolean;
  /** Busy blocks stored; null when the sync failed (the previous rows stay). */
  busy: number | null;
  error: string | null;
  notes: string[];
};

export class FeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedError';
  }
}

/** Sorted, with overlapping and touching intervals joined. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start.getTime() - b.start.getTime());
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (last && interval.start.getTime() <= last.end.getTime()) {
      if (interval.end.getTime() > last.end.getTime()) last.end = interval.end;
    } else {
      merged.push({ start: interval.start, end: interval.end });
    }
  }
  return merged;
}

/** A feed URL as stored: http or https (webcal:// is https), at most 2,000 characters. */
export function normalizeFeedUrl(input: string): string {
  const text = input.trim().replace(/^webcals?:\/\//i, 'https://');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FeedError('the feed URL is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FeedError('the feed URL must start with http://, https:// or webcal://');
  }
  if (url.href.length > 2000) throw new FeedError('the feed URL is longer than 2,000 characters');
  return url.href;
}

const feedHost = (feedUrl: string | null) => {
  try {
    return new URL(feedUrl ?? '').host;
  } catch {
    return 'invalid URL';
  }
};

/** GET the feed with a timeout and a size cap. Errors name the failure, never the URL. */
export async function fetchFeed(feedUrl: string): Promise<string> {
  const url = normalizeFeedUrl(feedUrl);
  const failed = (error: unknown) => {
    if (error instanceof FeedError) return error;
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      return new FeedError(`the feed did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`);
    }
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    return new FeedError(
      `the feed cannot be reached (${typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? code : 'network error'})`,
    );
  };
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      headers: { accept: 'text/calendar, text/plain;q=0.9, */*;q=0.5', 'user-agent': 'booking-service calendar sync' },
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new FeedError(`the feed answered HTTP ${response.status}`);
    }
    const tooLarge = new FeedError(`the feed is larger than ${MAX_FEED_BYTES / 1024 / 1024} MB`);
    if (Number(response.headers.get('content-length') ?? 0) > MAX_FEED_BYTES) {
      await response.body?.cancel();
      throw tooLarge;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    for (;;) {
      const part = reader ? await reader.read() : { done: true as const, value: undefined };
      if (part.done) break;
      size += part.value.byteLength;
      if (size > MAX_FEED_BYTES) {
        await reader?.cancel();
        throw tooLarge;
      }
      chunks.push(part.value);
    }
    const text = new TextDecoder('utf-8').decode(Buffer.concat(chunks));
    if (!/BEGIN:VCALENDAR/i.test(text)) throw new FeedError('the feed is not an iCalendar file (no BEGIN:VCALENDAR)');
    return text;
  } catch (error) {
    throw failed(error);
  }
}

async function busyOf(
  db: Sql,
  connection: ConnectionRow,
  from: Date,
  to: Date,
): Promise<{ busy: Interval[]; notes: string[] }> {
  if (connection.provider === 'google') {
    if (!googleConfigured()) {
      throw new Error('Google Calendar is not configured on this server (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET)');
    }
    return { busy: await googleBusy(db, connection, from, to), notes: [] };
  }
  const timezone = (await getProfileById(db, connection.account_id))?.timezone ?? 'UTC';
  const text = await fetchFeed(connection.feed_url ?? '');
  return parseBusy(text, { timezone, from, to });
}

// Our errors are written to carry no secrets; any other error is cut to the first line of its message.
function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  return (error.message.split('\n')[0] ?? error.name).slice(0, 500);
}

/** Syncs one connection now: busy time from `now` to now + SYNC_HORIZON_DAYS. Never throws for a sync failure. */
export async function syncConnection(db: Sql, connectionId: string, now = new Date()): Promise<SyncResult> {
  const connection = await getConnection(db, connectionId);
  if (!connection) throw new Error(`no calendar connection ${connectionId}`);
  const result: SyncResult = {
    connection_id: connection.id,
    account_id: connection.account_id,
    provider: connection.provider,
    source: connection.provider === 'google' ? (connection.calendar_id ?? 'primary') : feedHost(connection.feed_url),
    ok: false,
    busy: null,
    error: null,
    notes: [],
  };
  try {
    const to = new Date(now.getTime() + syncHorizonDays() * DAY_MS);
    const { busy, notes } = await busyOf(db, connection, now, to);
    const merged = mergeIntervals(busy);
    if (merged.length > MAX_BUSY_ROWS) {
      throw new FeedError(`more than ${MAX_BUSY_ROWS} busy blocks in the sync horizon`);
    }
    await replaceBusy(db, connection, merged);
    return { ...result, ok: true, busy: merged.length, notes };
  } catch (error) {
    const message = messageOf(error);
    await recordSyncError(db, connection.id, message).catch(() => {});
    return { ...result, error: message };
  }
}

/** syncBusy: every connection of one host. */
export async function syncBusy(db: Sql, accountId: string, now = new Date()): Promise<SyncResult[]> {
  const results: SyncResult[] = [];
  for (const connection of await listConnections(db, { accountId })) {
    results.push(await syncConnection(db, connection.id, now));
  }
  return results;
}

/** Every connection (or those not synced since `staleBefore`), a few at a time. */
export async function syncAll(
  db: Sql,
  now = new Date(),
  options: { staleBefore?: Date; concurrency?: number } = {},
): Promise<SyncResult[]> {
  const connections = await listConnections(db, { staleBefore: options.staleBefore });
  const results: SyncResult[] = [];
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < connections.length; index = next++) {
      results[index] = await syncConnection(db, (connections[index] as ConnectionRow).id, now);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, connections.length) }, worker));
  return results;
}

const globalKey = Symbol.for('booking-service.calendar-sync');
type Timers = { first: NodeJS.Timeout; every: NodeJS.Timeout; running: Promise<void> | null };
type GlobalWithSync = typeof globalThis & { [globalKey]?: Timers };

/**
 * Runs syncAll in the server process every CALENDAR_SYNC_INTERVAL_MS (default 10 min; 0 turns it off), first a few
 * seconds after start. Kept on globalThis so that it starts once per process; the timers never keep it alive.
 * Several app instances share the work: a connection synced successfully within half an interval is skipped.
 */
export function startCalendarSync(db: Db): void {
  const g = globalThis as GlobalWithSync;
  const interval = syncIntervalMs();
  if (g[globalKey] || interval <= 0) return;
  if (googleConfigured()) {
    try {
      masterKey();
    } catch (error) {
      console.error(`[calendar] ${(error as Error).message}`);
    }
  }
  const sync = async () => {
    try {
      const results = await syncAll(db, new Date(), { staleBefore: new Date(Date.now() - interval / 2) });
      for (const result of results) {
        if (!result.ok) console.error(`[calendar] sync of connection ${result.connection_id} failed: ${result.error}`);
      }
    } catch (error) {
      console.error(`[calendar] sync: ${messageOf(error)}`);
    }
  };
  const tick = () => {
    if (timers.running) return;
    timers.running = sync().finally(() => {
      timers.running = null;
    });
  };
  const timers: Timers = {
    first: setTimeout(tick, Math.min(interval, 5_000)),
    every: setInterval(tick, interval),
    running: null,
  };
  timers.first.unref();
  timers.every.unref();
  g[globalKey] = timers;
  console.log(`[calendar] busy-time sync every ${Math.round(interval / 1000)} s`);
}

/** Stops the periodic sync of this process (tests, shutdown); resolves once a sync under way has finished. */
export async function stopCalendarSync(): Promise<void> {
  const g = globalThis as GlobalWithSync;
  const timers = g[globalKey];
  g[globalKey] = undefined;
  if (!timers) return;
  clearTimeout(timers.first);
  clearInterval(timers.every);
  await timers.running;
}
