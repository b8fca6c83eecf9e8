import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import type { Sql } from '../db/client';

export type LimitResult = {
  success: boolean;
  limit: number;
  remaining: number;
  /** End of the current window, Unix milliseconds. */
  reset: number;
};

/** Fixed-window counter: `max` hits per window of `windowSeconds`, windows aligned to the Unix epoch. */
export type Limiter = {
  hit(bucket: string, max: number, windowSeconds: number): Promise<LimitResult>;
};

// Hits since start-up, across every limiter made for a request: every 500th deletes the expired windows.
let hits = 0;

/**
 * Embedded default: one row per (bucket, window) in Postgres, incremented by an atomic upsert, so every app
 * instance on the database shares the count. The window is taken from the database clock for the same reason.
 */
export function postgresLimiter(db: Sql): Limiter {
  return {
    async hit(bucket, max, windowSeconds) {
      const { rows } = await db.query<{ count: number; window_start: number }>(
        `with w as (select to_timestamp(floor(extract(epoch from now()) / $2) * $2) as start)
         insert into rate_limit_counters (bucket, window_start, count, expires_at)
         select $1, w.start, 1, w.start + make_interval(secs => $2) from w
         on conflict (bucket, window_start) do update set count = rate_limit_counters.count + 1
         returning count, extract(epoch from window_start)::float8 as window_start`,
        [bucket, windowSeconds],
      );
      const row = rows[0] as { count: number; window_start: number };
      // Expired windows are deleted now and then by whoever passes by; no scheduler needed.
      if (++hits % 500 === 0) {
        db.query('delete from rate_limit_counters where expires_at < now()').catch(() => {});
      }
      return {
        success: row.count <= max,
        limit: max,
        remaining: Math.max(0, max - row.count),
        reset: (row.window_start + windowSeconds) * 1000,
      };
    },
  };
}

/** Production option: Upstash Redis over its REST API, with @upstash/ratelimit's fixed window. */
export function upstashLimiter(url: string, token: string): Limiter {
  const redis = new Redis({ url, token });
  const limiters = new Map<string, Ratelimit>();
  return {
    async hit(bucket, max, windowSeconds) {
      const key = `${max}/${windowSeconds}`;
      let limiter = limiters.get(key);
      if (!limiter) {
        limiter = new Ratelimit({
          redis,
          limiter: Ratelimit.fixedWindow(max, `${windowSeconds} s`),
          prefix: 'booking-service',
          analytics: false,
        });
        limiters.set(key, limiter);
      }
      const result = await limiter.limit(bucket);
      return { success: result.success, limit: max, remaining: Math.max(0, result.remaining), reset: result.reset };
    },
  };
}

/** Upstash when both variables are set, Postgres counters otherwise. */
export function limiterFor(db: Sql): Limiter {
  const url = process.env.UPSTASH_REDIS_REST_URL;
  const token = process.env.UPSTASH_REDIS_REST_TOKEN;
  if (url && token) {
    cachedUpstash ??= upstashLimiter(url, token);
    return cachedUpstash;
  }
  return postgresLimiter(db);
}
let cachedUpstash: Limiter | undefined;
