// Property-based fuzzing of every endpoint (fast-check) against the production server on the embedded default:
// malformed JSON, wrong types, huge strings, odd Unicode (lone surrogates, RTL marks, emoji, NUL, invalid UTF-8),
// bad UUIDs, bad dates, bad percent-encoding and odd headers. Whatever the input, the answer is never a 5xx, never
// HTML or plain text, never a hang: it is the operation's success shape or `{ "error": string }` JSON with a status
// of the expected class. Bodies over 64 KiB get 413, with or without Content-Length.
//
// Runs per property: FUZZ_RUNS (default 100); FUZZ_SEED replays a failure (fast-check prints the seed and path).
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { type Instance, type PreparedDatabase, prepareDatabase, startInstance } from './_instance';
import { type Answer, apiDocumentWithKeys, fetchAnswer, isErrorBody, request } from './_scenarios';

const RUNS = Number(process.env.FUZZ_RUNS || 100);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const KEYS = 24;
const MAX_BODY_BYTES = 64 * 1024;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---------------------------------------------------------------------------------------------------------------
// Generators

/** Single units of odd text: any code point, lone surrogates, NUL and other controls, bidi marks, emoji, URL syntax. */
const oddUnit = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\ud800',
      '\udbff',
      '\udc00',
      '\udfff',
      '\u0000',
      '\u0001',
      '\u001f',
      '\u007f',
      '\u0085',
      '\u00a0',
      '\u202e',
      '\u202d',
      '\u200f',
      '\u200b',
      '\u2028',
      '\ufeff',
      '\ufffe',
      '\uffff',
      '\u{10ffff}',
      'e\u0301',
      '🎉',
      '👩‍👩‍👧',
      'مرحبا',
      'ﷺ',
      '%',
      '%00',
      '%zz',
      '%FF',
      '/',
      '\\',
      '..',
      '"',
      "'",
      '<',
      '>',
      '&',
      '?',
      '#',
      '{',
      '}',
      '[',
      ']',
      ' ',
      '\t',
      '\n',
      '\r',
    ),
  },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
);

const oddString = fc.string({ unit: oddUnit, maxLength: 40 });
/** Sometimes huge: up to ~70,000 characters (over the 64 KiB body limit once encoded). */
const hugeString = fc
  .tuple(fc.constantFrom('a', 'é', '🎉', '\u0000', '\ud800', '"'), fc.integer({ min: 1_000, max: 70_000 }))
  .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));
/** NUL is the character Postgres text refuses: worth more than its share of the odd units. */
const withNul = fc.tuple(oddString, oddString).map(([a, b]) => `${a}\u0000${b}`);
const anyString = fc.oneof(
  { weight: 6, arbitrary: oddString },
  { weight: 1, arbitrary: withNul },
  { weight: 1, arbitrary: hugeString },
);

const badDate = fc.oneof(
  fc.constantFrom(
    '2026-02-30T10:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T23:59:60Z',
    '0000-01-01T00:00:00Z',
    '0099-12-31T23:59:59Z',
    '9999-12-31T23:59:59.999Z',
    '+275760-09-13T00:00:00.000Z',
    '-000001-01-01T00:00:00Z',
    '2026-01-01',
    '2026-01-01T10:00:00+25:00',
    '2026-01-01T10:00:00.1234567891Z',
    '2026-W01-1',
    '1e10',
    '',
    ' ',
    'now',
    'NaN',
    'Invalid Date',
  ),
  fc.date({ noInvalidDate: false }).map((d) => (Number.isNaN(d.getTime()) ? 'Invalid Date' : d.toISOString())),
  fc.integer().map(String),
  oddString,
);

/** A value of any JSON type, weighted towards strings and wrong types. */
const anyJson = fc.oneof(
  { weight: 3, arbitrary: anyString },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1e308, [], {}, [null], { questionId: 1 }) },
);

/** Percent-encodes a string as UTF-8, encoding lone surrogates as their (invalid) WTF-8 bytes. */
function encodeSegment(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0) as number;
    if (/^[A-Za-z0-9\-._~]$/.test(char)) out += char;
    else if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** A path segment: well encoded odd text, or raw junk (bad percent sequences, invalid UTF-8, NUL). */
