// `npm run dev`: migrate and seed the embedded database, print where to look, then run `next dev`.
// The seeding process closes the database before Next.js starts, because PGlite allows one process at a time.
import { spawn } from 'node:child_process';
import { databaseUrl } from '../lib/config/env';
import { openDb } from '../lib/db/client';
import { seedDemo } from '../lib/demo/seed';
import { printDemo } from './cli';

const port = Number(process.env.PORT || 3000);
const db = await openDb({ databaseUrl: databaseUrl() });
try {
  printDemo(await seedDemo(db), port);
} finally {
  await db.close();
}

const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'dev', '--webpack', '-p', String(port)], {
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
