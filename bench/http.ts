// The production server (`next start` on the build in `.next`) driven over loopback by autocannon, on the embedded
// default (PGlite) and on Postgres. For each backend, one fresh database: the HTTP tests' two hosts plus BENCH_KEYS
// extra secret keys for ada, and BENCH_BOOKINGS bookings of ada (one INSERT ... SELECT generate_series, spread over
// the coming year, 30 minutes each, 60 % pending/confirmed) written before the server opens the database. The server
// is warmed up with BENCH_SERVER_WARMUP_SECONDS of /api/health, then, one after another, BENCH_CONNECTIONS
// connections for BENCH_DURATION seconds each (after BENCH_WARMUP_SECONDS of the same requests, not measured):
//
//   health      GET /api/health: the framework's ceiling (no database, no key), measured in the same run
//   slots       listSlots of ada's page on the days of the next 8 weeks (her 10,000 bookings are on them)
//   page        getBookingPage
//   bookings    listBookings?limit=200
//   create      createBooking with the secret key, every request a distinct free time and a distinct guest email
//   contention  createBooking, every 50 consecutive requests aimed at 5 slots (5 can win, 45 get 409)
//   health-end  GET /api/health again, to see how much the machine drifted during the run
//
// Every API request carries the next of the BENCH_KEYS keys in turn, so no key goes past the spec's 300 requests
// per 60-s window (the server's limit is not relaxed); the table reports 429s and other non-2xx separately. After
// the run, SQL checks that no two pending/confirmed bookings overlap and that the database holds one contention
// booking per 201 (plus at most the requests autocannon dropped in flight at the end of a run), never two on one
// slot. Answers other than 2xx and the contention's 409s, and every 500 the server logged, are listed. Peak RSS is VmHWM of the server process; server CPU is its user +
// system time during the measured run (% of one core, and per request: steadier than req/s on a shared machine; with
// Postgres it leaves out the database's own CPU, with PGlite the database runs inside it).
//
// Knobs: BENCH_DURATION (s, default 8), BENCH_WARMUP_SECONDS (3), BENCH_SERVER_WARMUP_SECONDS (5),
// BENCH_CONNECTIONS (50), BENCH_KEYS (1000), BENCH_BOOKINGS (10000), BENCH_BACKENDS (pglite,postgres),
// BENCH_SCENARIOS (all), BENCH_PROFILE=1 (run the server under `node --cpu-prof` and print where its CPU time went,
// see bench/http-profile.ts; BENCH_PROFILE_DIR=dir keeps the profiles), NEXT_APP_DIR (run the build of another
// checkout, e.g. a copy with a patch applied, for before/after numbers). Postgres: TEST_POSTGRES_URL as for the tests.
// Numbers only, except the correctness checks, which fail the benchmark.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon';
import type { Db } from '../lib/db/client';
import type { ImportResult } from '../lib/import/import';
import { DAY_MS, localDayOf, MINUTE_MS, parseDay } from '../lib/slots/time';
import { tempDataDir } from '../tests/helpers/db';
import {
  appDir,
  type BackendName,
  type Instance,
  OVERLAPS_SQL,
  type PreparedDatabase,
  prepareDatabase,
  startInstance,
} from '../tests/reliability/_instance';
import { apiDocumentWithKeys } from '../tests/reliability/_scenarios';
import { envInt, envList, fmt, printTable, withResource } from './harness';
import { printProfile, profileNodeArgs } from './http-profile';

const NEW_YORK = 'America/New_York';
const CONTENTION_GROUP = 50;
const CONTENTION_SLOTS = 5;
/** The spec's per-key limit for secret keys; the rotation keeps every key below it with a margin. */
const KEY_LIMIT = 300;
const KEY_BUDGET = KEY_LIMIT - 10;

