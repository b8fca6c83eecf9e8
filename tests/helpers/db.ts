import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Db, openDb } from '../../lib/db/client';

/** The local Postgres the tests use; each test file gets a database of its own, dropped afterwards. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';

export type Backend = { name: 'pglite' | 'postgres'; open(): Promise<TestDb> };
export type TestDb = { db: Db; url?: string; dataDir?: string; drop(): Promise<void> };

export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `booking_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `Postgres is not reachable at ${TEST_POSTGRES_URL} (${(error as Error).message}). Start it with ` +
        '`pg_ctlcluster --skip-systemctl-redirect 15 main start` or set TEST_POSTGRES_URL.',
    );
  }
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'booking-test-'));
}

export const backends: Backend[] = [
  {
    name: 'pglite',
    async open() {
      const dataDir = tempDataDir();
      const db = await openDb({ dataDir });
      return {
        db,
        dataDir,
        async drop() {
          await db.close();
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    async open() {
      const database = await createPostgresDatabase();
      const db = await openDb({ databaseUrl: database.url });
      return {
        db,
        url: database.url,
        async drop() {
          await db.close();
          await database.drop();
        },
      };
    },
  },
];

/** The SQLSTATE of a failed query (both drivers put it on `code`). */
export async function sqlState(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}
