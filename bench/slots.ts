// Slot listing under load: one host with one page and 10,000 then 100,000 bookings spread over a year, on PGlite
// (temporary data directory) and on Postgres (a fresh database on the test server, dropped afterwards).
//
// Table 1 times the whole path of GET /booking-pages/{slug}/slots below HTTP: getPageForBookingBySlug, then listSlots
// (rules, the day's override and busy time loaded with indexed range queries, then computeSlots), for random days
// of that year, one call after another (calls/s = 1000 / mean latency: one caller, no concurrency). Table 2 times computeSlots alone on the inputs of the same days, loaded
// beforehand, to show how much of a call is the database.
//
// Knobs (environment): BENCH_CALLS (timed calls per row, default 500), BENCH_WARMUP (default 50), BENCH_SIZES
// (default 10000,100000), BENCH_BACKENDS (default pglite,postgres). Postgres: TEST_POSTGRES_URL as for the tests.
// Numbers only: nothing here asserts a timing.
import { getPageForBookingBySlug, type PageForBooking } from '../lib/booking-pages/queries';
import type { Db } from '../lib/db/client';
import { importDocument } from '../lib/import/import';
import { loadSlotInput } from '../lib/slots/queries';
import { listSlots } from '../lib/slots/service';
import { computeSlots, type SlotInput } from '../lib/slots/slots';
import { formatDay, parseDay } from '../lib/slots/time';
import { backends } from '../tests/helpers/db';
import { envInt, envList, fmt, measure, printTable, prng, type Stats, tick, withResource } from './harness';

const YEAR = 2030;
const YEAR_START = `${YEAR}-01-01T00:00:00Z`;
const YEAR_DAYS = 365;
const YEAR_MINUTES = YEAR_DAYS * 24 * 60;
/** Before every day of the year, so no day is in the past; the page has no max_days_ahead. */
const NOW = new Date(`${YEAR - 1}-12-31T12:00:00Z`);
const SEED = 20300101;
const COMPUTE_CALLS_PER_DAY = 10;

const EVERY_DAY_9_TO_5 = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [['09:00', '17:00']]]),
);

const DOCUMENT = {
  hosts: [
    {
      email: 'bench@example.com',
      username: 'bench',
      timezone: 'America/New_York',
      availability: [{ name: 'Every day', weekly: EVERY_DAY_9_TO_5 }],
      pages: [{ slug: 'intro', title: 'Intro', duration_minutes: 30, buffer_time_minutes: 10, max_days_ahead: null }],
    },
  ],
};

/**
 * Replaces all bookings with `count` ones in one INSERT ... SELECT generate_series: booking i starts
 * floor(i * minutes-of-the-year / count) minutes into the year, so starts are at least floor(525600 / count) minutes
 * apart and bookings of that length (30 at most) never overlap. Statuses repeat every ten bookings: 2 cancelled,
 * 1 pending, 1 completed, 6 confirmed (60 % block time).
 */
async function seedBookings(db: Db, page: PageForBooking, count: number): Promise<void> {
  await db.exec('truncate bookings cascade');
  if (count === 0) return;
  await db.query(
    `insert into bookings (booking_page_id, user_id, guest_name, guest_email, start_time, end_time, status)
     select $1, $2, 'Guest ' || i, 'guest' || i || '@example.com', s, s + make_interval(mins => $5::int),
       (array['cancelled', 'cancelled', 'pending', 'completed', 'confirmed', 'confirmed', 'confirmed', 'confirmed',
              'confirmed', 'confirmed'])[i % 10 + 1]
     from generate_series(0, $3::int - 1) as i,
       lateral (select $4::timestamptz + make_interval(mins => (i::bigint * $6::int / $3::int)::int) as s) as b`,
    [page.id, page.user_id, count, YEAR_START, Math.min(30, Math.floor(YEAR_MINUTES / count)), YEAR_MINUTES],
  );
  await db.exec('analyze bookings');
}

/** `count` days of the year drawn with a fixed seed: every backend and size is measured on the same days. */
function randomDays(count: number): string[] {
  const random = prng(SEED);
  const first = parseDay(`${YEAR}-01-01`) as number;
  return Array.from({ length: count }, () => formatDay(first + Math.floor(random() * YEAR_DAYS) * 86_400_000));
}

type PathRow = { backend: string; size: number; seedMs: number; stats: Stats };
type ComputeRow = { size: number; busyPerDay: number; slotsPerDay: number; stats: Stats };

