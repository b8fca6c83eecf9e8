// A local stand-in for Resend's HTTP API (POST /emails), so the real `resend` SDK and our transport run
// unchanged against it (RESEND_BASE_URL). It records each request and, like Resend, answers a repeated
// Idempotency-Key with the first message's id instead of sending again.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { freePort } from './server';

export type ResendRequest = { headers: http.IncomingHttpHeaders; body: Record<string, unknown> };
export type ResendStandIn = {
  url: string;
  received: ResendRequest[];
  /** Distinct messages accepted (requests with a repeated idempotency key are not counted twice). */
  delivered: Map<string, string>;
  /** Answer the next n requests with 500. */
  failNext(n: number): void;
  close(): Promise<void>;
};

export async function startResendStandIn(): Promise<ResendStandIn> {
  const received: ResendRequest[] = [];
  const delivered = new Map<string, string>();
  let failures = 0;
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    received.push({ headers: request.headers, body });
    response.setHeader('content-type', 'application/json');
    if (request.method !== 'POST' || request.url !== '/emails') {
      response.statusCode = 404;
      return response.end(JSON.stringify({ name: 'not_found', message: 'Not found', statusCode: 404 }));
    }
    if (!String(request.headers.authorization ?? '').startsWith('Bearer re_')) {
      response.statusCode = 401;
      return response.end(JSON.stringify({ name: 'missing_api_key', message: 'Missing API key', statusCode: 401 }));
    }
    if (failures > 0) {
      failures--;
      response.statusCode = 500;
      return response.end(JSON.stringify({ name: 'internal_server_error', message: 'boom', statusCode: 500 }));
    }
    const key = String(request.headers['idempotency-key'] ?? randomUUID());
    const id = delivered.get(key) ?? randomUUID();
    delivered.set(key, id);
    response.statusCode = 200;
    response.end(JSON.stringify({ id }));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    delivered,
    failNext(n) {
      failures = n;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
