import { randomUUID } from 'node:crypto';
import { type AccountId, type AuthenticatedKey, authenticateKey, presentedKey, requireScopes } from '../api-keys/auth';
import type { KeyType, Scope } from '../api-keys/keys';
import { type Db, getDb } from '../db/client';
import { limiterFor } from '../rate-limit/limiter';
import { corsHeaders } from './cors';
import { ApiError } from './errors';

export type ApiContext<P> = {
  db: Db;
  key: AuthenticatedKey;
  account: AccountId;
  params: P;
  url: URL;
  request: Request;
  requestId: string;
};

type RouteContext<P> = { params: Promise<P> };

export type ApiOptions = {
  /** Scopes the operation needs (spec: Endpoints). */
  scopes: readonly Scope[];
  /** Methods of this path, for the CORS preflight answer of error responses too. */
  methods: readonly string[];
  /** The spec's 500 message for this operation. */
  failure?: string;
};

// Spec, Limits: requests per key per fixed 60-second window.
export const KEY_LIMITS: Record<KeyType, number> = { secret: 300, publishable: 120 };
const KEY_WINDOW_SECONDS = 60;

export const UNEXPECTED = 'An unexpected error occurred';

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers });
}

/**
 * One wrapper per exported route handler: CORS, key, per-key rate limit, scopes, and the single catch that turns
 * errors into `{ "error": string }` (unknown ones into the operation's 500 message, logged with a request id).
 */
export function withApiKey<P = Record<string, never>>(
  options: ApiOptions,
  handler: (ctx: ApiContext<P>) => Promise<Response>,
) {
  const cors = corsHeaders(options.methods);
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    const requestId = randomUUID();
    let response: Response;
    try {
      const db = await getDb();
      const key = await authenticateKey(db, presentedKey(request.headers));
      await enforceKeyLimit(db, key);
      requireScopes(key, options.scopes);
      response = await handler({
        db,
        key,
        account: key.accountId,
        params: await context.params,
        url: new URL(request.url),
        request,
        requestId,
      });
    } catch (error) {
      response = errorResponse(error, options.failure ?? UNEXPECTED, requestId, request);
    }
    for (const [name, value] of Object.entries(cors)) response.headers.set(name, value);
    response.headers.set('X-Request-Id', requestId);
    return response;
  };
}

export function errorResponse(error: unknown, failure: string, requestId: string, request: Request): Response {
  if (error instanceof ApiError) return json({ error: error.message }, error.status, error.headers);
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error(`[api] ${requestId} ${request.method} ${new URL(request.url).pathname} failed: ${detail}`);
  return json({ error: failure }, 500);
}

async function enforceKeyLimit(db: Db, key: AuthenticatedKey): Promise<void> {
  const max = KEY_LIMITS[key.type];
  const result = await limiterFor(db).hit(`key:${key.id}`, max, KEY_WINDOW_SECONDS);
  if (result.success) return;
  const resetSeconds = Math.ceil(result.reset / 1000);
  throw new ApiError(429, `Rate limit exceeded. This ${key.type} key allows ${max} requests per 60s window.`, {
    'Retry-After': String(Math.max(1, resetSeconds - Math.floor(Date.now() / 1000))),
    'X-RateLimit-Limit': String(max),
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(resetSeconds),
  });
}

// Spec leaves body size open; 64 KiB is far above the largest valid createBooking body (100 answers of 5,000
// characters would not fit, but such a body is rejected by the length rules anyway).
export const MAX_BODY_BYTES = 64 * 1024;

/** Reads a JSON body with a size cap: 413 when larger, 400 `Invalid JSON body` when not JSON. */
export async function readJson(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw new ApiError(413, 'Request body too large');
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        throw new ApiError(413, 'Request body too large');
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'Invalid JSON body');
  }
}

/** Answers methods a path does not have, in the API's JSON error shape. */
export function methodNotAllowed(methods: readonly string[]) {
  const headers = { ...corsHeaders(methods), Allow: [...methods, 'OPTIONS'].join(', ') };
  return () => json({ error: 'Method not allowed' }, 405, headers);
}
