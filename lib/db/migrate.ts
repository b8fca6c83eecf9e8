import fs from 'node:fs';
import path from 'node:path';
import { migrationsDir } from '../config/env';
import type { Db } from './client';

export type Migration = { version: string; name: string; sql: string };

export function loadMigrations(dir = migrationsDir()): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((file) => /^\d+_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const [version = file, ...rest] = file.replace(/\.sql$/, '').split('_');
      return { version, name: rest.join('_'), sql: fs.readFileSync(path.join(dir, file), 'utf8') };
    });
}

// Any constant shared by all app instances: the advisory lock serialises concurrent start-ups on one Postgres.
const MIGRATION_LOCK_ID = 727_400_001;

/** Applies the migrations that have not run yet, in order, in one transaction; returns the versions applied. */
export async function migrate(db: Db, migrations = loadMigrations()): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    await tx.exec(`create table if not exists schema_migrations (
      version text primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`);
    const { rows } = await tx.query<{ version: string }>('select version from schema_migrations');
    const done = new Set(rows.map((row) => row.version));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    return applied;
  });
}
