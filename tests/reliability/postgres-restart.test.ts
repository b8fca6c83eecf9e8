// The app under a light booking load loses its database and must (1) answer every request during the outage with
// the spec's 500 JSON body of that operation (never HTML, never a hang beyond the client's timeout), (2) recover by
// itself (new bookings succeed without a restart of the app), and (3) leave nothing half-written: every booking of a
// direct page has its outbox emails, no answer or outbox row is left without its booking, every 201 is in the
// database.
//
// Two ways to lose the database:
// - default: pg_terminate_backend on every connection of the app's database, repeatedly for two seconds (what a
//   failover or a pooler restart does to the app), on the shared local Postgres without disturbing anyone else;
// - RELIABILITY_RESTART_POSTGRES=1 or CI=true: a real `pg_ctlcluster 15 main restart` of the machine's Postgres.
//   It drops every other test's connections too, so it is off by default.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Instance, type PreparedDatabase, prepareDatabase, startInstance } from './_instance';
import { RESTART_ENABLED, restartPostgres, terminateBackends } from './_postgres';
import {
  apiDocumentWithKeys,
  badOutcomes,
  checkNothingHalfWritten,
  loadThroughOutage,
  type OutageResult,
  tally,
} from './_scenarios';

// The load sends up to ~150 requests a second; keys in turn keep each under the 300-a-minute limit.
const LOAD_KEYS = 8;

function describeResult(result: OutageResult): string {
  return JSON.stringify({
    statuses: tally(result.outcomes),
    recoveredAfterMs: result.recoveredAfterMs,
    disruptMs: result.disruptMs,
    created: result.createdIds.length,
  });
}

describe('Postgres connection loss under a light booking load', () => {
  let db: PreparedDatabase;
  let server: Instance;

  before(async () => {
    db = await prepareDatabase('postgres', apiDocumentWithKeys('load', LOAD_KEYS));
    server = await startInstance(db.env);
  });

  after(async () => {
    await server?.stop();
    await db?.drop();
  });

  const scenario = async (tag: string, disrupt: () => Promise<void>, diagnostic: (line: string) => void) => {
    const ada = db.seed.hosts.ada;
    // A distinct far-future stretch per scenario; every request books the next 30 minutes of it.
    const base =
      Math.floor((Date.now() + (4 * 365 + (tag === 'restart' ? 100 : 0)) * 86_400_000) / 3_600_000) * 3_600_000;
    const result = await loadThroughOutage({
      server,
      keys: Array.from({ length: LOAD_KEYS }, (_, i) => ada?.api_keys[`load-${i}`] as string),
      pageId: ada?.pages.intro?.id as string,
      slug: 'intro',
      clients: 4,
      pauseMs: 25,
      beforeMs: 1500,
      disrupt,
      recoverWithinMs: 20_000,
      afterMs: 2000,
      baseMs: base,
      tag,
      requestTimeoutMs: 15_000,
    });
    diagnostic(describeResult(result));
    const context = describeResult(result);
    assert.equal(server.child.exitCode, null, `the server is still running:\n${server.logs().slice(-3000)}`);
    assert.deepEqual(badOutcomes(result.outcomes).slice(0, 10), [], `only 2xx or the spec's 500 JSON: ${context}`);
    assert.ok(
      result.outcomes.every((o) => o.answer.status !== 0),
      `no request hung or lost its connection: ${context}`,
    );
    assert.notEqual(result.recoveredAfterMs, null, `a booking succeeded within 20 s of the outage: ${context}`);
    const afterwards = result.outcomes.filter((o) => o.phase === 'after');
    assert.ok(afterwards.length > 0, `load continued after recovery: ${context}`);
    assert.ok(
      afterwards.every((o) => o.answer.status >= 200 && o.answer.status < 300),
      `every request after recovery succeeds: ${context}`,
    );
    const check = await checkNothingHalfWritten(db.sql as NonNullable<PreparedDatabase['sql']>, result.createdIds);
    assert.deepEqual(
      check,
      { direct_without_outbox: 0, responses_without_booking: 0, outbox_without_booking: 0, missing: 0 },
      `nothing half-written: ${context}`,
    );
  };

  test('pg_terminate_backend of all the app’s connections, repeatedly for 2 s', async (t) => {
    const database = new URL(db.env.DATABASE_URL as string).pathname.slice(1);
    let terminated = 0;
    await scenario(
      'terminate',
      async () => {
        terminated = await terminateBackends(database, 2000);
      },
      (line) => t.diagnostic(line),
    );
    t.diagnostic(`${terminated} backends terminated`);
    assert.ok(terminated > 0, 'the app had connections to terminate');
  });

  test('a real restart of the local Postgres cluster', {
    skip: RESTART_ENABLED
      ? false
      : 'restarts the machine’s shared Postgres: set RELIABILITY_RESTART_POSTGRES=1 (or CI=true) to run it',
  }, async (t) => {
    await scenario('restart', restartPostgres, (line) => t.diagnostic(line));
  });
});
