// `npm run soak`: the longer versions of the reliability tests, against the production build (`.next`, or the
// build of NEXT_APP_DIR) on a fresh database of the local Postgres (TEST_POSTGRES_URL), for SOAK_SECONDS (default
// 120) in two halves:
//
// 1. race:   two app instances on the database, rounds of 250 concurrent createBooking requests (secret keys in
//            turn) on overlapping intervals of one host, each round in a day of its own; every answer must be 201
//            or the spec's 409 and SQL must show no overlapping pending/confirmed bookings after each round.
// 2. outage: a light mixed load (createBooking, listBookings, getBookingPage) on the instances in turn while the
//            database goes away every cycle: pg_terminate_backend on all the app's connections for 2 s, and with
//            RELIABILITY_RESTART_POSTGRES=1 (or CI=true) every third cycle a real `pg_ctlcluster 15 main restart`
//            of the machine's Postgres instead (it drops every other client of it: off by default). Every answer
//            must be 2xx or the operation's spec 500 JSON, the app must recover by itself, and nothing may be left
//            half-written.
//
// Prints a summary (and the servers' memory before and after) and exits 1 when any rule was broken.
import {
  HALF_WRITTEN_SQL,
  type HalfWritten,
  type Instance,
  prepareDatabase,
  procStatusKiB,
  startInstance,
} from '../tests/reliability/_instance';
import { RESTART_ENABLED, restartPostgres, terminateBackends } from '../tests/reliability/_postgres';
import {
  apiDocumentWithKeys,
  badOutcomes,
  bookingRace,
  checkNothingHalfWritten,
  checkRace,
  loadThroughOutage,
  tally,
} from '../tests/reliability/_scenarios';

const seconds = Number(process.env.SOAK_SECONDS || 120);
if (!Number.isFinite(seconds) || seconds < 10 || seconds > 24 * 3600) {
  console.error('SOAK_SECONDS must be a number of seconds between 10 and 86400');
  process.exit(2);
}
const KEYS = 60;
const ROUND_REQUESTS = 250;
/** Hard caps besides the clock, so a fast machine cannot loop without bound either. */
const MAX_ROUNDS = 2_000;
const MAX_CYCLES = 500;

const problems: string[] = [];
const fail = (message: string) => {
  problems.push(message);
  console.error(`  PROBLEM: ${message}`);
};
const mib = (kib: number | null) => (kib === null ? '-' : `${(kib / 1024).toFixed(0)} MiB`);
const memory = (server: Instance) => ({ rss: procStatusKiB(server.pid, 'VmRSS'), peak: server.peakRssKiB() });

const started = Date.now();
const raceUntil = started + (seconds * 1000) / 2;
const outageUntil = started + seconds * 1000;

