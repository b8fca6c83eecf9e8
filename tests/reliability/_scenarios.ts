// Load scenarios shared by the reliability tests and scripts/soak.ts: a booking race over several app instances, and
// a light booking load through a database outage. Each returns what happened; the callers assert or summarise.
import { prng } from '../../bench/harness';
import { apiDocument } from '../helpers/fixtures';
import type { Instance, PreparedDatabase } from './_instance';
import { HALF_WRITTEN_SQL, type HalfWritten, OVERLAPS_SQL, sleep } from './_instance';

export const SLOT_TAKEN = 'This time slot is no longer available. Please pick another.';
export const UNEXPECTED = 'An unexpected error occurred';
const MINUTE_MS = 60_000;

/**
 * The HTTP tests' document (hosts ada and bob) with `count` more secret keys for ada, named `${prefix}-0` ...: load
 * spread over them in turn stays under the spec's 300 requests per key per minute.
 */
export function apiDocumentWithKeys(prefix: string, count: number) {
  const document = apiDocument();
  const ada = document.hosts[0] as unknown as { username: string; api_keys: { name: string; type: string }[] };
  if (ada.username !== 'ada') throw new Error('apiDocument() changed: ada is not the first host');
  for (let i = 0; i < count; i++) ada.api_keys.push({ name: `${prefix}-${i}`, type: 'secret' });
  return document;
}

export type Answer = {
  status: number;
  /** Parsed JSON body, or undefined when the body was not JSON. */
  body: unknown;
  text: string;
  contentType: string;
  headers: Headers;
  ms: number;
};

/** One request with a hard timeout; a network error or a timeout is returned as status 0 with the error text. */
export function request(
  url: string,
  init: { method: string; key?: string; json?: unknown; timeoutMs?: number },
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  return fetchAnswer(url, { method: init.method, headers, body }, init.timeoutMs);
}

/** `fetch` with a hard timeout, as an Answer; a network error or a timeout is status 0 with the error text. */
export async function fetchAnswer(url: string, init: RequestInit, timeoutMs = 15_000): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return {
      status: response.status,
      body,
      text,
      contentType: response.headers.get('content-type') ?? '',
      headers: response.headers,
      ms: performance.now() - started,
    };
  } catch (error) {
    const text = `${(error as Error).name}: ${(error as Error).message}`;
    return {
      status: 0,
      body: undefined,
      text,
      contentType: '',
      headers: new Headers(),
      ms: performance.now() - started,
    };
  }
}

/** The spec's error shape: JSON, exactly `{ "error": string }`. */
export function isErrorBody(answer: Answer): boolean {
  const body = answer.body as Record<string, unknown> | undefined;
  return (
    /^application\/json/.test(answer.contentType) &&
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    Object.keys(body).length === 1 &&
    typeof body.error === 'string'
  );
}

/** Runs task(i) for i < count with at most `concurrency` in flight. */
export async function pool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

// ---------------------------------------------------------------------------------------------------------------
// Booking race

export type RaceOptions = {
  servers: Instance[];
  /** Secret keys, used in turn (each allows 300 requests a minute). */
  keys: string[];
  pageId: string;
  requests: number;
  concurrency: number;
  /** Start of the contested window (ms); the race books inside [base, base + windowMinutes). */
  baseMs: number;
  windowMinutes: number;
  seed: number;
  /** Marks the guest emails of this race, for the SQL checks. */
  tag: string;
};

export type RaceResult = {
  statuses: Record<string, number>;
  /** Answers that are not a 201 booking or the spec's 409. */
  unexpected: string[];
  createdIds: string[];
  seconds: number;
};

/**
 * Many clients book overlapping intervals of one host (secret key: any free time is accepted), spread round-robin
 * over the servers: starts on a 15-minute grid of the window, lengths 15 to 120 minutes.
 */
