import fs from 'node:fs';
import path from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import pg from 'pg';
import { databaseUrl, dataDir } from '../config/env';
import { acquireDirLock, type DirLock } from './lock';
import { migrate } from './migrate';

export type QueryResult<T> = { rows: T[]; rowCount: number };

/** What every query function takes as its first argument: the database or an open transaction. */
export type Sql = {
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Runs several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
};

export type Db = Sql & {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; inside it, use the handle passed to fn, never the outer db (PGlite would wait forever). */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

export type OpenOptions = { databaseUrl?: string; dataDir?: string; migrate?: boolean };

// `date` columns stay "YYYY-MM-DD" strings: a JS Date would shift them by the server's time zone.
const DATE_OID = 1082;
pg.types.setTypeParser(DATE_OID, (v: string) => v);
// count(*) and other int8 values: numbers, as on PGlite (all our int8 values are far below 2^53).
pg.types.setTypeParser(20, (v: string) => Number(v));

export async function openDb(options: OpenOptions = {}): Promise<Db> {
  const db = options.databaseUrl ? openPostgres(options.databaseUrl) : await openPglite(options.dataDir ?? dataDir());
  if (options.migrate !== false) {
    try {
      await migrate(db);
    } catch (error) {
      await db.close();
      throw error;
    }
  }
  return db;
}

function openPostgres(connectionString: string): Db {
  const pool = new pg.Pool({ connectionString, max: Number(process.env.DATABASE_POOL_SIZE || 10) });
  // An idle client that loses its server (restart, failover) emits here; without a listener Node would crash.
  pool.on('error', (error) => console.error('[db] idle client error:', error.message));
  const wrap = (client: pg.Pool | pg.PoolClient): Sql => ({
    async query<T>(text: string, params?: readonly unknown[]) {
      const result = await client.query(text, params as unknown[] | undefined);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
    },
    async exec(text: string) {
      await client.query(text);
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction<T>(fn: (tx: Sql) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

async function openPglite(dir: string): Promise<Db> {
  fs.mkdirSync(dir, { recursive: true });
  const dbDir = path.join(dir, 'db');
  const lock: DirLock = acquireDirLock(`${dbDir}.lock`, dbDir);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(dbDir, {
      extensions: { btree_gist },
      parsers: { [DATE_OID]: (v: string) => v, [pgliteTypes.INT8]: (v: string) => Number(v) },
    });
  } catch (error) {
    lock.release();
    throw error;
  }
  const wrap = (handle: Pick<PGlite, 'query' | 'exec'>): Sql => ({
    async query<T>(text: string, params?: readonly unknown[]) {
      const result = await handle.query<T>(text, params as unknown[] | undefined);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(text: string) {
      await handle.exec(text);
    },
  });
  return {
    kind: 'pglite',
    ...wrap(pglite),
    transaction: <T>(fn: (tx: Sql) => Promise<T>) => pglite.transaction((tx) => fn(wrap(tx))),
    async close() {
      try {
        await pglite.close();
      } finally {
        lock.release();
      }
    },
  };
}

const globalKey = Symbol.for('booking-service.db');
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<Db> };

/**
 * The process-wide database, opened lazily on first use and migrated. Kept on globalThis because Next.js may
 * load this module more than once per process (one copy per bundle layer), and PGlite allows one opener.
 */
export function getDb(): Promise<Db> {
  const g = globalThis as GlobalWithDb;
  if (!g[globalKey]) {
    const url = databaseUrl();
    const opening = openDb(url ? { databaseUrl: url } : { dataDir: dataDir() });
    // A failed open is not cached: the next request tries again (e.g. Postgres was down at start-up).
    opening.catch(() => {
      if (g[globalKey] === opening) g[globalKey] = undefined;
    });
    g[globalKey] = opening;
  }
  return g[globalKey];
}