type Scenario = {
  name: string;
  label: string;
  /** Requests of this scenario carry an API key. */
  keyed: boolean;
  /** The next request (path, method, body); `seq` counts the scenario's requests from 0, warm-up included. */
  next(seq: number): Pick<AutocannonRequest, 'method' | 'path' | 'body'>;
};

type Row = {
  backend: BackendName;
  scenario: Scenario;
  result: AutocannonResult;
  rps: number;
  /** CPU time of the server process during the measured run. */
  cpuMs: number;
  /** The unmeasured warm-up run of the same requests (its answers are checked too). */
  warm: AutocannonResult | undefined;
  peakRssKiB: number | null;
};

/** Round-robin over the keys with a client-side count per 60-s window (windows are aligned to the epoch). */
class KeyRotation {
  private next = 0;
  private window = -1;
  private counts: Uint32Array;
  maxInWindow = 0;
  exhausted = 0;
  constructor(private readonly keys: readonly string[]) {
    this.counts = new Uint32Array(keys.length);
  }
  take(): string {
    const window = Math.floor(Date.now() / 60_000);
    if (window !== this.window) {
      this.window = window;
      this.counts.fill(0);
    }
    for (let tries = 0; tries < this.keys.length; tries++) {
      const index = this.next;
      this.next = (this.next + 1) % this.keys.length;
      if ((this.counts[index] as number) < KEY_BUDGET) {
        const count = (this.counts[index] as number) + 1;
        this.counts[index] = count;
        if (count > this.maxInWindow) this.maxInWindow = count;
        return this.keys[index] as string;
      }
    }
    // Every key used up in this window: send anyway (the 429s will show in the table) and say so.
    this.exhausted += 1;
    return this.keys[this.next] as string;
  }
}

/** UTC midnight of the day after today: the seeded bookings start there. */
function tomorrowUtc(): number {
  return Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS;
}

/**
 * `count` bookings of ada's intro page over the 365 days from tomorrow: booking i starts floor(i * minutes of the
 * year / count) minutes in, lasts min(30, spacing) minutes (no two overlap). Statuses repeat every ten bookings:
 * 2 cancelled, 1 pending, 1 completed, 6 confirmed (as in bench/slots.ts).
 */
async function seedBookings(db: Db, seed: ImportResult, count: number): Promise<void> {
  const ada = seed.hosts.ada;
  const pageId = ada?.pages.intro?.id;
  if (!ada || !pageId) throw new Error('seed has no ada/intro');
  if (count === 0) return;
  const minutes = 365 * 24 * 60;
  await db.query(
    `insert into bookings (booking_page_id, user_id, guest_name, guest_email, start_time, end_time, status)
     select $1, $2, 'Seeded guest ' || i, 'seeded' || i || '@example.com', s, s + make_interval(mins => $5::int),
       (array['cancelled', 'cancelled', 'pending', 'completed', 'confirmed', 'confirmed', 'confirmed', 'confirmed',
              'confirmed', 'confirmed'])[i % 10 + 1]
     from generate_series(0, $3::int - 1) as i,
       lateral (select to_timestamp($4::float8 / 1000) + make_interval(mins => (i::bigint * $6::int / $3::int)::int)
                as s) as b`,
    [pageId, ada.id, count, tomorrowUtc(), Math.min(30, Math.floor(minutes / count)), minutes],
  );
  await db.exec('analyze');
}

