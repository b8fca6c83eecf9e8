// A local stand-in for Upstash's REST endpoint, in front of the real local Redis: it speaks the REST protocol
// (@upstash/redis: POST / with a command array, /pipeline and /multi-exec with arrays of them, Bearer token,
// optional base64 response encoding) and forwards every command to Redis. Only the HTTP boundary is replaced.
import { createHash } from 'node:crypto';
import http from 'node:http';
import Redis from 'ioredis';
import { freePort } from './server';

export type UpstashStandIn = {
  url: string;
  token: string;
  redis: Redis;
  requests: () => number;
  close(): Promise<void>;
};

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

function encode(value: unknown, base64: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => encode(item, base64));
  if (typeof value === 'string' && base64) return Buffer.from(value).toString('base64');
  return value;
}

export async function startUpstashStandIn(): Promise<UpstashStandIn> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', (error) => console.error('[upstash stand-in] redis:', error.message));
  await redis.connect();
  const token = `test-token-${Math.random().toString(36).slice(2)}`;
  let count = 0;
  // Upstash's scripts carry a `#!lua flags=allow-key-locking` shebang that Redis 7.0 rejects; the stand-in drops
  // the flag and remembers each script under the SHA the client computed, so EVALSHA works as on Upstash.
  const scripts = new Map<string, string>();
  const run = async (command: unknown[]) => {
    let [name, ...args] = command.map(String);
    const verb = name?.toLowerCase();
    if ((verb === 'eval' || verb === 'script') && args.length > 0) {
      const index = verb === 'eval' ? 0 : 1;
      const original = args[index] as string;
      const script = original.replace(/^#!lua flags=[^\n]*\n/, '#!lua\n');
      scripts.set(createHash('sha1').update(original).digest('hex'), script);
      args[index] = script;
      if (verb === 'script' && args[0]?.toLowerCase() === 'load') {
        await redis.call('script', 'load', script);
        return { result: createHash('sha1').update(original).digest('hex') };
      }
    }
    if (verb === 'evalsha' && scripts.has(args[0] as string)) {
      name = 'eval';
      args = [scripts.get(args[0] as string) as string, ...args.slice(1)];
    }
    try {
      return { result: await redis.call(name as string, ...args) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  const server = http.createServer(async (request, response) => {
    count++;
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${token}`) return send(401, { error: 'Unauthorized' });
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as unknown[];
    const base64 = request.headers['upstash-encoding'] === 'base64';
    const wrap = (reply: { result?: unknown; error?: string }) =>
      reply.error === undefined ? { result: encode(reply.result, base64) } : reply;
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/pipeline' || path === '/multi-exec') {
      const replies = [];
      for (const command of body as unknown[][]) replies.push(wrap(await run(command)));
      return send(200, replies);
    }
    const reply = wrap(await run(body));
    return send(reply.error === undefined ? 200 : 400, reply);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    redis,
    requests: () => count,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
