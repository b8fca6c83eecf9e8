// `npm run bench [-- name ...]`: runs the named benchmarks (all when none is named) one after another.
// `npm run bench -- --list` lists them. Add a benchmark: a module under bench/ exporting `run()`, plus one entry below.
import type { BenchmarkModule } from './harness';

type Entry = { name: string; description: string; load: () => Promise<BenchmarkModule> };

const BENCHMARKS: Entry[] = [
  {
    name: 'slots',
    description: 'listSlots (page lookup + queries + engine) on PGlite and Postgres with 10k and 100k bookings',
    load: () => import('./slots'),
  },
  {
    name: 'http',
    description:
      'npm start under autocannon (50 connections) on PGlite and Postgres: req/s, p50/p99 vs /api/health, RSS',
    load: () => import('./http'),
  },
];

const args = process.argv.slice(2);
const list = () => BENCHMARKS.map((b) => `  ${b.name.padEnd(12)} ${b.description}`).join('\n');

if (args.includes('--list') || args.includes('-l') || args.includes('--help') || args.includes('-h')) {
  console.log(`Usage: npm run bench [-- name ...]\n\nBenchmarks:\n${list()}`);
  process.exit(0);
}

const unknown = args.filter((arg) => !BENCHMARKS.some((b) => b.name === arg));
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}\n\nBenchmarks:\n${list()}`);
  process.exit(2);
}

const selected = args.length === 0 ? BENCHMARKS : BENCHMARKS.filter((b) => args.includes(b.name));
let failed = false;
for (const benchmark of selected) {
  const started = performance.now();
  console.log(`\n=== bench: ${benchmark.name} ===`);
  try {
    const module = await benchmark.load();
    await module.run();
    console.log(`=== ${benchmark.name} done in ${((performance.now() - started) / 1000).toFixed(1)} s ===`);
  } catch (error) {
    failed = true;
    console.error(`=== ${benchmark.name} failed:`, error);
  }
}
process.exit(failed ? 1 : 0);
