// Two app instances on one Postgres database (architecture: stateless app servers over one Postgres). The overlap
// guarantee lives in the database, so a booking race spread over both instances must give only 201 or 409 and leave
// no two pending/confirmed bookings of the host overlapping; and the per-key rate-limit window is one count shared
// by both instances (Postgres counters), so 300 requests over the two use it up and the 301st gets 429 on either.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Instance, type PreparedDatabase, prepareDatabase, sleep, startInstance } from './_instance';
import { apiDocumentWithKeys, bookingRace, checkRace, isErrorBody, pool, request } from './_scenarios';

// Deadlocks between overlapping inserts come in bursts: several rounds in separate windows catch them far more
// often than one long round. About 2 s per round on this machine when nothing goes wrong.
const RACE_ROUNDS = 4;
const RACE_REQUESTS = 250;
const RACE_CONCURRENCY = 32;
const RACE_KEYS = 8;
const KEY_LIMIT = 300;

describe('two app instances on one Postgres database', () => {
  let db: PreparedDatabase;
  let servers: Instance[] = [];

  before(async () => {
    db = await prepareDatabase('postgres', apiDocumentWithKeys('race', RACE_KEYS));
    // One at a time: two cold starts at once double the time on a 2-core machine and gain nothing.
    servers = [await startInstance(db.env), await startInstance(db.env)];
  });

  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await db?.drop();
  });

  test('a booking race over both instances: only 201 or 409, and no overlapping bookings afterwards', async (t) => {
    const ada = db.seed.hosts.ada;
    const keys = Array.from({ length: RACE_KEYS }, (_, i) => ada?.api_keys[`race-${i}`] as string);
    const pageId = ada?.pages.intro?.id as string;
    const sql = db.sql as NonNullable<PreparedDatabase['sql']>;
    for (let round = 0; round < RACE_ROUNDS; round++) {
      // Years ahead, one day per round: far from anything else; a secret key may book any free time.
      const base = Math.floor((Date.now() + (3 * 365 + round) * 86_400_000) / 3_600_000) * 3_600_000;
      const race = await bookingRace({
        servers,
        keys,
        pageId,
        requests: RACE_REQUESTS,
        concurrency: RACE_CONCURRENCY,
        baseMs: base,
        windowMinutes: 8 * 60,
        seed: 20_261_122 + round,
        tag: `race${round}`,
      });
      const check = await checkRace(sql, `race${round}`, race.createdIds);
      const context = JSON.stringify({ round, statuses: race.statuses, check, seconds: race.seconds.toFixed(1) });
      t.diagnostic(context);
      assert.deepEqual(
        race.unexpected.slice(0, 5),
        [],
        `every answer is 201 or the spec's 409 (${race.unexpected.length} are not): ${context}`,
      );
      assert.equal(check.overlaps, 0, `no overlapping pending/confirmed bookings: ${context}`);
      assert.equal(check.rows, race.createdIds.length, `one row per 201 and none for a 409: ${context}`);
      assert.equal(check.missing, 0, `every 201 is a confirmed booking in the database: ${context}`);
      assert.ok((race.statuses[201] ?? 0) > 0 && (race.statuses[409] ?? 0) > 0, `the race was contested: ${context}`);
    }
  });

  test('one key: 300 requests over both instances use up the window, the 301st gets 429 on either', async () => {
    const key = db.seed.hosts.ada?.api_keys['limit-secret'] as string;
    // The window is a fixed UTC minute (database clock, same machine): start with room for the whole burst.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 25_000) await sleep(left + 500);
    const statuses: number[] = new Array(KEY_LIMIT);
    await pool(KEY_LIMIT, 12, async (i) => {
      const server = servers[i % 2] as Instance;
      const answer = await request(`${server.api}/booking-pages`, { method: 'GET', key });
      statuses[i] = answer.status;
    });
    const counts: Record<number, number> = {};
    for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
    assert.deepEqual(counts, { 200: KEY_LIMIT }, 'the first 300 requests of the window pass');
    for (const [index, server] of servers.entries()) {
      const answer = await request(`${server.api}/booking-pages`, { method: 'GET', key });
      assert.equal(answer.status, 429, `request ${KEY_LIMIT + 1 + index} on instance ${index + 1}: ${answer.text}`);
      assert.ok(isErrorBody(answer), answer.text);
      assert.equal(
        (answer.body as { error: string }).error,
        'Rate limit exceeded. This secret key allows 300 requests per 60s window.',
      );
      assert.equal(answer.headers.get('x-ratelimit-limit'), '300');
      assert.equal(answer.headers.get('x-ratelimit-remaining'), '0');
      assert.ok(Number(answer.headers.get('retry-after')) >= 1, 'Retry-After');
    }
  });
});
