// The per-key rate limit through @upstash/ratelimit: the app talks REST to a local Upstash stand-in in front of
// the real Redis, so our code runs unchanged and only the vendor's HTTP endpoint is replaced.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiDocument } from '../helpers/fixtures';
import { startServer, type TestServer } from '../helpers/server';
import { startUpstashStandIn, type UpstashStandIn } from '../helpers/upstash-server';

describe('rate limits on Upstash', () => {
  let upstash: UpstashStandIn;
  let servers: TestServer[] = [];
  before(async () => {
    upstash = await startUpstashStandIn();
    const env = { UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token };
    const first = await startServer('postgres', apiDocument(), env);
    servers = [first];
  });
  after(async () => {
    for (const server of servers) await server.stop();
    await upstash?.close();
  });

  test('a publishable key gets 120 requests per window, then 429 with the headers', async () => {
    const [server] = servers as [TestServer];
    const key = server.seed.hosts.ada?.api_keys['limit-publishable'] as string;
    // Start just after a window boundary so the burst cannot straddle two windows.
    const secondsLeft = 60 - (Math.floor(Date.now() / 1000) % 60);
    if (secondsLeft < 20) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000 + 200));
    const before = upstash.requests();
    const statuses: number[] = [];
    for (let batch = 0; batch < 12; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(`${server.api}/booking-pages`, { headers: { authorization: `Bearer ${key}` } }),
        ),
      );
      for (const response of responses) {
        statuses.push(response.status);
        assert.equal(response.headers.get('x-ratelimit-limit'), null);
        await response.arrayBuffer();
      }
    }
    assert.deepEqual(new Set(statuses), new Set([200]));
    const limited = await fetch(`${server.api}/booking-pages`, { headers: { 'x-service-key': key } });
    assert.equal(limited.status, 429);
    assert.deepEqual(await limited.json(), {
      error: 'Rate limit exceeded. This publishable key allows 120 requests per 60s window.',
    });
    assert.equal(limited.headers.get('x-ratelimit-limit'), '120');
    assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
    const reset = Number(limited.headers.get('x-ratelimit-reset'));
    const retryAfter = Number(limited.headers.get('retry-after'));
    const now = Date.now() / 1000;
    assert.ok(reset > now && reset <= now + 61, `reset ${reset} within the window`);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `retry-after ${retryAfter}`);
    // The counting happened in Redis, through the REST stand-in, not in Postgres.
    assert.ok(upstash.requests() - before >= 121);
    const counters = await server.sql?.('select count(*)::int as n from rate_limit_counters');
    assert.equal(counters?.[0]?.n, 0);
    const keys = await upstash.redis.keys('booking-service:*');
    assert.ok(keys.length > 0);
  });
});