console.log(
  `soak: ${seconds} s on Postgres (${RESTART_ENABLED ? 'terminate + real restarts' : 'terminate only; set RELIABILITY_RESTART_POSTGRES=1 for real restarts'})`,
);
const db = await prepareDatabase('postgres', apiDocumentWithKeys('soak', KEYS));
const servers: Instance[] = [];
let exitCode = 0;
try {
  servers.push(await startInstance(db.env), await startInstance(db.env));
  const memoryBefore = servers.map(memory);
  const ada = db.seed.hosts.ada;
  const keys = Array.from({ length: KEYS }, (_, i) => ada?.api_keys[`soak-${i}`] as string);
  const pageId = ada?.pages.intro?.id as string;
  const sql = db.sql as NonNullable<typeof db.sql>;
  const database = new URL(db.env.DATABASE_URL as string).pathname.slice(1);

  // 1. Booking race over both instances.
  const race = { rounds: 0, requests: 0, created: 0, conflicts: 0, unexpected: 0, slowest: 0 };
  // Far-future stretches that cannot meet: race rounds a day each from +10 years (at most MAX_ROUNDS days), outage
  // cycles 100 days each from +20 years (a cycle books ~30 minutes per request, well under 100 days).
  const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  const firstDay = today + 10 * 365 * 86_400_000;
  while (Date.now() < raceUntil && race.rounds < MAX_ROUNDS) {
    const round = race.rounds;
    const result = await bookingRace({
      servers,
      keys,
      pageId,
      requests: ROUND_REQUESTS,
      concurrency: 32,
      baseMs: firstDay + round * 86_400_000 + 8 * 3_600_000,
      windowMinutes: 8 * 60,
      seed: 1_000 + round,
      tag: `soak-race${round}`,
    });
    const check = await checkRace(sql, `soak-race${round}`, result.createdIds);
    race.rounds += 1;
    race.requests += ROUND_REQUESTS;
    race.created += result.statuses[201] ?? 0;
    race.conflicts += result.statuses[409] ?? 0;
    race.unexpected += result.unexpected.length;
    race.slowest = Math.max(race.slowest, result.seconds);
    if (result.unexpected.length > 0) {
      fail(`race round ${round}: ${result.unexpected.length} answers not 201/409, e.g. ${result.unexpected[0]}`);
    }
    if (check.overlaps !== 0) fail(`race round ${round}: ${check.overlaps} overlapping pending/confirmed pairs`);
    if (check.missing !== 0) fail(`race round ${round}: ${check.missing} answered 201 but are not in the database`);
    if (round % 10 === 0)
      console.log(`  race round ${round}: ${JSON.stringify(result.statuses)} in ${result.seconds.toFixed(1)} s`);
  }

  // 2. Load through outages.
  const outage = {
    cycles: 0,
    restarts: 0,
    terminated: 0,
    statuses: {} as Record<string, Record<string, number>>,
    recoveries: [] as number[],
    created: [] as string[],
  };
  const outageBase = today + 20 * 365 * 86_400_000;
  while (Date.now() < outageUntil && outage.cycles < MAX_CYCLES) {
    const cycle = outage.cycles;
    const restart = RESTART_ENABLED && cycle % 3 === 2;
    const result = await loadThroughOutage({
      server: servers[cycle % servers.length] as Instance,
      keys,
      pageId,
      slug: 'intro',
      clients: 4,
      pauseMs: 25,
      beforeMs: 2000,
      disrupt: restart
        ? restartPostgres
        : async () => {
            outage.terminated += await terminateBackends(database, 2000);
          },
      recoverWithinMs: 30_000,
      afterMs: 3000,
      baseMs: outageBase + cycle * 100 * 86_400_000,
      tag: `soak-outage${cycle}`,
      requestTimeoutMs: 15_000,
    });
    outage.cycles += 1;
    if (restart) outage.restarts += 1;
    outage.created.push(...result.createdIds);
    for (const [phase, counts] of Object.entries(tally(result.outcomes))) {
      const row = outage.statuses[phase] ?? {};
      for (const [status, n] of Object.entries(counts)) row[status] = (row[status] ?? 0) + n;
      outage.statuses[phase] = row;
    }
    const bad = badOutcomes(result.outcomes);
    if (bad.length > 0) fail(`outage cycle ${cycle}: ${bad.length} answers not 2xx/spec 500, e.g. ${bad[0]}`);
    const hung = result.outcomes.filter((o) => o.answer.status === 0).length;
    if (hung > 0) fail(`outage cycle ${cycle}: ${hung} requests timed out or lost their connection`);
    if (result.recoveredAfterMs === null) fail(`outage cycle ${cycle}: no booking succeeded within 30 s`);
    else outage.recoveries.push(result.recoveredAfterMs);
    const afterFailures = result.outcomes.filter((o) => o.phase === 'after' && o.answer.status >= 300).length;
    if (afterFailures > 0) fail(`outage cycle ${cycle}: ${afterFailures} failures after recovery`);
    console.log(
      `  outage cycle ${cycle} (${restart ? 'restart' : 'terminate'}): ${JSON.stringify(tally(result.outcomes))}, ` +
        `recovered after ${result.recoveredAfterMs ?? '-'} ms`,
    );
  }
  const half = await checkNothingHalfWritten(sql, outage.created);
  const [totals] = await sql<HalfWritten & { bookings: number }>(
    `select (select count(*)::int from bookings) as bookings, h.* from (${HALF_WRITTEN_SQL}) as h`,
  );
  if (Object.values(half).some((n) => n !== 0)) fail(`half-written state after the outages: ${JSON.stringify(half)}`);
  for (const [i, server] of servers.entries()) {
    if (server.child.exitCode !== null) fail(`instance ${i + 1} exited with ${server.child.exitCode}`);
  }
  const memoryAfter = servers.map(memory);

  const sorted = [...outage.recoveries].sort((a, b) => a - b);
  console.log(`\n=== soak summary (${((Date.now() - started) / 1000).toFixed(0)} s) ===`);
  console.log(
    `race:   ${race.rounds} rounds, ${race.requests} requests over 2 instances: ${race.created} × 201, ` +
      `${race.conflicts} × 409, ${race.unexpected} other; slowest round ${race.slowest.toFixed(1)} s`,
  );
  console.log(
    `outage: ${outage.cycles} cycles (${outage.restarts} real restarts, ${outage.terminated} backends terminated); ` +
      `answers by phase ${JSON.stringify(outage.statuses)}; recovery after ` +
      `${sorted.length ? `${sorted[0]}-${sorted[sorted.length - 1]} ms (median ${sorted[Math.floor(sorted.length / 2)]})` : '-'}`,
  );
  console.log(`database: ${totals?.bookings ?? '?'} bookings; half-written: ${JSON.stringify(half)}`);
  for (const [i] of servers.entries()) {
    console.log(
      `instance ${i + 1}: RSS ${mib(memoryBefore[i]?.rss ?? null)} -> ${mib(memoryAfter[i]?.rss ?? null)}, ` +
        `peak ${mib(memoryAfter[i]?.peak ?? null)}`,
    );
  }
  console.log(problems.length === 0 ? 'OK: no rule broken' : `FAILED: ${problems.length} problem(s)`);
  exitCode = problems.length === 0 ? 0 : 1;
} catch (error) {
  console.error('soak aborted:', error);
  exitCode = 1;
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await db.drop().catch((error) => console.error('drop failed:', (error as Error).message));
}
process.exit(exitCode);
