// Authentication, scopes, CORS, the per-key rate limit and unknown paths (spec: Authentication, Errors, Limits;
// README: "REST API: choices where the spec says 'not shown'").
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { apiDocument } from '../helpers/fixtures';
import { BACKENDS, startServer, type TestServer } from '../helpers/server';
import {
  type ApiResponse,
  assertError,
  assertStatus,
  awaitRoomInWindow,
  bookingBody,
  call,
  type Host,
  host,
  hostDay,
  inBatches,
  missingScope,
  NEW_YORK,
  slotAt,
  uniqueEmail,
} from './_client';

const MISSING = 'Missing API key. Send `Authorization: Bearer <key>` or `x-service-key` header.';
const RATE_HEADERS = ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const ORIGIN = 'https://shop.example.org';

type Endpoint = { op: string; method: string; path: string; json?: unknown; methods: string[] };

function assertNoRateLimitHeaders(response: ApiResponse, context: string) {
  for (const name of RATE_HEADERS) {
    assert.equal(response.headers.get(name), null, `${context}: a ${response.status} carries no ${name}`);
  }
}

function headerList(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '');
}

for (const backend of BACKENDS) {
  describe(`API auth, CORS and rate limits on ${backend}`, () => {
    let server: TestServer;
    let ada: Host;
    const day = hostDay(NEW_YORK, 9);

    before(async () => {
      server = await startServer(backend, apiDocument());
      ada = host(server, 'ada');
    });
    after(() => server?.stop());

    const endpoints = (): Endpoint[] => {
      const slot = slotAt(day, '10:00', 30);
      const bookingId = randomUUID();
      return [
        { op: 'listBookingPages', method: 'GET', path: '/booking-pages', methods: ['GET'] },
        { op: 'getBookingPage', method: 'GET', path: '/booking-pages/intro', methods: ['GET'] },
        { op: 'listSlots', method: 'GET', path: `/booking-pages/intro/slots?date=${day}`, methods: ['GET'] },
        {
          op: 'createBooking',
          method: 'POST',
          path: '/bookings',
          json: bookingBody({ bookingPageId: ada.page('intro').id, startTime: slot.start, endTime: slot.end }),
          methods: ['POST', 'GET'],
        },
        { op: 'listBookings', method: 'GET', path: '/bookings', methods: ['GET', 'POST'] },
        { op: 'getBooking', method: 'GET', path: `/bookings/${bookingId}`, methods: ['GET', 'PATCH', 'DELETE'] },
        {
          op: 'updateBooking',
          method: 'PATCH',
          path: `/bookings/${bookingId}`,
          json: { status: 'confirmed' },
          methods: ['GET', 'PATCH', 'DELETE'],
        },
        { op: 'cancelBooking', method: 'DELETE', path: `/bookings/${bookingId}`, methods: ['GET', 'PATCH', 'DELETE'] },
        { op: 'listPublicBookingPages', method: 'GET', path: '/embed/booking?username=ada', methods: ['GET'] },
      ];
    };

    test('the key is accepted as `Authorization: Bearer` and as `x-service-key`', async () => {
      for (const name of ['secret', 'publishable']) {
        for (const keyHeader of ['bearer', 'x-service-key'] as const) {
          const response = await call<{ data: unknown[] }>(server, 'GET', '/booking-pages', {
            key: ada.key(name),
            keyHeader,
          });
          assertStatus(response, 200, `${name} via ${keyHeader}`);
          assert.equal(response.body.data.length, 5);
        }
      }
      const bookings = await call(server, 'GET', '/bookings', { key: ada.key('secret'), keyHeader: 'x-service-key' });
      assertStatus(bookings, 200, 'secret key via x-service-key on GET /bookings');
    });

    test('Authorization: Bearer wins when both headers are sent (README)', async () => {
      const bearerValid = await call(server, 'GET', '/booking-pages', {
        key: ada.key('secret'),
        headers: { 'x-service-key': `service_sk_${randomBytes(32).toString('base64url')}` },
      });
      assertStatus(bearerValid, 200, 'valid Bearer, unknown x-service-key');
      const bearerInvalid = await call(server, 'GET', '/booking-pages', {
        key: `service_sk_${randomBytes(32).toString('base64url')}`,
        headers: { 'x-service-key': ada.key('secret') },
      });
      assertError(bearerInvalid, 401, 'Invalid API key', 'unknown Bearer, valid x-service-key');
    });

    test('a missing key is 401 on every endpoint with the exact message', async () => {
      for (const endpoint of endpoints()) {
        const response = await call(server, endpoint.method, endpoint.path, { json: endpoint.json });
        assertError(response, 401, MISSING, endpoint.op);
      }
    });

    test('unknown keys are 401 `Invalid API key`', async () => {
      const keys = [
        `service_sk_${randomBytes(32).toString('base64url')}`,
        `service_pk_${randomBytes(32).toString('base64url')}`,
        'not-a-service-key',
        randomBytes(24).toString('hex'),
      ];
      for (const key of keys) {
        for (const keyHeader of ['bearer', 'x-service-key'] as const) {
          const pages = await call(server, 'GET', '/booking-pages', { key, keyHeader });
          assertError(pages, 401, 'Invalid API key', `${key} via ${keyHeader}`);
        }
        const bookings = await call(server, 'GET', '/bookings', { key });
        assertError(bookings, 401, 'Invalid API key', `${key} on GET /bookings`);
      }
    });

    test('revoked and expired keys are 401; a key expiring in the future works', async () => {
      for (const endpoint of endpoints()) {
        const revoked = await call(server, endpoint.method, endpoint.path, {
          key: ada.key('revoked'),
          json: endpoint.json,
        });
        assertError(revoked, 401, 'API key has been revoked', endpoint.op);
        const expired = await call(server, endpoint.method, endpoint.path, {
          key: ada.key('expired'),
          keyHeader: 'x-service-key',
          json: endpoint.json,
        });
        assertError(expired, 401, 'API key has expired', endpoint.op);
      }
      const future = ada.key('future');
      assertStatus(await call(server, 'GET', '/booking-pages', { key: future }), 200, 'future key, pages');
      assertStatus(await call(server, 'GET', '/bookings', { key: future }), 200, 'future key, bookings');
    });

    test('a key without the scope gets 403 naming the missing scope', async () => {
      const publishable = ada.key('publishable');
      const readOnly = ada.key('read-only');
      const slotsOnly = ada.key('slots-only');
      const [, , , createBooking, , getBooking, updateBooking, cancelBooking] = endpoints();
      assert.ok(createBooking && getBooking && updateBooking && cancelBooking);
      const cases: [string, string, string, string, unknown][] = [
        ['publishable', publishable, 'GET', '/bookings', 'bookings:read'],
        ['publishable', publishable, 'GET', getBooking.path, 'bookings:read'],
        ['publishable', publishable, 'PATCH', updateBooking.path, 'bookings:write'],
        ['publishable', publishable, 'DELETE', cancelBooking.path, 'bookings:write'],
        ['read-only', readOnly, 'GET', `/booking-pages/intro/slots?date=${day}`, 'booking_pages:slots'],
        ['read-only', readOnly, 'POST', '/bookings', 'bookings:create'],
        ['read-only', readOnly, 'GET', '/bookings', 'bookings:read'],
        ['read-only', readOnly, 'PATCH', updateBooking.path, 'bookings:write'],
        ['slots-only', slotsOnly, 'GET', '/booking-pages', 'booking_pages:read'],
        ['slots-only', slotsOnly, 'GET', '/booking-pages/intro', 'booking_pages:read'],
        ['slots-only', slotsOnly, 'GET', '/embed/booking?username=ada', 'booking_pages:read'],
        ['slots-only', slotsOnly, 'POST', '/bookings', 'bookings:create'],
      ];
      for (const [name, key, method, path, scope] of cases) {
        const json = method === 'POST' ? createBooking.json : method === 'PATCH' ? updateBooking.json : undefined;
        const response = await call(server, method, path, { key, json });
        assertError(response, 403, missingScope(String(scope)), `${name} ${method} ${path}`);
      }
      // What the keys do hold works.
      assertStatus(await call(server, 'GET', '/booking-pages/intro', { key: readOnly }), 200, 'read-only page');
      assertStatus(
        await call(server, 'GET', `/booking-pages/intro/slots?date=${day}`, { key: slotsOnly }),
        200,
        'slots-only slots',
      );
      // The database-backed rule too: nothing was booked by the refused createBooking requests.
      const list = await call<{ data: unknown[] }>(server, 'GET', '/bookings', { key: ada.key('secret') });
      assertStatus(list, 200);
      assert.deepEqual(list.body.data, []);
    });

    test('CORS preflight: OPTIONS on every endpoint answers 204 without a key', async () => {
      for (const endpoint of endpoints()) {
        const response = await fetch(`${server.api}${endpoint.path}`, {
          method: 'OPTIONS',
          headers: {
            origin: ORIGIN,
            'access-control-request-method': endpoint.method,
            'access-control-request-headers': 'authorization, x-service-key, content-type',
          },
        });
        await response.arrayBuffer();
        assert.equal(response.status, 204, `${endpoint.op}: OPTIONS status`);
        assert.equal(response.headers.get('access-control-allow-origin'), '*', endpoint.op);
        const allowHeaders = headerList(response.headers.get('access-control-allow-headers'));
        for (const name of ['authorization', 'x-service-key', 'content-type']) {
          assert.ok(allowHeaders.includes(name), `${endpoint.op}: allow-headers ${allowHeaders} lacks ${name}`);
        }
        const allowMethods = headerList(response.headers.get('access-control-allow-methods'));
        for (const method of [...endpoint.methods, 'OPTIONS']) {
          assert.ok(
            allowMethods.includes(method.toLowerCase()),
            `${endpoint.op}: allow-methods ${allowMethods} lacks ${method}`,
          );
        }
        assert.equal(response.headers.get('access-control-max-age'), '86400', `${endpoint.op}: max-age (README)`);
      }
    });

    test('actual responses carry Access-Control-Allow-Origin: *, errors included', async () => {
      const headers = { origin: ORIGIN };
      const secret = ada.key('secret');
      const responses: [string, ApiResponse, number][] = [
        ['200 listBookingPages', await call(server, 'GET', '/booking-pages', { key: secret, headers }), 200],
        [
          '200 listSlots',
          await call(server, 'GET', `/booking-pages/intro/slots?date=${day}`, {
            key: ada.key('publishable'),
            headers,
          }),
          200,
        ],
        ['400 listSlots', await call(server, 'GET', '/booking-pages/intro/slots', { key: secret, headers }), 400],
        ['401 missing key', await call(server, 'GET', '/booking-pages', { headers }), 401],
        ['401 invalid key', await call(server, 'GET', '/booking-pages', { key: 'nope', headers }), 401],
        ['403 scope', await call(server, 'GET', '/bookings', { key: ada.key('publishable'), headers }), 403],
        ['404 page', await call(server, 'GET', '/booking-pages/no-such-page', { key: secret, headers }), 404],
        ['404 booking', await call(server, 'GET', `/bookings/${randomUUID()}`, { key: secret, headers }), 404],
      ];
      const slot = slotAt(day, '11:00', 30);
      const booking = bookingBody({ bookingPageId: ada.page('intro').id, startTime: slot.start, endTime: slot.end });
      responses.push([
        '201 createBooking',
        await call(server, 'POST', '/bookings', { key: secret, json: booking, headers }),
        201,
      ]);
      responses.push([
        '409 createBooking',
        await call(server, 'POST', '/bookings', {
          key: secret,
          json: { ...booking, guestEmail: uniqueEmail() },
          headers,
        }),
        409,
      ]);
      for (const [name, response, status] of responses) {
        assert.equal(response.status, status, `${name}: ${response.text}`);
        assert.equal(response.headers.get('access-control-allow-origin'), '*', name);
        assertNoRateLimitHeaders(response, name);
      }
    });

    test('unknown paths under /api/v1 are 404 `Not found`; a method an endpoint lacks is 405 (README)', async () => {
      for (const path of ['/nope', '/bookings/x/y', '/booking-pages/intro/slots/extra']) {
        const response = await call(server, 'GET', path, { key: ada.key('secret') });
        assertError(response, 404, 'Not found', path);
      }
      const put = await call(server, 'PUT', '/booking-pages', { key: ada.key('secret'), json: {} });
      assertError(put, 405, 'Method not allowed', 'PUT /booking-pages');
      const allow = headerList(put.headers.get('allow'));
      assert.ok(allow.includes('get'), `Allow: ${allow}`);
      assert.ok(!allow.includes('put'), `Allow: ${allow}`);
      const post = await call(server, 'POST', `/bookings/${randomUUID()}`, { key: ada.key('secret'), json: {} });
      assertError(post, 405, 'Method not allowed', 'POST /bookings/{id}');
      const allowed = headerList(post.headers.get('allow'));
      for (const method of ['get', 'patch', 'delete']) assert.ok(allowed.includes(method), `Allow: ${allowed}`);
    });

    test('/api/v1 itself and paths whose percent-encoding does not decode are the same JSON 404 (README)', async () => {
      for (const path of ['', '/', '/bookings/%E0%A4%A', '/booking-pages/%zz', '/%']) {
        const response = await call(server, 'GET', path, { key: ada.key('secret') });
        assertError(response, 404, 'Not found', path);
        assert.equal(response.headers.get('access-control-allow-origin'), '*', path);
      }
    });

    for (const [name, limit, type] of [
      ['limit-publishable', 120, 'publishable'],
      ['limit-secret', 300, 'secret'],
    ] as const) {
      test(`the ${type} key limit: ${limit} requests per 60 s window, then 429 with rate-limit headers`, async () => {
        const key = ada.key(name);
        // Fixed one-minute windows: start the burst with enough of the current minute left.
        await awaitRoomInWindow(60_000, 20_000);
        const started = Date.now();
        const oks = await inBatches(limit, 25, () => call(server, 'GET', '/booking-pages', { key }));
        assert.ok(Date.now() - started < 20_000, 'the burst fits in the window');
        oks.forEach((response, i) => {
          assertStatus(response, 200, `request ${i + 1} of ${limit}`);
          assertNoRateLimitHeaders(response, `request ${i + 1}`);
        });

        const limited = await call(server, 'GET', '/booking-pages', { key, headers: { origin: ORIGIN } });
        const now = Date.now() / 1000;
        assertError(limited, 429, `Rate limit exceeded. This ${type} key allows ${limit} requests per 60s window.`);
        assert.equal(limited.headers.get('access-control-allow-origin'), '*', '429 carries CORS');
        const retryAfter = limited.headers.get('retry-after') ?? '';
        assert.match(retryAfter, /^\d+$/, `Retry-After ${retryAfter}`);
        assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter}`);
        assert.equal(limited.headers.get('x-ratelimit-limit'), String(limit));
        assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
        const reset = limited.headers.get('x-ratelimit-reset') ?? '';
        assert.match(reset, /^\d+$/, `X-RateLimit-Reset ${reset}`);
        assert.ok(
          Number(reset) >= Math.floor(now) && Number(reset) <= now + 61,
          `X-RateLimit-Reset ${reset} at ${now}`,
        );
        assert.ok(Math.abs(Number(reset) - (now + Number(retryAfter))) <= 2, 'Reset agrees with Retry-After');
        const exposed = headerList(limited.headers.get('access-control-expose-headers'));
        for (const header of RATE_HEADERS) {
          assert.ok(exposed.includes(header), `Access-Control-Expose-Headers ${exposed} lacks ${header} (README)`);
        }

        // Every endpoint counts against the same key; the limit comes before the scope check (README).
        const other = await call(server, 'GET', `/booking-pages/intro/slots?date=${day}`, { key });
        assert.equal(other.status, 429, `slots with the exhausted key: ${other.text}`);
        if (type === 'publishable') {
          const scope = await call(server, 'GET', '/bookings', { key });
          assert.equal(scope.status, 429, `GET /bookings with the exhausted publishable key: ${scope.text}`);
        }
        // Other keys of the account are unaffected; a bad key is still 401 first.
        assertStatus(await call(server, 'GET', '/booking-pages', { key: ada.key('secret') }), 200, 'other key');
        assertError(await call(server, 'GET', '/booking-pages', { key: 'nope' }), 401, 'Invalid API key');
      });
    }
  });
}