const pathSegment = fc.oneof(
  { weight: 4, arbitrary: oddString.filter((s) => s.length > 0).map(encodeSegment) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.constantFrom('%', '%zz', '%00', '%FF', '%C0%AF', '%ED%A0%80', '%E2%82', 'a', '%2F', '%2e%2e', '%25'), {
        minLength: 1,
        maxLength: 5,
      })
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.uuid().map((id) => (Math.random() < 0.5 ? id : id.toUpperCase())) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 5_000 }).map((n) => 'a'.repeat(n)) },
);

const queryValue = fc.oneof(
  oddString.map(encodeSegment),
  fc.constantFrom('%', '%zz', '%00', '%FF', '%ED%A0%80', '', '1', '0', '-1', '200', '201', '1e3', '9'.repeat(40)),
);

// ---------------------------------------------------------------------------------------------------------------
// Checks

/** The rules every answer keeps: no 5xx, no network failure or hang, JSON, the spec's error shape for errors. */
function assertApiAnswer(answer: Answer, allowed: readonly number[], context: string): void {
  const where = `${context} -> ${answer.status} ${answer.contentType} ${answer.text.slice(0, 300)}`;
  assert.notEqual(answer.status, 0, `no network error or timeout: ${where}`);
  assert.ok(answer.status < 500, `no 5xx: ${where}`);
  assert.ok(allowed.includes(answer.status), `status is one of ${allowed.join(', ')}: ${where}`);
  if (answer.status === 204) return;
  assert.match(answer.contentType, /^application\/json/, `JSON: ${where}`);
  if (answer.status >= 400) assert.ok(isErrorBody(answer), `the body is exactly { "error": string }: ${where}`);
  else assert.ok(answer.body !== null && typeof answer.body === 'object', `a JSON object: ${where}`);
}

type Raw = { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer };

/** A request with a raw (already encoded) path and any body. */
function send(server: Instance, raw: Raw): Promise<Answer> {
  const body = typeof raw.body === 'string' || raw.body === undefined ? raw.body : new Uint8Array(raw.body);
  return fetchAnswer(`${server.origin}${raw.path}`, { method: raw.method, headers: raw.headers, body });
}

const show = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text && text.length > 200 ? `${text.slice(0, 200)}… (${text.length} chars)` : text;
};

type RawAnswer = { status: number; type: string; body: string };
/** The first complete response on the socket (the server may keep it open to drain a body it refused). */
function parseRaw(data: Buffer): RawAnswer | null {
  const text = data.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return null;
  const head = text.slice(0, split);
  let payload = text.slice(split + 4);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  const type = /^content-type: *(.*)$/im.exec(head)?.[1] ?? '';
  const length = /^content-length: *(\d+)$/im.exec(head)?.[1];
  if (length !== undefined) {
    if (Buffer.byteLength(payload, 'latin1') < Number(length)) return null;
    payload = payload.slice(0, Number(length));
  } else if (/^transfer-encoding: *chunked/im.test(head)) {
    if (!payload.endsWith('0\r\n\r\n')) return null;
    let decoded = '';
    let rest = payload;
    for (;;) {
      const eol = rest.indexOf('\r\n');
      const size = Number.parseInt(rest.slice(0, eol), 16);
      if (!size) break;
      decoded += rest.slice(eol + 2, eol + 2 + size);
      rest = rest.slice(eol + 4 + size);
    }
    payload = decoded;
  }
  return { status, type, body: Buffer.from(payload, 'latin1').toString('utf8') };
}
/** Sends a hand-written request (head lines without the blank line) on a fresh socket. */
function rawClient(server: Instance, timeoutMs: number) {
  const { port } = new URL(server.origin);
  return (head: string, body: Buffer = Buffer.alloc(0)): Promise<RawAnswer> =>
    new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let data = Buffer.alloc(0);
      socket.setTimeout(timeoutMs, () => socket.destroy(new Error('timeout')));
      socket.on('data', (chunk) => {
        data = Buffer.concat([data, chunk]);
        const answer = parseRaw(data);
        if (answer) {
          socket.destroy();
          resolve(answer);
        }
      });
      socket.on('error', reject);
      socket.on('close', () => reject(new Error(`closed without a complete response: ${data.toString('latin1')}`)));
      socket.write(Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), body]));
    });
}

// ---------------------------------------------------------------------------------------------------------------

