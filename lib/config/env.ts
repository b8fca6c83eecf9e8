import path from 'node:path';

/** Where the embedded default keeps its state: PGlite in <DATA_DIR>/db, outbox files in <DATA_DIR>/mail. */
export function dataDir(): string {
  return path.resolve(process.env.DATA_DIR || '.data');
}

/** Real Postgres (Supabase) when set; PGlite in dataDir() otherwise. */
export function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

export function migrationsDir(): string {
  return path.resolve(process.env.MIGRATIONS_DIR || path.join(process.cwd(), 'supabase', 'migrations'));
}