function scenarios(seed: ImportResult, backend: BackendName, bookings: number): Scenario[] {
  const ada = seed.hosts.ada;
  const pageId = ada?.pages.intro?.id as string;
  const question = ada?.pages.intro?.questions[0] as string;
  // Host-local days 1..56 ahead, all inside the page's 60-day horizon and all carrying seeded bookings.
  const today = parseDay(localDayOf(Date.now(), NEW_YORK)) as number;
  const days = Array.from({ length: 56 }, (_, i) => new Date(today + (i + 1) * DAY_MS).toISOString().slice(0, 10));
  // Creation times far beyond the seeded year: distinct times from +5 years, contention slots from +8 years.
  const yearMs = 365 * DAY_MS;
  const createBase = tomorrowUtc() + 5 * yearMs;
  const contentionBase = tomorrowUtc() + 8 * yearMs;
  const run = `${backend}-${Date.now().toString(36)}`;
  const body = (tag: string, seq: number, startMs: number) =>
    JSON.stringify({
      bookingPageId: pageId,
      guestName: `Bench guest ${seq}`,
      guestEmail: `${tag}-${run}-${seq}@example.com`,
      startTime: new Date(startMs).toISOString(),
      endTime: new Date(startMs + 30 * MINUTE_MS).toISOString(),
      responses: [{ questionId: question, answer: 'a' }],
    });
  return [
    {
      name: 'health',
      label: 'GET /api/health (framework ceiling)',
      keyed: false,
      next: () => ({ method: 'GET', path: '/api/health' }),
    },
    {
      name: 'slots',
      label: `listSlots (host with ${bookings.toLocaleString('en-US')} bookings)`,
      keyed: true,
      next: (seq) => ({ method: 'GET', path: `/api/v1/booking-pages/intro/slots?date=${days[seq % days.length]}` }),
    },
    {
      name: 'page',
      label: 'getBookingPage',
      keyed: true,
      next: () => ({ method: 'GET', path: '/api/v1/booking-pages/intro' }),
    },
    {
      name: 'bookings',
      label: 'listBookings limit=200',
      keyed: true,
      next: () => ({ method: 'GET', path: '/api/v1/bookings?limit=200' }),
    },
    {
      name: 'create',
      label: 'createBooking, distinct free times',
      keyed: true,
      next: (seq) => ({
        method: 'POST',
        path: '/api/v1/bookings',
        body: body('create', seq, createBase + seq * 30 * MINUTE_MS),
      }),
    },
    {
      name: 'contention',
      label: `createBooking, ${CONTENTION_GROUP} clients on ${CONTENTION_SLOTS} slots`,
      keyed: true,
      next: (seq) => {
        const slot = Math.floor(seq / CONTENTION_GROUP) * CONTENTION_SLOTS + (seq % CONTENTION_SLOTS);
        return {
          method: 'POST',
          path: '/api/v1/bookings',
          body: body('contention', seq, contentionBase + slot * 30 * MINUTE_MS),
        };
      },
    },
    {
      name: 'health-end',
      label: 'GET /api/health again (drift check)',
      keyed: false,
      next: () => ({ method: 'GET', path: '/api/health' }),
    },
  ];
}