export async function bookingRace(options: RaceOptions): Promise<RaceResult> {
  const random = prng(options.seed);
  const lengths = [15, 30, 45, 60, 90, 120];
  const plan = Array.from({ length: options.requests }, () => {
    const start = options.baseMs + Math.floor(random() * (options.windowMinutes / 15)) * 15 * MINUTE_MS;
    const minutes = lengths[Math.floor(random() * lengths.length)] as number;
    return { start, end: start + minutes * MINUTE_MS };
  });
  const statuses: Record<string, number> = {};
  const unexpected: string[] = [];
  const createdIds: string[] = [];
  const started = performance.now();
  await pool(plan.length, options.concurrency, async (i) => {
    const slot = plan[i] as { start: number; end: number };
    const server = options.servers[i % options.servers.length] as Instance;
    const answer = await request(`${server.api}/bookings`, {
      method: 'POST',
      key: options.keys[i % options.keys.length] as string,
      json: {
        bookingPageId: options.pageId,
        guestName: `Racer ${i}`,
        guestEmail: `${options.tag}-${i}@example.com`,
        startTime: new Date(slot.start).toISOString(),
        endTime: new Date(slot.end).toISOString(),
      },
    });
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    const data = (answer.body as { data?: { id?: string; status?: string } } | undefined)?.data;
    if (answer.status === 201 && typeof data?.id === 'string' && data.status === 'confirmed') {
      createdIds.push(data.id);
    } else if (
      !(answer.status === 409 && isErrorBody(answer) && (answer.body as { error: string }).error === SLOT_TAKEN)
    ) {
      unexpected.push(`#${i} via ${server.origin}: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
  });
  return { statuses, unexpected, createdIds, seconds: (performance.now() - started) / 1000 };
}

export type RaceCheck = { overlaps: number; rows: number; missing: number };

/** After a race: overlapping pending/confirmed pairs (must be 0), rows of the race, 201 ids not in the database. */
export async function checkRace(
  sql: NonNullable<PreparedDatabase['sql']>,
  tag: string,
  createdIds: string[],
): Promise<RaceCheck> {
  const [overlaps] = await sql<{ n: number }>(OVERLAPS_SQL);
  const [rows] = await sql<{ n: number }>(`select count(*)::int as n from bookings where guest_email like $1`, [
    `${tag}-%`,
  ]);
  const [missing] = await sql<{ n: number }>(
    `select count(*)::int as n from unnest($1::uuid[]) as t(id)
     where not exists (select 1 from bookings b where b.id = t.id and b.status = 'confirmed')`,
    [createdIds],
  );
  return { overlaps: overlaps?.n ?? -1, rows: rows?.n ?? -1, missing: missing?.n ?? -1 };
}

// ---------------------------------------------------------------------------------------------------------------
// Load through an outage

export type OutageOptions = {
  server: Instance;
  /** Secret keys, used in turn (each allows 300 requests a minute). */
  keys: string[];
  pageId: string;
  slug: string;
  /** Concurrent clients; each sends one request, then pauses `pauseMs`. */
  clients: number;
  pauseMs: number;
  /** Load before the disruption. */
  beforeMs: number;
  /** Cuts the database off (terminate the app's connections, or restart Postgres); resolves when done. */
  disrupt: () => Promise<void>;
  /** After the disruption: how long to wait for a first successful booking, then how long to keep loading. */
  recoverWithinMs: number;
  afterMs: number;
  /** First booking start (ms); every request books the next 30 minutes, so no two ever collide. */
  baseMs: number;
  tag: string;
  requestTimeoutMs: number;
};

export type Outcome = { phase: 'before' | 'during' | 'after'; op: string; answer: Answer };

export type OutageResult = {
  outcomes: Outcome[];
  /** ms from the end of the disruption to the first 201; null when none came within recoverWithinMs. */
  recoveredAfterMs: number | null;
  disruptMs: number;
  createdIds: string[];
};

/** The spec's 500 message of each operation of the load (README: 500 messages). */
export const FAILURE_MESSAGES: Record<string, string[]> = {
  createBooking: [UNEXPECTED, 'Failed to create meeting'],
  listBookings: ['Failed to fetch bookings'],
  getBookingPage: [UNEXPECTED],
};

/**
 * Light mixed load (createBooking with distinct times, listBookings, getBookingPage) before, during and after a
 * disruption of the database. "during" runs from the start of the disruption until the first 201 after it.
 */
export async function loadThroughOutage(options: OutageOptions): Promise<OutageResult> {
  const outcomes: Outcome[] = [];
  const createdIds: string[] = [];
  let phase: Outcome['phase'] = 'before';
  let stop = false;
  let seq = 0;
  let firstSuccessAt: number | null = null;
  let disruptEndedAt = 0;

  const one = async () => {
    const i = seq++;
    const key = options.keys[i % options.keys.length] as string;
    const kind = i % 4;
    const at = phase;
    let op: string;
    let answer: Answer;
    if (kind === 1) {
      op = 'listBookings';
      answer = await request(`${options.server.api}/bookings?limit=5`, {
        method: 'GET',
        key,
        timeoutMs: options.requestTimeoutMs,
      });
    } else if (kind === 3) {
      op = 'getBookingPage';
      answer = await request(`${options.server.api}/booking-pages/${options.slug}`, {
        method: 'GET',
        key,
        timeoutMs: options.requestTimeoutMs,
      });
    } else {
      op = 'createBooking';
      const start = options.baseMs + i * 30 * MINUTE_MS;
      answer = await request(`${options.server.api}/bookings`, {
        method: 'POST',
        key,
        json: {
          bookingPageId: options.pageId,
          guestName: `Outage guest ${i}`,
          guestEmail: `${options.tag}-${i}@example.com`,
          startTime: new Date(start).toISOString(),
          endTime: new Date(start + 30 * MINUTE_MS).toISOString(),
        },
        timeoutMs: options.requestTimeoutMs,
      });
      const id = (answer.body as { data?: { id?: string } } | undefined)?.data?.id;
      if (answer.status === 201 && id) {
        createdIds.push(id);
        if (at !== 'before' && disruptEndedAt > 0 && firstSuccessAt === null) firstSuccessAt = Date.now();
      }
    }
    outcomes.push({ phase: at, op, answer });
  };

  const clients = Array.from({ length: options.clients }, async () => {
    while (!stop) {
      await one();
      await sleep(options.pauseMs);
    }
  });

  await sleep(options.beforeMs);
  phase = 'during';
  const disruptStarted = Date.now();
  try {
    await options.disrupt();
  } finally {
    disruptEndedAt = Date.now();
  }
  const deadline = disruptEndedAt + options.recoverWithinMs;
  while (firstSuccessAt === null && Date.now() < deadline) await sleep(50);
  if (firstSuccessAt !== null) {
    phase = 'after';
    await sleep(options.afterMs);
  }
  stop = true;
  await Promise.all(clients);
  return {
    outcomes,
    recoveredAfterMs: firstSuccessAt === null ? null : Math.max(0, firstSuccessAt - disruptEndedAt),
    disruptMs: disruptEndedAt - disruptStarted,
    createdIds,
  };
}

/** Answers that break the rules of an outage: anything but 2xx or the operation's spec 500 JSON body. */
export function badOutcomes(outcomes: Outcome[]): string[] {
  const bad: string[] = [];
  for (const { phase, op, answer } of outcomes) {
    if (answer.status >= 200 && answer.status < 300) continue;
    const message = (answer.body as { error?: unknown } | undefined)?.error;
    const ok =
      answer.status === 500 &&
      isErrorBody(answer) &&
      typeof message === 'string' &&
      (FAILURE_MESSAGES[op] ?? [UNEXPECTED]).includes(message);
    if (!ok) bad.push(`${phase} ${op}: ${answer.status} (${answer.ms.toFixed(0)} ms) ${answer.text.slice(0, 200)}`);
  }
  return bad;
}

export function tally(outcomes: Outcome[]): Record<string, Record<string, number>> {
  const table: Record<string, Record<string, number>> = {};
  for (const { phase, answer } of outcomes) {
    const row = table[phase] ?? {};
    row[answer.status] = (row[answer.status] ?? 0) + 1;
    table[phase] = row;
  }
  return table;
}

/** Half-written state and the 201s of the load that are not in the database. */
export async function checkNothingHalfWritten(
  sql: NonNullable<PreparedDatabase['sql']>,
  createdIds: string[],
): Promise<HalfWritten & { missing: number }> {
  const [half] = await sql<HalfWritten>(HALF_WRITTEN_SQL);
  const [missing] = await sql<{ n: number }>(
    `select count(*)::int as n from unnest($1::uuid[]) as t(id)
     where not exists (select 1 from bookings b where b.id = t.id)`,
    [createdIds],
  );
  return {
    direct_without_outbox: half?.direct_without_outbox ?? -1,
    responses_without_booking: half?.responses_without_booking ?? -1,
    outbox_without_booking: half?.outbox_without_booking ?? -1,
    missing: missing?.n ?? -1,
  };
}
