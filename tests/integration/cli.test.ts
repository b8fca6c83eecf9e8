// `npm run cli -- import FILE` end to end: stdout carries exactly one JSON document, logs go to stderr.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadMigrations } from '../../lib/db/migrate';
import { createPostgresDatabase, tempDataDir } from '../helpers/db';
import { exampleDocument } from '../helpers/fixtures';

function cli(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], {
    env: { ...process.env, DATABASE_URL: '', ...env },
    encoding: 'utf8',
  });
}

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

for (const target of targets) {
  describe(`cli on ${target.name}`, () => {
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    let file: string;
    before(async () => {
      ({ env, cleanup } = await target.setup());
      file = path.join(tempDataDir(), 'doc.json');
      fs.writeFileSync(file, JSON.stringify(exampleDocument()));
    });
    after(() => cleanup?.());

    test('migrate, then import the example: stdout is the JSON result only', () => {
      const migrated = cli(['migrate'], env);
      assert.equal(migrated.status, 0, migrated.stderr);
      assert.deepEqual(JSON.parse(migrated.stdout), { applied: loadMigrations().map((m) => m.version) });
      assert.deepEqual(JSON.parse(cli(['migrate'], env).stdout), { applied: [] });

      const imported = cli(['import', file], env);
      assert.equal(imported.status, 0, imported.stderr);
      const result = JSON.parse(imported.stdout);
      assert.equal(imported.stdout.trim().split('\n').length, 1);
      assert.deepEqual(Object.keys(result.hosts.ada).sort(), ['api_keys', 'availability', 'id', 'pages']);
      assert.deepEqual(Object.keys(result.hosts.ada.pages.intro), ['id', 'questions']);
    });

    test('an invalid document exits 1, names the field on stderr, prints nothing on stdout', () => {
      const doc = exampleDocument();
      Object.assign(doc.hosts[0] as object, { username: 'grace', email: 'grace@example.com' });
      (doc.hosts[0]?.pages[0] as { slug: string }).slug = 'Bad Slug';
      fs.writeFileSync(file, JSON.stringify(doc));
      const run = cli(['import', file], env);
      assert.equal(run.status, 1);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /hosts\[0\]\.pages\[0\]\.slug/);
    });

    test('demo creates the demo host once and prints fresh keys each time', () => {
      const first = cli(['demo'], env);
      assert.equal(first.status, 0, first.stderr);
      const a = JSON.parse(first.stdout);
      assert.equal(a.created, true);
      const b = JSON.parse(cli(['demo'], env).stdout);
      assert.equal(b.created, false);
      assert.notEqual(a.secretKey, b.secretKey);
      assert.match(b.publishableKey, /^service_pk_/);
    });
  });
}
