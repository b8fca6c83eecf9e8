// Shared pieces of the benchmarks: timing statistics, Markdown tables, a seeded PRNG, options from the
// environment and clean-up of temporary databases when a run is interrupted.

/** A benchmark module exports `run`; bench/run.ts lists the modules by name. */
export type BenchmarkModule = { run(): Promise<void> };

export type Stats = { calls: number; medianMs: number; p99Ms: number; meanMs: number; perSecond: number };

/** Nearest-rank percentile of sorted samples (p in 0..100). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** Latency statistics of one series of sequential calls; calls/s is the series' rate, 1000 / mean. */
export function summarize(samplesMs: readonly number[]): Stats {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    calls: sorted.length,
    medianMs: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    meanMs: sorted.length > 0 ? sum / sorted.length : Number.NaN,
    perSecond: sum > 0 ? (sorted.length * 1000) / sum : Number.NaN,
  };
}

/** One turn of the event loop. PGlite answers through microtasks only, so without this a loop of PGlite calls
 *  would never let timers, I/O or signals (Ctrl-C) in, which a server handling requests always does. */
export const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Times `calls` sequential calls of fn(i) after `warmup` untimed ones; the event loop gets a turn between calls,
 * outside the timed part.
 */
export async function measure(
  fn: (i: number) => unknown | Promise<unknown>,
  options: { calls: number; warmup: number },
): Promise<Stats> {
  for (let i = 0; i < options.warmup; i++) {
    await fn(i);
    await tick();
  }
  const samples: number[] = new Array(options.calls);
  for (let i = 0; i < options.calls; i++) {
    const t0 = performance.now();
    await fn(options.warmup + i);
    samples[i] = performance.now() - t0;
    await tick();
  }
  return summarize(samples);
}

/** Fixed decimals for small values, none for large ones. */
export function fmt(value: number, decimals = 2): string {
  if (!Number.isFinite(value)) return '-';
  return value >= 1000 ? Math.round(value).toLocaleString('en-US') : value.toFixed(decimals);
}

/** Prints a Markdown table with aligned columns; columns whose header starts with a space are right-aligned. */
export function printTable(title: string, header: readonly string[], rows: readonly (readonly string[])[]): void {
  const right = header.map((name) => name.startsWith(' '));
  const names = header.map((name) => name.trim());
  const widths = names.map((name, c) => Math.max(name.length, ...rows.map((row) => (row[c] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, c) => (right[c] ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((width, c) => (right[c] ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2))).join('|')}|`;
  console.log(`\n${title}\n`);
  console.log(line(names));
  console.log(rule);
  for (const row of rows) console.log(line(row));
  console.log('');
}

/** Deterministic PRNG (mulberry32): the same seed draws the same days on every backend and every run. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

export function envList(name: string, fallback: readonly string[]): string[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return [...fallback];
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

// Temporary databases still open: dropped on Ctrl-C too, so an interrupted run leaves nothing behind.
const cleanups = new Set<() => Promise<void>>();

/**
 * Runs fn with a resource and always disposes of it, also when the process is interrupted meanwhile (even while
 * the resource is still being opened: the interrupt then waits for it and disposes of it).
 */
export async function withResource<T, R>(
  open: () => Promise<T>,
  dispose: (resource: T) => Promise<void>,
  fn: (resource: T) => Promise<R>,
): Promise<R> {
  const opening = open();
  // Memoised: an interrupt and the finally below may both ask for it. A failed open has nothing to dispose of.
  let disposing: Promise<void> | undefined;
  const cleanup = () => {
    disposing ??= opening.then(dispose, () => {});
    return disposing;
  };
  cleanups.add(cleanup);
  try {
    return await fn(await opening);
  } finally {
    cleanups.delete(cleanup);
    await cleanup();
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // once: a second Ctrl-C gets the default behaviour and ends the process at once.
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up ${cleanups.size} temporary database(s)...`);
    Promise.allSettled([...cleanups].map((cleanup) => cleanup())).finally(() => process.exit(130));
  });
}
