// Ways to take the database away from a running app (tests/reliability/postgres-restart.test.ts, scripts/soak.ts).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { TEST_POSTGRES_URL } from '../helpers/db';
import { sleep } from './_instance';

const run = promisify(execFile);

/** The real restart runs only when asked for: it drops every other client of the machine's Postgres too. */
export const RESTART_ENABLED = process.env.RELIABILITY_RESTART_POSTGRES === '1' || process.env.CI === 'true';
export const RESTART_COMMAND = ['pg_ctlcluster', '--skip-systemctl-redirect', '15', 'main', 'restart'];

/** Terminates every backend of `database` every 50 ms for `ms` (from a connection to another database). */
export async function terminateBackends(database: string, ms: number): Promise<number> {
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  admin.on('error', () => {});
  await admin.connect();
  let terminated = 0;
  try {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const { rows } = await admin.query<{ n: number }>(
        `select count(*) filter (where pg_terminate_backend(pid))::int as n
         from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
        [database],
      );
      terminated += rows[0]?.n ?? 0;
      await sleep(50);
    }
  } finally {
    await admin.end().catch(() => {});
  }
  return terminated;
}

/** Restarts the machine's Postgres cluster and waits until it accepts connections again. */
export async function restartPostgres(): Promise<void> {
  const [command, ...args] = RESTART_COMMAND as [string, ...string[]];
  await run(command, args, { timeout: 60_000 });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(200);
    }
  }
}
