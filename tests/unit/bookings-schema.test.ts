// Request validation of the bookings endpoints: the spec's messages, in the spec's order.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  parseCreateBookingBody,
  parseInstant,
  parseListBookingsQuery,
  parseUpdateBookingBody,
} from '../../lib/bookings/schema';
import { ApiError } from '../../lib/http/errors';

const MISSING = 'Missing required fields: bookingPageId, guestName, guestEmail, startTime, endTime';
const EMAIL = '`guestEmail` must be a valid email address';
const TIMES = '`startTime` and `endTime` must be ISO 8601 timestamps, with `endTime` after `startTime`';
const RESPONSES = '`responses` must be an array of { questionId, answer }';

const valid = {
  bookingPageId: '6f1c1e2a-1111-4222-8333-944455556666',
  guestName: 'Grace',
  guestEmail: 'grace@example.com',
  startTime: '2030-01-07T10:00:00.000Z',
  endTime: '2030-01-07T10:30:00.000Z',
};

function rejectsWith(run: () => unknown, status: number, message: string) {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, status);
    assert.equal(error.message, message);
    return true;
  });
}

describe('parseInstant', () => {
  test('accepts ISO 8601 date-times with Z, offsets or none (UTC)', () => {
    assert.equal(parseInstant('2030-01-07T10:00:00.000Z')?.toISOString(), '2030-01-07T10:00:00.000Z');
    assert.equal(parseInstant('2030-01-07T15:30:00+05:30')?.toISOString(), '2030-01-07T10:00:00.000Z');
    assert.equal(parseInstant('2030-01-07T05:00:00-0500')?.toISOString(), '2030-01-07T10:00:00.000Z');
    assert.equal(parseInstant('2030-01-07T10:00')?.toISOString(), '2030-01-07T10:00:00.000Z');
    assert.equal(parseInstant('2030-01-07T10:00:00.123456Z')?.toISOString(), '2030-01-07T10:00:00.123Z');
  });
  test('rejects impossible dates and other strings', () => {
    for (const value of [
      '2030-02-30T10:00:00Z',
      '2030-13-01T10:00:00Z',
      '2030-01-07T24:00:00Z',
      '2030-01-07',
      'soon',
      '',
      5,
    ]) {
      assert.equal(parseInstant(value), null, String(value));
    }
  });
});

