// PGlite is single-process: a second process on a data directory in use must fail at once, clearly.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { openDb } from '../../lib/db/client';
import { tempDataDir } from '../helpers/db';

test('a second process opening a PGlite data directory in use fails with a clear message', async () => {
  const dataDir = tempDataDir();
  const db = await openDb({ dataDir });
  try {
    const started = Date.now();
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', 'migrate'], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });
    assert.equal(child.status, 1);
    assert.match(child.stderr, /is in use by process \d+/);
    assert.match(child.stderr, /one process per data directory/);
    assert.ok(Date.now() - started < 30_000, 'fails at once rather than waiting');
    assert.equal(child.stdout, '');
  } finally {
    await db.close();
  }
  // Released on close: the directory opens again, and a stale lock of a dead process is taken over.
  fs.writeFileSync(path.join(dataDir, 'db.lock'), '999999999');
  const again = await openDb({ dataDir });
  await again.close();
  assert.equal(fs.existsSync(path.join(dataDir, 'db.lock')), false);
  fs.rmSync(dataDir, { recursive: true, force: true });
});
