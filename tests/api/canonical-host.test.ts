// CANONICAL_HOST: requests on another host are redirected with 308 to the same path on the canonical host.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { apiDocument } from '../helpers/fixtures';
import { startServer, type TestServer } from '../helpers/server';

function request(origin: string, path: string, host: string, method = 'GET') {
  return new Promise<{ status: number; location?: string; body: string }>((resolve, reject) => {
    const url = new URL(path, origin);
    const req = http.request(url, { method, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('canonical host', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('pglite', apiDocument(), { CANONICAL_HOST: 'www.example.test' });
  });
  after(() => server?.stop());

  test('the bare domain is redirected with 308, path and query kept', async () => {
    const response = await request(server.origin, '/api/v1/booking-pages/intro/slots?date=2030-01-01', 'example.test');
    assert.equal(response.status, 308);
    assert.equal(response.location, 'http://www.example.test/api/v1/booking-pages/intro/slots?date=2030-01-01');
    const post = await request(server.origin, '/api/v1/bookings', 'example.test', 'POST');
    assert.equal(post.status, 308);
  });

  test('the canonical host is served; without the dropped Authorization header the API answers 401', async () => {
    const response = await request(server.origin, '/api/v1/booking-pages', 'www.example.test');
    assert.equal(response.status, 401);
    assert.match(JSON.parse(response.body).error, /^Missing API key/);
  });

  test('health checks answer on any host', async () => {
    const response = await request(server.origin, '/api/health', 'internal');
    assert.equal(response.status, 200);
  });
});
