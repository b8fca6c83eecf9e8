// Helpers of the reliability tests, the HTTP benchmark and the soak script: a database prepared once (seeded by the
// admin import, optionally with extra rows written before any server opens it) and any number of production
// servers (`next start` on the build in `.next`, or NEXT_DIST_DIR) started on it. Unlike tests/helpers/server.ts,
// preparing and starting are separate, so two instances can share one Postgres database, PGlite can be seeded with
// SQL before its single server opens it, and the server can run with extra node flags (--cpu-prof).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { type Db, openDb } from '../../lib/db/client';
import { type ImportResult, importDocument } from '../../lib/import/import';
import { createPostgresDatabase, tempDataDir } from '../helpers/db';
import { type BackendName, freePort, stopChild } from '../helpers/server';

export type { BackendName };

export type Sql = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;

export type PreparedDatabase = {
  backend: BackendName;
  /** What a server needs to open this database (DATABASE_URL, or DATA_DIR for PGlite) plus a private MAIL_DIR. */
  env: Record<string, string>;
  seed: ImportResult;
  /** Postgres only: a small pool on the same database (PGlite allows one process while a server runs). */
  sql?: Sql;
  /** PGlite only, while no server runs: opens the data directory in this process for fn. */
  withDb<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  drop(): Promise<void>;
};

/**
 * A fresh database seeded with `document`; `beforeStart` may write more (e.g. 10,000 bookings) in the same
 * session, before any server opens the database.
 */
export async function prepareDatabase(
  backend: BackendName,
  document: unknown,
  beforeStart?: (db: Db, seed: ImportResult) => Promise<void>,
): Promise<PreparedDatabase> {
  const mailDir = tempDataDir();
  let env: Record<string, string>;
  let dropDatabase: () => Promise<void>;
  if (backend === 'pglite') {
    const dir = tempDataDir();
    env = { DATA_DIR: dir, DATABASE_URL: '', MAIL_DIR: mailDir };
    dropDatabase = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    const database = await createPostgresDatabase();
    // DATA_DIR too: nothing of this server may land in the repository's ./.data.
    env = { DATABASE_URL: database.url, DATA_DIR: mailDir, MAIL_DIR: mailDir };
    dropDatabase = database.drop;
  }
  const open = () => openDb(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR });
  let seed: ImportResult;
  try {
    const db = await open();
    try {
      seed = await db.transaction((tx) => importDocument(tx, document));
      if (beforeStart) await beforeStart(db, seed);
    } finally {
      await db.close();
    }
  } catch (error) {
    await dropDatabase().catch(() => {});
    fs.rmSync(mailDir, { recursive: true, force: true });
    throw error;
  }
  let pool: pg.Pool | undefined;
  if (backend === 'postgres') {
    pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2 });
    // A Postgres restart kills idle clients; without a listener the test process would crash.
    pool.on('error', () => {});
  }
  return {
    backend,
    env,
    seed,
    sql: pool
      ? async <T>(text: string, params?: unknown[]) => (await (pool as pg.Pool).query(text, params)).rows as T[]
      : undefined,
    async withDb<T>(fn: (db: Db) => Promise<T>) {
      const db = await open();
      try {
        return await fn(db);
      } finally {
        await db.close();
      }
    },
    async drop() {
      await pool?.end().catch(() => {});
      await dropDatabase();
      fs.rmSync(mailDir, { recursive: true, force: true });
    },
  };
}

export type Instance = {
  origin: string;
  /** origin + /api/v1 */
  api: string;
  port: number;
  /** The server process (`next start` serves in its own process, no worker). */
  pid: number;
  child: ChildProcess;
  logs(): string;
  /** VmHWM of the server process (peak resident set), in KiB; null once it has exited. */
  peakRssKiB(): number | null;
  /** CPU time the server process has used so far, in ms; null once it has exited. */
  cpuMs(): number | null;
  /** SIGTERM (SIGKILL after 5 s); resolves when the process has exited. */
  stop(): Promise<void>;
};

export type InstanceOptions = {
  /** Node flags before the Next.js CLI, e.g. ['--cpu-prof', '--cpu-prof-dir=/tmp/x']. */
  nodeArgs?: string[];
  /** How long to wait for /api/health (default 60 s). */
  readyTimeoutMs?: number;
};

/**
 * The app whose build the servers run: NEXT_APP_DIR (another checkout, e.g. a copy with a patch applied and built,
 * for before/after numbers) or the current directory.
 */
export function appDir(): string {
  return path.resolve(process.env.NEXT_APP_DIR || process.cwd());
}

/** Starts `next start` on a free loopback port with `env` (on top of this process's environment). */
export async function startInstance(env: Record<string, string>, options: InstanceOptions = {}): Promise<Instance> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), 'node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)],
    {
      cwd: appDir(),
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    // Bounded: a long soak must not keep every log line in memory.
    if (output.length > 1_000_000) output = output.slice(-500_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy in time:\n${output}`);
    }
    await sleep(200);
  }
  const pid = child.pid as number;
  return {
    origin,
    api: `${origin}/api/v1`,
    port,
    pid,
    child,
    logs: () => output,
    peakRssKiB: () => procStatusKiB(pid, 'VmHWM'),
    cpuMs: () => procCpuMs(pid),
    stop: () => stopChild(child),
  };
}

/** A field of /proc/<pid>/status in KiB (VmHWM: peak RSS, VmRSS: current), or null when unreadable. */
export function procStatusKiB(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system) the process has used so far, in ms, from /proc/<pid>/stat (clock ticks of 10 ms on
 * Linux); null when unreadable. Differences between two readings give a process's CPU cost of a run, which other
 * jobs on the machine disturb far less than wall-clock rates.
 */
export function procCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at state, field 3; utime and stime are 14, 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------------
// Invariants checked with SQL after a run

const ACTIVE = `status in ('pending', 'confirmed')`;

/** Pairs of pending/confirmed bookings of one host whose half-open intervals overlap (must be 0). */
export const OVERLAPS_SQL = `select count(*)::int as n from bookings a join bookings b
  on a.user_id = b.user_id and a.id < b.id
  and tstzrange(a.start_time, a.end_time, '[)') && tstzrange(b.start_time, b.end_time, '[)')
  where a.${ACTIVE} and b.${ACTIVE}`;

/**
 * Half-written state (must all be 0): a booking of a direct page without its outbox rows (guest confirmation and
 * host notification are written in the booking's transaction), an answer without a booking, and an outbox row
 * pointing at a booking that does not exist.
 */
export const HALF_WRITTEN_SQL = `select
  (select count(*)::int from bookings b join booking_pages p on p.id = b.booking_page_id
     where p.booking_type = 'direct' and not exists (select 1 from email_outbox o where o.booking_id = b.id))
    as direct_without_outbox,
  (select count(*)::int from meeting_responses r where not exists (select 1 from bookings b where b.id = r.booking_id))
    as responses_without_booking,
  (select count(*)::int from email_outbox o where o.booking_id is not null
     and not exists (select 1 from bookings b where b.id = o.booking_id)) as outbox_without_booking`;

export type HalfWritten = {
  direct_without_outbox: number;
  responses_without_booking: number;
  outbox_without_booking: number;
};
