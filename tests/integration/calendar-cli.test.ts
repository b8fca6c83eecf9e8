// The calendar commands of `npm run cli` end to end (one JSON document on stdout, messages on stderr), on PGlite
// and Postgres: feed token, iCalendar feed connection with its first sync, sync summary and exit code, Google link.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { openDb } from '../../lib/db/client';
import { importDocument } from '../../lib/import/import';
import { createPostgresDatabase, tempDataDir } from '../helpers/db';
import { freePort } from '../helpers/server';

type Run = { status: number | null; stdout: string; stderr: string };

/** Runs the CLI without blocking this process (the feed server below must keep answering). */
function cli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: '', GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const day = (offset: number) =>
  new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'BEGIN:VEVENT',
  'UID:cli@test',
  `DTSTART:${day(3)}T150000Z`,
  `DTEND:${day(3)}T160000Z`,
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

const targets = [
  {
    name: 'pglite',
    async setup() {
      const dir = tempDataDir();
      return { env: { DATA_DIR: dir }, cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'postgres',
    async setup() {
      const database = await createPostgresDatabase();
      return { env: { DATABASE_URL: database.url }, cleanup: database.drop };
    },
  },
];

let feedStatus = 200;
let server: http.Server;
let feedUrl: string;

before(async () => {
  server = http.createServer((_request, response) => {
    response.statusCode = feedStatus;
    response.end(feedStatus === 200 ? ICS : 'down');
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${port}/secret-path/basic.ics`;
});
after(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

for (const target of targets) {
  describe(`calendar cli on ${target.name}`, () => {
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;

    before(async () => {
      ({ env, cleanup } = await target.setup());
      env = { ...env, APP_URL: 'https://book.example.com/' };
      const db = await openDb(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR });
      try {
        await db.transaction((tx) =>
          importDocument(tx, { hosts: [{ email: 'ada@example.com', username: 'ada', timezone: 'Europe/Berlin' }] }),
        );
      } finally {
        await db.close();
      }
    });
    after(() => cleanup?.());

    test('calendar:feed prints the feed URL (APP_URL); an unknown host exits 1 with nothing on stdout', async () => {
      const run = await cli(['calendar:feed', 'ada'], env);
      assert.equal(run.status, 0, run.stderr);
      const result = JSON.parse(run.stdout);
      assert.match(result.feed_url, /^https:\/\/book\.example\.com\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
      const unknown = await cli(['calendar:feed', 'nobody'], env);
      assert.equal(unknown.status, 1);
      assert.equal(unknown.stdout, '');
      assert.match(unknown.stderr, /no host with username "nobody"/);
    });

    test('calendar:add-ical adds the feed and syncs it; calendar:sync reports failures with exit 1', async () => {
      feedStatus = 200;
      const added = await cli(['calendar:add-ical', 'ada', feedUrl], env);
      assert.equal(added.status, 0, added.stderr);
      const result = JSON.parse(added.stdout);
      assert.equal(result.created, true);
      assert.equal(result.sync.ok, true, result.sync.error);
      assert.equal(result.sync.busy, 1);
      // The feed URL's secret path is never printed.
      assert.ok(!added.stdout.includes('secret-path') && !added.stderr.includes('secret-path'));

      feedStatus = 503;
      const failed = await cli(['calendar:sync', 'ada'], env);
      assert.equal(failed.status, 1);
      const summary = JSON.parse(failed.stdout);
      assert.equal(summary.synced, 0);
      assert.equal(summary.failed, 1);
      assert.equal(summary.connections[0].error, 'the feed answered HTTP 503');
      assert.equal(failed.stdout.trim().split('\n').length, 1);
      feedStatus = 200;
    });

    test('calendar:google-connect prints a signed consent link; without configuration it explains what is missing', async () => {
      const missing = await cli(['calendar:google-connect', 'ada'], env);
      assert.equal(missing.status, 1);
      assert.match(missing.stderr, /GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and TOKEN_ENCRYPTION_KEY/);
      const google = { GOOGLE_CLIENT_ID: 'cid', GOOGLE_CLIENT_SECRET: 'secret' };
      const noKey = await cli(['calendar:google-connect', 'ada'], { ...env, ...google, TOKEN_ENCRYPTION_KEY: '' });
      assert.equal(noKey.status, 1);
      assert.match(noKey.stderr, /TOKEN_ENCRYPTION_KEY is not set/);
      const key = randomBytes(32).toString('base64');
      const run = await cli(['calendar:google-connect', 'ada'], { ...env, ...google, TOKEN_ENCRYPTION_KEY: key });
      assert.equal(run.status, 0, run.stderr);
      const link = new URL(JSON.parse(run.stdout).url);
      assert.equal(link.origin, 'https://accounts.google.com');
      assert.equal(link.searchParams.get('redirect_uri'), 'https://book.example.com/api/calendar/google/callback');
      assert.match(link.searchParams.get('state') ?? '', /^[\w-]+\.[\w-]+$/);
      assert.ok(!run.stdout.includes('secret') && !run.stderr.includes(key));
    });
  });
}