async function version(db: Db): Promise<string> {
  const { rows } = await db.query<{ server_version: string }>('show server_version');
  return `${db.kind === 'pglite' ? 'PGlite' : 'Postgres'} ${rows[0]?.server_version ?? '?'}`;
}

export async function run(): Promise<void> {
  const calls = envInt('BENCH_CALLS', 500);
  const warmup = envInt('BENCH_WARMUP', 50);
  const sizes = envList('BENCH_SIZES', ['10000', '100000']).map(Number);
  const wanted = envList('BENCH_BACKENDS', ['pglite', 'postgres']);
  const selected = backends.filter((backend) => wanted.includes(backend.name));
  if (sizes.some((size) => !Number.isInteger(size) || size < 0 || size > YEAR_MINUTES)) {
    throw new Error(`BENCH_SIZES must be integers between 0 and ${YEAR_MINUTES}`);
  }
  if (selected.length === 0)
    throw new Error(`BENCH_BACKENDS selects none of: ${backends.map((b) => b.name).join(', ')}`);

  const days = randomDays(warmup + calls);
  const pathRows: PathRow[] = [];
  const computeRows: ComputeRow[] = [];
  const versions: string[] = [];

  for (const backend of selected) {
    const opened = performance.now();
    await withResource(
      () => backend.open(),
      (t) => t.drop(),
      async ({ db }) => {
        versions.push(await version(db));
        const result = await db.transaction((tx) => importDocument(tx, DOCUMENT));
        const hostId = result.hosts.bench?.id as string;
        const page = (await getPageForBookingBySlug(db, hostId, 'intro')) as PageForBooking;
        console.log(
          `${backend.name}: opened, migrated and seeded the host in ${fmt(performance.now() - opened, 0)} ms`,
        );

        for (const size of sizes) {
          const seeding = performance.now();
          await seedBookings(db, page, size);
          const seedMs = performance.now() - seeding;
          console.log(
            `${backend.name}: ${size.toLocaleString('en-US')} bookings inserted and analyzed in ${fmt(seedMs, 0)} ms`,
          );

          // The whole path, as the route runs it: page by slug, then the day's slots.
          const stats = await measure(
            async (i) => {
              const found = await getPageForBookingBySlug(db, hostId, 'intro');
              if (!found) throw new Error('page not found');
              return listSlots(db, found, days[i] as string, NOW);
            },
            { calls, warmup },
          );
          pathRows.push({ backend: backend.name, size, seedMs, stats });

          // The engine alone, once per size (its inputs are the same on every backend).
          if (!computeRows.some((row) => row.size === size)) {
            const inputs: SlotInput[] = [];
            for (const day of days.slice(warmup)) {
              inputs.push(await loadSlotInput(db, page, day, NOW));
              await tick();
            }
            const busy = inputs.reduce((total, input) => total + input.busy.length, 0);
            const offered = inputs.reduce((total, input) => total + computeSlots(input).length, 0);
            const computeStats = await measure((i) => computeSlots(inputs[i % inputs.length] as SlotInput), {
              calls: inputs.length * COMPUTE_CALLS_PER_DAY,
              warmup: inputs.length,
            });
            computeRows.push({
              size,
              busyPerDay: busy / inputs.length,
              slotsPerDay: offered / inputs.length,
              stats: computeStats,
            });
          }
        }
      },
    );
  }

  const header = [' bookings', ' median ms', ' p99 ms', ' mean ms', ' calls/s', ' calls'];
  const row = (size: number, stats: Stats) => [
    size.toLocaleString('en-US'),
    fmt(stats.medianMs, 3),
    fmt(stats.p99Ms, 3),
    fmt(stats.meanMs, 3),
    fmt(stats.perSecond, 0),
    String(stats.calls),
  ];
  console.log(`\n${versions.join(', ')}; Node ${process.version}; days of ${YEAR} drawn with seed ${SEED}`);
  printTable(
    'listSlots, whole path (getPageForBookingBySlug + listSlots), sequential calls on random days',
    ['backend', ...header, ' seed+analyze ms'],
    pathRows.map((r) => [r.backend, ...row(r.size, r.stats), fmt(r.seedMs, 0)]),
  );
  printTable(
    'computeSlots alone (inputs of the same days loaded beforehand)',
    [...header, ' busy/day', ' slots/day'],
    computeRows.map((r) => [...row(r.size, r.stats), fmt(r.busyPerDay, 1), fmt(r.slotsPerDay, 1)]),
  );
}