describe('parseCreateBookingBody', () => {
  test('a valid body', () => {
    const body = parseCreateBookingBody({
      ...valid,
      guestName: '  Grace ',
      responses: [{ questionId: 'q', answer: '' }],
    });
    assert.equal(body.guestName, 'Grace');
    assert.equal(body.start.toISOString(), valid.startTime);
    assert.deepEqual(body.responses, [{ questionId: 'q', answer: '' }]);
    assert.deepEqual(parseCreateBookingBody(valid).responses, []);
  });
  test('missing or empty fields come first', () => {
    rejectsWith(() => parseCreateBookingBody({}), 400, MISSING);
    rejectsWith(() => parseCreateBookingBody([]), 400, MISSING);
    rejectsWith(() => parseCreateBookingBody({ ...valid, guestName: '  ' }), 400, MISSING);
    rejectsWith(() => parseCreateBookingBody({ ...valid, startTime: 12 }), 400, MISSING);
    // Missing beats every later rule.
    rejectsWith(() => parseCreateBookingBody({ ...valid, guestEmail: 'nope', endTime: undefined }), 400, MISSING);
  });
  test('then the email, then the times, then responses', () => {
    rejectsWith(() => parseCreateBookingBody({ ...valid, guestEmail: 'nope', startTime: 'x' }), 400, EMAIL);
    rejectsWith(() => parseCreateBookingBody({ ...valid, guestEmail: 'a b@example.com' }), 400, EMAIL);
    rejectsWith(() => parseCreateBookingBody({ ...valid, startTime: 'x', responses: 5 }), 400, TIMES);
    rejectsWith(() => parseCreateBookingBody({ ...valid, endTime: valid.startTime }), 400, TIMES);
    rejectsWith(() => parseCreateBookingBody({ ...valid, endTime: '2030-01-07T09:00:00Z' }), 400, TIMES);
    rejectsWith(() => parseCreateBookingBody({ ...valid, responses: {} }), 400, RESPONSES);
    rejectsWith(() => parseCreateBookingBody({ ...valid, responses: [{ questionId: 'q' }] }), 400, RESPONSES);
    rejectsWith(
      () => parseCreateBookingBody({ ...valid, responses: [{ questionId: 'q', answer: 1 }] }),
      400,
      RESPONSES,
    );
    rejectsWith(() => parseCreateBookingBody({ ...valid, responses: ['x'] }), 400, RESPONSES);
  });
  test('length limits name the field', () => {
    rejectsWith(
      () => parseCreateBookingBody({ ...valid, guestName: 'x'.repeat(201) }),
      400,
      '`guestName` must be at most 200 characters',
    );
    rejectsWith(() => parseCreateBookingBody({ ...valid, guestEmail: `${'x'.repeat(320)}@example.com` }), 400, EMAIL);
    rejectsWith(
      () => parseCreateBookingBody({ ...valid, responses: [{ questionId: 'q', answer: 'x'.repeat(5001) }] }),
      400,
      'each `answer` must be at most 5000 characters',
    );
  });

  test('text Postgres cannot store (NUL) is a 400 naming the field; control characters make a bad address', () => {
    rejectsWith(
      () => parseCreateBookingBody({ ...valid, guestName: 'Gr\u0000ace' }),
      400,
      '`guestName` must not contain NUL characters',
    );
    rejectsWith(() => parseCreateBookingBody({ ...valid, guestEmail: 'grace\u0000@example.com' }), 400, EMAIL);
    rejectsWith(() => parseCreateBookingBody({ ...valid, guestEmail: 'grace@exa\u0007mple.com' }), 400, EMAIL);
    rejectsWith(
      () => parseCreateBookingBody({ ...valid, responses: [{ questionId: 'q', answer: 'a\u0000' }] }),
      400,
      'each `answer` must not contain NUL characters',
    );
    rejectsWith(
      () => parseUpdateBookingBody({ status: 'cancelled', reason: '\u0000' }),
      400,
      '`reason` must not contain NUL characters',
    );
    assert.equal(parseCreateBookingBody({ ...valid, guestName: 'Zoë 👩‍💻 O’Brien' }).guestName, 'Zoë 👩‍💻 O’Brien');
  });
});

describe('parseUpdateBookingBody', () => {
  test('status must be confirmed or cancelled; reason optional', () => {
    assert.deepEqual(parseUpdateBookingBody({ status: 'cancelled', reason: 'ill' }), {
      status: 'cancelled',
      reason: 'ill',
    });
    assert.deepEqual(parseUpdateBookingBody({ status: 'confirmed' }), { status: 'confirmed', reason: null });
    for (const body of [{}, { status: 'completed' }, { status: 'pending' }, null, 'cancelled']) {
      rejectsWith(() => parseUpdateBookingBody(body), 400, '`status` must be "confirmed" or "cancelled"');
    }
    rejectsWith(() => parseUpdateBookingBody({ status: 'cancelled', reason: 3 }), 400, '`reason` must be a string');
  });
});

describe('parseListBookingsQuery', () => {
  const parse = (query: string) => parseListBookingsQuery(new URLSearchParams(query));
  test('defaults, cap and filters', () => {
    assert.deepEqual(parse(''), { status: null, limit: 50 });
    assert.deepEqual(parse('limit=500&status=pending'), { status: 'pending', limit: 200 });
    assert.deepEqual(parse('limit=1'), { status: null, limit: 1 });
  });
  test('bad values are 400', () => {
    for (const query of ['limit=0', 'limit=-1', 'limit=abc', 'limit=1.5']) {
      rejectsWith(() => parse(query), 400, '`limit` must be a positive integer');
    }
    rejectsWith(() => parse('status=done'), 400, '`status` must be one of pending, confirmed, cancelled, completed');
  });
});