/** One autocannon run; every request is built by `scenario.next` with the next key. */
function cannon(
  origin: string,
  scenario: Scenario,
  keys: KeyRotation,
  counter: { seq: number },
  connections: number,
  seconds: number,
): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: origin,
        connections,
        duration: seconds,
        timeout: 30,
        requests: [
          {
            setupRequest: (request) => {
              const next = scenario.next(counter.seq++);
              const headers: Record<string, string> = { ...request.headers };
              if (scenario.keyed) headers.authorization = `Bearer ${keys.take()}`;
              if (next.body !== undefined) headers['content-type'] = 'application/json';
              return { ...request, ...next, headers };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

const count = (result: AutocannonResult, status: number) => result.statusCodeStats[String(status)]?.count ?? 0;

async function benchBackend(backend: BackendName, selected: string[], rows: Row[], notes: string[]): Promise<void> {
  const keyCount = envInt('BENCH_KEYS', 1000);
  const bookings = envInt('BENCH_BOOKINGS', 10_000);
  const duration = envInt('BENCH_DURATION', 8);
  const warmup = envInt('BENCH_WARMUP_SECONDS', 3);
  const serverWarmup = envInt('BENCH_SERVER_WARMUP_SECONDS', 5);
  const connections = envInt('BENCH_CONNECTIONS', 50);
  const profile = process.env.BENCH_PROFILE === '1';

  const preparing = performance.now();
  await withResource(
    () =>
      prepareDatabase(backend, apiDocumentWithKeys('bench', keyCount), (db, seed) => seedBookings(db, seed, bookings)),
    (prepared) => prepared.drop(),
    async (prepared: PreparedDatabase) => {
      const seed = prepared.seed;
      const ada = seed.hosts.ada;
      const keys = new KeyRotation(Array.from({ length: keyCount }, (_, i) => ada?.api_keys[`bench-${i}`] as string));
      console.log(
        `${backend}: database with ${keyCount} keys and ${bookings.toLocaleString('en-US')} bookings ready in ` +
          `${fmt(performance.now() - preparing, 0)} ms`,
      );
      // BENCH_PROFILE_DIR keeps the .cpuprofile (open it in Chrome DevTools); otherwise a temporary directory.
      const keepProfile = process.env.BENCH_PROFILE_DIR;
      const profileDir = profile ? (keepProfile ? path.resolve(keepProfile, backend) : tempDataDir()) : undefined;
      if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
      const starting = performance.now();
      // As `npm start` runs it, email dispatcher included (it sends at most 20 outbox rows per 2-s tick).
      const server = await startInstance(prepared.env, { nodeArgs: profileDir ? profileNodeArgs(profileDir) : [] });
      console.log(`${backend}: server pid ${server.pid} healthy in ${fmt(performance.now() - starting, 0)} ms`);
      // 201s and 409s of the contention scenario, warm-up included (its bookings are in the database too).
      let contention: { won: number; lost: number; other: number } | undefined;
      try {
        // A fresh server answers its first seconds of load several times slower (JIT, lazy route modules): the
        // framework route warms it up before anything is measured, then every scenario gets its own warm-up.
        const all = scenarios(seed, backend, bookings);
        if (serverWarmup > 0)
          await cannon(server.origin, all[0] as Scenario, keys, { seq: 0 }, connections, serverWarmup);
        for (const scenario of all.filter((s) => selected.includes(s.name))) {
          const counter = { seq: 0 };
          const warm =
            warmup > 0 ? await cannon(server.origin, scenario, keys, counter, connections, warmup) : undefined;
          const cpuBefore = server.cpuMs();
          const result = await cannon(server.origin, scenario, keys, counter, connections, duration);
          const cpuAfter = server.cpuMs();
          const cpuMs = cpuBefore === null || cpuAfter === null ? Number.NaN : cpuAfter - cpuBefore;
          const rps = (result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx']) / result.duration;
          rows.push({ backend, scenario, result, rps, cpuMs, peakRssKiB: server.peakRssKiB(), warm });
          if (scenario.name === 'contention') {
            const both = warm ? [warm, result] : [result];
            const won = both.reduce((n, r) => n + count(r, 201), 0);
            const lost = both.reduce((n, r) => n + count(r, 409), 0);
            contention = { won, lost, other: both.reduce((n, r) => n + r.non2xx + r.errors, 0) - lost };
          }
          console.log(
            `${backend}: ${scenario.name.padEnd(10)} ${fmt(rps, 0).padStart(6)} req/s  p50 ${result.latency.p50} ms  ` +
              `p99 ${result.latency.p99} ms  ${JSON.stringify(Object.fromEntries(Object.entries(result.statusCodeStats).map(([k, v]) => [k, v.count])))}` +
              (result.errors ? `  errors ${result.errors} (timeouts ${result.timeouts})` : ''),
          );
        }
      } finally {
        await server.stop();
      }
      // The server logs every 500 with its cause (lib/http/api.ts): count them by cause.
      const failures = new Map<string, number>();
      for (const line of server.logs().match(/^\[api\] \S+ \S+ \S+ failed: .*$/gm) ?? []) {
        const cause = line.replace(/^\[api\] \S+ (\S+ \S+) failed: /, '$1: ').slice(0, 160);
        failures.set(cause, (failures.get(cause) ?? 0) + 1);
      }
      for (const [cause, n] of failures) {
        // autocannon drops the requests in flight when a run ends; the server logs a body read cut short that way.
        const dropped = /: Error: aborted$/.test(cause);
        notes.push(
          `${backend}: ${dropped ? '' : 'WARNING: '}${n} × "500" logged by the server: ${cause}` +
            (dropped ? ' (clients that went away mid-body when a run ended; nobody received these)' : ''),
        );
      }
      notes.push(
        `${backend}: key rotation: at most ${keys.maxInWindow} requests of one key in one 60-s window ` +
          `(limit ${KEY_LIMIT})${keys.exhausted ? `, ${keys.exhausted} requests sent with every key used up` : ''}; ` +
          `server peak RSS (VmHWM) ${fmtMiB(rows.filter((r) => r.backend === backend).at(-1)?.peakRssKiB ?? null)} MiB`,
      );
      await checkDatabase(backend, prepared, server, contention, notes);
      if (profileDir) {
        printProfile(profileDir, `${backend} server, scenarios ${selected.join(', ')}`);
        if (!keepProfile) fs.rmSync(profileDir, { recursive: true, force: true });
      }
    },
  );
}

/** The overlap guarantee and the contention count, with SQL once the server is stopped. */
async function checkDatabase(
  backend: BackendName,
  prepared: PreparedDatabase,
  server: Instance,
  contention: { won: number; lost: number; other: number } | undefined,
  notes: string[],
): Promise<void> {
  const checks = async (query: <T>(text: string) => Promise<T[]>) => {
    const [overlaps] = await query<{ n: number }>(OVERLAPS_SQL);
    const [created] = await query<{ n: number; slots: number; active: number }>(
      `select count(*)::int as n, count(distinct start_time)::int as slots,
         count(*) filter (where status in ('pending', 'confirmed'))::int as active
       from bookings where guest_email like 'contention-%'`,
    );
    return { overlaps: overlaps?.n ?? -1, created: created ?? { n: -1, slots: -1, active: -1 } };
  };
  const result = prepared.sql
    ? await checks((text) => (prepared.sql as NonNullable<PreparedDatabase['sql']>)(text))
    : await prepared.withDb((db) => checks(async (text) => (await db.query(text)).rows as never));
  const problems: string[] = [];
  if (result.overlaps !== 0) problems.push(`${result.overlaps} overlapping pending/confirmed pairs`);
  if (contention) {
    const { won, lost, other } = contention;
    // autocannon drops the requests still in flight when a run ends (up to one per connection, twice: warm-up and
    // measured run); the server may have booked some of them, so the rows are between the 201s and that many more.
    const inFlight = 2 * envInt('BENCH_CONNECTIONS', 50);
    if (result.created.n < won || result.created.n > won + inFlight) {
      problems.push(`contention: ${won} answered 201 but ${result.created.n} rows exist`);
    }
    if (result.created.slots !== result.created.n) problems.push('contention: two bookings share one slot');
    notes.push(
      `${backend}: contention (warm-up included): ${won} × 201, ${lost} × 409, ${other} other non-2xx or errors; ` +
        `${result.created.n} contention bookings in the database on ${result.created.slots} distinct slots`,
    );
  }
  notes.push(`${backend}: SQL after the run: ${result.overlaps} overlapping pending/confirmed booking pairs`);
  if (problems.length > 0) {
    throw new Error(`${backend}: correctness check failed: ${problems.join('; ')}\n${server.logs().slice(-4000)}`);
  }
}

const fmtMiB = (kib: number | null) => (kib === null ? '-' : fmt(kib / 1024, 0));
const ratio = (value: number, base: number | undefined) =>
  base === undefined || !Number.isFinite(base) || base === 0
    ? '-'
    : `${(value / base).toFixed(value / base < 10 ? 2 : 1)}×`;

export async function run(): Promise<void> {
  const backends = envList('BENCH_BACKENDS', ['pglite', 'postgres']) as BackendName[];
  const all = ['health', 'slots', 'page', 'bookings', 'create', 'contention', 'health-end'];
  const selected = envList('BENCH_SCENARIOS', all);
  const unknown = [
    ...backends.filter((b) => b !== 'pglite' && b !== 'postgres'),
    ...selected.filter((s) => !all.includes(s)),
  ];
  if (unknown.length > 0) throw new Error(`unknown BENCH_BACKENDS/BENCH_SCENARIOS entries: ${unknown.join(', ')}`);
  const started = os.loadavg();
  const rows: Row[] = [];
  const notes: string[] = [];
  for (const backend of backends) await benchBackend(backend, selected, rows, notes);

  const connections = envInt('BENCH_CONNECTIONS', 50);
  const duration = envInt('BENCH_DURATION', 8);
  console.log(
    `\nNode ${process.version}; ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}); load average ${started
      .map((l) => l.toFixed(1))
      .join(' ')} at the start, ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )} at the end; ${connections} connections, ${duration} s per row; build ${path.resolve(appDir(), process.env.NEXT_DIST_DIR || '.next')}`,
  );
  for (const backend of backends) {
    const mine = rows.filter((row) => row.backend === backend);
    const health = mine.find((row) => row.scenario.name === 'health');
    printTable(
      `${backend}: requests/s and latency over loopback (ratios: to GET /api/health of the same run)`,
      [
        'scenario',
        ' req/s',
        ' ×health',
        ' p50 ms',
        ' ×health',
        ' p99 ms',
        ' ×health',
        ' requests',
        ' 2xx',
        ' 409',
        ' 429',
        ' other non-2xx',
        ' errors',
        ' server CPU %',
        ' CPU ms/req',
        ' peak RSS MiB',
      ],
      mine.map((row) => {
        const r = row.result;
        const isHealth = row.scenario.name.startsWith('health');
        const total = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
        return [
          row.scenario.label,
          fmt(row.rps, 0),
          isHealth && row.scenario.name === 'health' ? '1' : ratio(row.rps, health?.rps),
          String(r.latency.p50),
          row.scenario.name === 'health' ? '1' : ratio(r.latency.p50, health?.result.latency.p50),
          String(r.latency.p99),
          row.scenario.name === 'health' ? '1' : ratio(r.latency.p99, health?.result.latency.p99),
          total.toLocaleString('en-US'),
          r['2xx'].toLocaleString('en-US'),
          count(r, 409).toLocaleString('en-US'),
          count(r, 429).toLocaleString('en-US'),
          (r.non2xx - count(r, 409) - count(r, 429)).toLocaleString('en-US'),
          String(r.errors),
          fmt((100 * row.cpuMs) / (r.duration * 1000), 0),
          fmt(row.cpuMs / total, 2),
          fmtMiB(row.peakRssKiB),
        ];
      }),
    );
  }
  for (const note of notes) console.log(note);
  // Anything but 2xx and the contention's 409s, in the measured runs or their warm-ups, is worth a look.
  const unexpected = (r: AutocannonResult) => r.errors + r.non2xx - count(r, 409);
  const bad = rows.filter((row) => unexpected(row.result) > 0 || (row.warm ? unexpected(row.warm) : 0) > 0);
  for (const row of bad) {
    const codes = (r: AutocannonResult | undefined) =>
      r ? JSON.stringify(Object.fromEntries(Object.entries(r.statusCodeStats).map(([k, v]) => [k, v.count]))) : '-';
    console.log(
      `WARNING: ${row.backend}/${row.scenario.name}: unexpected answers; warm-up ${codes(row.warm)} ` +
        `(errors ${row.warm?.errors ?? 0}), measured ${codes(row.result)} (errors ${row.result.errors}); ` +
        'see the server log for 500s',
    );
  }
}
