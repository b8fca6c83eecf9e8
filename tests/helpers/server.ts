// Runs the production build (`next start`) against a fresh database seeded by the admin import, for HTTP tests.
// Needs `npm run build` first (scripts/test.ts does it before the HTTP step).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { openDb } from '../../lib/db/client';
import { type ImportResult, importDocument } from '../../lib/import/import';
import { createPostgresDatabase, tempDataDir } from './db';

export type BackendName = 'pglite' | 'postgres';
export const BACKENDS: BackendName[] = ['pglite', 'postgres'];

export type TestServer = {
  backend: BackendName;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** origin + /api/v1 */
  api: string;
  seed: ImportResult;
  env: Record<string, string>;
  /** Postgres only: direct SQL on the server's database (PGlite is single-process while the server runs). */
  sql?: <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;
  logs(): string;
  stop(): Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startServer(
  backend: BackendName,
  document: unknown,
  extraEnv: Record<string, string> = {},
): Promise<TestServer> {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let pool: pg.Pool | undefined;
  if (backend === 'pglite') {
    const dir = tempDataDir();
    env = { DATA_DIR: dir, DATABASE_URL: '' };
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    const database = await createPostgresDatabase();
    // A private DATA_DIR too, so nothing of this server (the mail outbox's .eml files) lands in ./.data.
    const dir = tempDataDir();
    env = { DATABASE_URL: database.url, DATA_DIR: dir };
    cleanup = async () => {
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  const db = await openDb(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR });
  let seed: ImportResult;
  try {
    seed = await db.transaction((tx) => importDocument(tx, document));
  } finally {
    await db.close();
  }
  if (backend === 'postgres') pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2 });

  const port = await freePort();
  const serverEnv = { ...env, ...extraEnv };
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port)], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', ...serverEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHealth(origin, child, () => output);

  return {
    backend,
    origin,
    api: `${origin}/api/v1`,
    seed,
    env: serverEnv,
    sql: pool
      ? async <T>(text: string, params?: unknown[]) => (await (pool as pg.Pool).query(text, params)).rows as T[]
      : undefined,
    logs: () => output,
    async stop() {
      await stopChild(child);
      await pool?.end();
      await cleanup();
    },
  };
}

async function waitForHealth(origin: string, child: ChildProcess, logs: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${logs()}`);
    try {
      const response = await fetch(`${origin}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become healthy in 60s:\n${logs()}`);
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