describe('fuzzing every endpoint (PGlite)', () => {
  let db: PreparedDatabase;
  let server: Instance;
  let keys: string[];
  let turn = 0;
  /** The next of the fuzz keys: no key gets near its 300 requests a minute. */
  const key = () => keys[turn++ % keys.length] as string;
  const auth = () => ({ authorization: `Bearer ${key()}` });
  let adaPage: string;
  let bobPage: string;
  let question: string;
  let booking: string;
  /** Known dangerous inputs run first on every seed, then RUNS generated ones. */
  const params = <T>(examples: T[] = []) => ({ numRuns: RUNS, seed: SEED, examples });

  before(async () => {
    db = await prepareDatabase('pglite', apiDocumentWithKeys('fuzz', KEYS));
    server = await startInstance(db.env);
    const ada = db.seed.hosts.ada;
    keys = Array.from({ length: KEYS }, (_, i) => ada?.api_keys[`fuzz-${i}`] as string);
    adaPage = ada?.pages.intro?.id as string;
    question = ada?.pages.intro?.questions[0] as string;
    bobPage = db.seed.hosts.bob?.pages.intro?.id as string;
    const created = await request(`${server.api}/bookings`, {
      method: 'POST',
      key: key(),
      json: {
        bookingPageId: adaPage,
        guestName: 'Fuzz target',
        guestEmail: 'fuzz-target@example.com',
        startTime: '2031-06-01T15:00:00Z',
        endTime: '2031-06-01T15:30:00Z',
      },
    });
    assert.equal(created.status, 201, created.text);
    booking = (created.body as { data: { id: string } }).data.id;
  });
  after(async () => {
    await server?.stop();
    await db?.drop();
  });

  test('GET/PATCH/DELETE /bookings/{id} with any id', async () => {
    await fc.assert(
      fc.asyncProperty(pathSegment, fc.constantFrom('GET', 'PATCH', 'DELETE'), async (id, method) => {
        const body = method === 'PATCH' ? JSON.stringify({ status: 'cancelled' }) : undefined;
        const headers = { ...auth(), ...(body ? { 'content-type': 'application/json' } : {}) };
        const answer = await send(server, { method, path: `/api/v1/bookings/${id}`, headers, body });
        // A path segment can also end the path early (`%2F` stays encoded, `..` is normalised away by fetch).
        assertApiAnswer(answer, [200, 404, 405], `${method} /bookings/${show(id)}`);
        if (answer.status === 200) assert.ok(UUID_RE.test(decodeURIComponent(id)), `only a real id finds a booking`);
      }),
      params<[string, string]>([
        ['%', 'GET'],
        ['%FF', 'DELETE'],
        ['%ED%A0%80', 'PATCH'],
        ['%00', 'GET'],
      ]),
    );
  });

  test('GET /booking-pages/{slug} and /slots with any slug', async () => {
    await fc.assert(
      fc.asyncProperty(pathSegment, fc.boolean(), async (slug, slots) => {
        const path = `/api/v1/booking-pages/${slug}${slots ? '/slots?date=2031-01-06' : ''}`;
        const answer = await send(server, { method: 'GET', path, headers: auth() });
        assertApiAnswer(answer, [200, 404], `GET ${show(path)}`);
      }),
      params<[string, boolean]>([
        ['%00', false],
        ['%00', true],
        ['%', false],
        ['%FF', true],
      ]),
    );
  });

  test('GET /booking-pages/intro/slots with any date', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(queryValue, badDate.map(encodeSegment)), async (date) => {
        const answer = await send(server, {
          method: 'GET',
          path: `/api/v1/booking-pages/intro/slots?date=${date}`,
          headers: auth(),
        });
        assertApiAnswer(answer, [200, 400], `GET slots?date=${show(date)}`);
      }),
      params(),
    );
  });

  test('GET /bookings with any status and limit, GET /embed/booking with any username', async () => {
    await fc.assert(
      fc.asyncProperty(queryValue, queryValue, queryValue, async (status, limit, username) => {
        const list = await send(server, {
          method: 'GET',
          path: `/api/v1/bookings?status=${status}&limit=${limit}`,
          headers: auth(),
        });
        assertApiAnswer(list, [200, 400], `GET /bookings?status=${show(status)}&limit=${show(limit)}`);
        const embed = await send(server, {
          method: 'GET',
          path: `/api/v1/embed/booking?username=${username}`,
          headers: auth(),
        });
        assertApiAnswer(embed, [200, 400, 404], `GET /embed/booking?username=${show(username)}`);
      }),
      params<[string, string, string]>([['%00', '%00', '%00']]),
    );
  });

  test('POST /bookings with malformed JSON, wrong types, odd text, bad ids and dates', async () => {
    const validish = fc.record(
      {
        bookingPageId: fc.oneof(
          fc.constantFrom(adaPage, bobPage, adaPage.toUpperCase(), `${adaPage} `, adaPage.slice(0, 35)),
          fc.uuid(),
          anyJson,
        ),
        guestName: anyJson,
        guestEmail: fc.oneof(
          fc.emailAddress(),
          oddString.map((s) => `${s}@example.com`),
          fc.tuple(oddString, oddString).map(([a, b]) => `${a}@${b}.${a}`),
          anyJson,
        ),
        startTime: fc.oneof(badDate, anyJson),
        endTime: fc.oneof(badDate, anyJson),
        responses: fc.oneof(
          fc.array(fc.record({ questionId: fc.oneof(fc.constant(question), fc.uuid(), anyJson), answer: anyJson }), {
            maxLength: 3,
          }),
          anyJson,
        ),
      },
      { requiredKeys: [] },
    );
    const FIELDS = ['bookingPageId', 'guestName', 'guestEmail', 'startTime', 'endTime', 'responses'] as const;
    // One or two fields of an otherwise valid request replaced (or removed): reaches the checks behind the first.
    const mutation = fc.array(
      fc.oneof(
        fc.tuple(fc.constantFrom(...FIELDS), fc.oneof(anyJson, badDate, fc.constant(undefined))),
        fc.tuple(fc.constantFrom('answer', 'questionId'), anyJson),
      ),
      { minLength: 1, maxLength: 2 },
    );
    type Body =
      | { kind: 'text'; text: string }
      | { kind: 'bytes'; bytes: number[] }
      | { kind: 'mutated'; changes: [string, unknown][] };
    const body: fc.Arbitrary<Body> = fc.oneof(
      { weight: 4, arbitrary: mutation.map((changes) => ({ kind: 'mutated' as const, changes })) },
      { weight: 3, arbitrary: validish.map((value) => ({ kind: 'text' as const, text: JSON.stringify(value) })) },
      {
        weight: 1,
        arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => ({ kind: 'text' as const, text: JSON.stringify(v) })),
      },
      {
        weight: 1,
        arbitrary: fc
          .json()
          .map((text) => ({ kind: 'text' as const, text: text.slice(0, Math.max(0, text.length - 1)) })),
      },
      { weight: 1, arbitrary: oddString.map((text) => ({ kind: 'text' as const, text })) },
      // Invalid UTF-8 inside a JSON string: a lone surrogate's WTF-8 bytes, a stray continuation byte, 0xFF, NUL.
      {
        weight: 1,
        arbitrary: fc
          .constantFrom([0xed, 0xa0, 0x80], [0x80], [0xff], [0xc0, 0xaf], [0x00])
          .map((bytes) => ({ kind: 'bytes' as const, bytes: [...bytes] })),
      },
    );
    let sequence = 0;
    /** A valid request for a free time of its own (a secret key may book any free time) and a fresh address. */
    const valid = () => {
      sequence += 1;
      const start = Date.UTC(2045, 0, 1) + sequence * 3_600_000;
      return {
        bookingPageId: adaPage,
        guestName: 'Fuzz guest',
        guestEmail: `fuzz-${process.pid}-${sequence}@example.com`,
        startTime: new Date(start).toISOString(),
        endTime: new Date(start + 30 * 60_000).toISOString(),
        responses: [{ questionId: question, answer: 'a' }],
      };
    };
    const build = (input: Body): string | Buffer => {
      if (input.kind === 'text') return input.text;
      const request: Record<string, unknown> = valid();
      if (input.kind === 'bytes') {
        const text = JSON.stringify({ ...request, guestName: 'BYTES' });
        const [before, after] = text.split('BYTES') as [string, string];
        return Buffer.concat([Buffer.from(before), Buffer.from(input.bytes), Buffer.from(after)]);
      }
      for (const [field, value] of input.changes) {
        if (field === 'answer' || field === 'questionId') {
          request.responses = [{ questionId: question, answer: 'a', [field]: value }];
        } else if (value === undefined) delete request[field];
        else request[field] = value;
      }
      return JSON.stringify(request);
    };
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('application/json', 'text/plain', ''), async (input, type) => {
        const text = build(input);
        const headers: Record<string, string> = { ...auth(), ...(type ? { 'content-type': type } : {}) };
        const answer = await send(server, { method: 'POST', path: '/api/v1/bookings', headers, body: text });
        assertApiAnswer(answer, [201, 400, 403, 409, 413, 429], `POST /bookings ${show(text.toString())}`);
        if (answer.status === 429) {
          // Only the guest-email limit (a generated address repeated); the key limit is never reached here.
          assert.equal((answer.body as { error: string }).error, 'Too many booking requests. Please try again later.');
        }
        if (Buffer.byteLength(text) > MAX_BODY_BYTES) assert.equal(answer.status, 413, 'a body over 64 KiB is 413');
      }),
      params<[Body, string]>([
        [{ kind: 'mutated', changes: [['guestName', 'a\u0000b']] }, 'application/json'],
        [{ kind: 'mutated', changes: [['guestEmail', 'a\u0000b@example.com']] }, 'application/json'],
        [{ kind: 'mutated', changes: [['answer', 'x\u0000']] }, 'application/json'],
        [{ kind: 'mutated', changes: [['guestName', '\ud800\u202e🎉']] }, 'application/json'],
      ]),
    );
  });

  test('PATCH /bookings/{id} of a real booking with any body', async () => {
    const body = fc.oneof(
      fc
        .record(
          { status: fc.oneof(fc.constantFrom('confirmed', 'cancelled'), anyJson), reason: anyJson },
          { requiredKeys: [] },
        )
        .map((value) => JSON.stringify(value)),
      fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
      oddString,
    );
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const headers = { ...auth(), 'content-type': 'application/json' };
        const answer = await send(server, {
          method: 'PATCH',
          path: `/api/v1/bookings/${booking}`,
          headers,
          body: text,
        });
        assertApiAnswer(answer, [200, 400, 409, 413], `PATCH /bookings/{id} ${show(text)}`);
      }),
      params<[string]>([['{"status":"cancelled","reason":"\\u0000"}'], ['{"status":"confirmed","reason":"a\\u0000"}']]),
    );
  });

  test('any method on any endpoint with odd key and content headers', async () => {
    const endpoints = [
      '/api/v1/booking-pages',
      '/api/v1/booking-pages/intro',
      '/api/v1/booking-pages/intro/slots?date=2031-01-06',
      '/api/v1/bookings',
      '/api/v1/bookings?limit=1',
      `/api/v1/bookings/${'00000000-0000-4000-8000-000000000000'}`,
      '/api/v1/embed/booking?username=ada',
      '/api/v1/nope',
      '/api/v1/',
      '/api/v1',
    ];
    const keyHeaders = fc.oneof(
      fc.constant({}),
      fc
        .constantFrom(
          'Bearer',
          'Bearer ',
          'bearer KEY',
          'BEARER KEY',
          'Bearer KEY extra',
          'Basic dXNlcjpwYXNz',
          'KEY',
          'Bearer  KEY  ',
          'Bearer service_sk_',
          'Bearer service_pk_x',
        )
        .map((value) => ({ authorization: value.replace('KEY', key()) })),
      fc.string({ unit: 'grapheme-ascii', maxLength: 300 }).map((value) => ({ authorization: `Bearer ${value}` })),
      fc.string({ unit: 'grapheme-ascii', maxLength: 300 }).map((value) => ({ 'x-service-key': value })),
      fc.constant(null).map(() => ({ 'x-service-key': key(), authorization: 'Bearer wrong' })),
      fc.constant(null).map(() => ({ authorization: `Bearer ${key()}` })),
      fc.integer({ min: 201, max: 8_000 }).map((n) => ({ authorization: `Bearer service_sk_${'a'.repeat(n)}` })),
    );
    const otherHeaders = fc.record(
      {
        'content-type': fc.constantFrom(
          'application/json',
          'text/plain',
          'application/json; charset=utf-16',
          'multipart/form-data; boundary=x',
          'application/x-www-form-urlencoded',
          '',
        ),
        accept: fc.constantFrom('text/html', '*/*', 'application/xml', ''),
        origin: fc.constantFrom('https://evil.example', 'null', ''),
        'x-forwarded-host': fc.constantFrom('evil.example', ''),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...endpoints),
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
        keyHeaders,
        otherHeaders,
        fc.oneof(
          fc.constant(undefined),
          oddString,
          fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
        ),
        async (path, method, keyHeader, other, body) => {
          const headers = Object.fromEntries(
            Object.entries({ ...other, ...keyHeader }).filter(([, value]) => value !== ''),
          ) as Record<string, string>;
          const answer = await send(server, { method, path, headers, body: method === 'GET' ? undefined : body });
          assertApiAnswer(
            answer,
            [200, 201, 204, 400, 401, 403, 404, 405, 409, 413, 429],
            `${method} ${path} ${show(headers)}`,
          );
        },
      ),
      params<[string, string, Record<string, string>, Record<string, string>, string | undefined]>([
        ['/api/v1/', 'GET', {}, {}, undefined],
        ['/api/v1', 'POST', {}, {}, '{}'],
      ]),
    );
  });

  test('a body over 64 KiB is 413, with Content-Length and chunked', async () => {
    const big = JSON.stringify({ guestName: 'x'.repeat(MAX_BODY_BYTES) });
    for (const path of ['/api/v1/bookings', `/api/v1/bookings/${booking}`]) {
      const method = path === '/api/v1/bookings' ? 'POST' : 'PATCH';
      const sized = await send(server, {
        method,
        path,
        headers: { ...auth(), 'content-type': 'application/json' },
        body: big,
      });
      assertApiAnswer(sized, [413], `${method} ${path} with Content-Length`);
      const chunks = [Buffer.from(big.slice(0, 40_000)), Buffer.from(big.slice(40_000))];
      const stream = new ReadableStream({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      });
      const chunked = await fetch(`${server.origin}${path}`, {
        method,
        headers: { ...auth(), 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
        signal: AbortSignal.timeout(15_000),
      } as RequestInit);
      const text = await chunked.text();
      assert.equal(chunked.status, 413, `${method} ${path} chunked: ${text}`);
      assert.deepEqual(JSON.parse(text), { error: 'Request body too large' });
    }
  });

  test('odd bytes and framing over a raw socket', async () => {
    const raw = rawClient(server, 15_000);
    const k = key();
    const cases: { name: string; head: string; body?: Buffer; allowed: number[] }[] = [
      {
        name: 'non-ASCII bytes in Authorization',
        head: 'GET /api/v1/booking-pages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer service_sk_\xff\xfe\xe9\r\n',
        allowed: [401],
      },
      {
        name: 'non-ASCII x-service-key',
        head: 'GET /api/v1/bookings HTTP/1.1\r\nHost: x\r\nx-service-key: \x80\x81abc\r\n',
        allowed: [401],
      },
      {
        name: 'two Authorization headers',
        head: `GET /api/v1/booking-pages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${k}\r\nAuthorization: Bearer ${k}\r\n`,
        allowed: [200, 401],
      },
      {
        name: 'chunked body over 64 KiB',
        head: `POST /api/v1/bookings HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${k}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n`,
        body: Buffer.from(`${(70_000).toString(16)}\r\n${'x'.repeat(70_000)}\r\n0\r\n\r\n`),
        allowed: [413],
      },
    ];
    for (const c of cases) {
      const answer = await raw(c.head, c.body).catch((error: Error) => {
        throw new Error(`${c.name}: ${error.message}`);
      });
      const where = `${c.name}: ${answer.status} ${answer.type} ${answer.body.slice(0, 200)}`;
      assert.ok(c.allowed.includes(answer.status), `status in ${c.allowed.join(', ')}: ${where}`);
      assert.match(answer.type, /^application\/json/, where);
      const parsed = JSON.parse(answer.body) as Record<string, unknown>;
      if (answer.status >= 400) assert.deepEqual(Object.keys(parsed), ['error'], where);
    }
  });
  test('a declared Content-Length over 64 KiB is refused before the body arrives', {
    todo:
      'Next.js buffers the body (up to proxyClientMaxBodySize, 1 MB here) for proxy.ts before the route runs, ' +
      'so a client that declares 70,000 bytes and sends two holds the request open until it gives up',
  }, async () => {
    const raw = rawClient(server, 3_000);
    const answer = await raw(
      `POST /api/v1/bookings HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key()}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 70000\r\nConnection: close\r\n',
      Buffer.from('{}'),
    );
    assert.equal(answer.status, 413, answer.body);
  });
});
