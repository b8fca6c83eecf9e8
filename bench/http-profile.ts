// Where the server's CPU time went: the V8 profile that `node --cpu-prof` writes when the server exits, summed by
// self time per function and per part of the stack (our code in the server bundle, Next.js, React, pg, PGlite's
// WebAssembly Postgres, Node internals, garbage collection, idle). Used by bench/http.ts with BENCH_PROFILE=1, and on
// its own: `tsx bench/http-profile.ts FILE.cpuprofile`.
import fs from 'node:fs';
import path from 'node:path';
import { fmt, printTable } from './harness';

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

export function profileNodeArgs(dir: string): string[] {
  // A 200 µs interval instead of 1 ms: the API paths take a few ms each.
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=200'];
}

/** Which part of the process a frame belongs to. */
export function category(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') {
    if (functionName === '(idle)') return 'idle (waiting for I/O)';
    if (functionName === '(garbage collector)') return 'garbage collector';
    if (functionName === '(program)') return 'V8/native (program)';
    return 'native (V8 builtins, regexps, C++ bindings)';
  }
  if (url.startsWith('wasm://')) return 'PGlite: Postgres in WebAssembly';
  if (url.includes('@electric-sql/pglite')) return 'PGlite: JS wrapper';
  if (url.startsWith('node:')) return 'Node.js internals';
  if (/node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-\w+)\//.test(url)) return 'pg driver';
  if (url.includes('/next/dist/compiled/next-server/') || url.includes('/next/dist/server/')) return 'Next.js server';
  if (url.includes('/next/dist/compiled/react') || url.includes('react-dom')) return 'React';
  if (url.includes('/next/')) return 'Next.js (other)';
  if (url.includes('/.next') && url.includes('/server/')) return 'app bundle (.next/server: lib/ + routes)';
  if (url.includes('node_modules/')) return `node_modules/${url.split('node_modules/').at(-1)?.split('/')[0]}`;
  return 'other';
}

export type ProfileSummary = {
  totalMs: number;
  byCategory: { name: string; ms: number }[];
  byFunction: { name: string; where: string; category: string; ms: number }[];
};

export function summarizeProfile(file: string): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] as number;
    // timeDeltas[i] is the time since the previous sample; it belongs to the frame sampled at i.
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const categories = new Map<string, number>();
  const functions = new Map<string, { name: string; where: string; category: string; ms: number }>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const frame = (nodes.get(id) as ProfileNode).callFrame;
    const name = category(frame);
    total += us;
    categories.set(name, (categories.get(name) ?? 0) + us / 1000);
    const where = frame.url ? `${shortUrl(frame.url)}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName}@${where}`;
    const entry = functions.get(key) ?? { name: frame.functionName || '(anonymous)', where, category: name, ms: 0 };
    entry.ms += us / 1000;
    functions.set(key, entry);
  }
  return {
    totalMs: total / 1000,
    byCategory: [...categories].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms),
    byFunction: [...functions.values()].sort((a, b) => b.ms - a.ms),
  };
}

function shortUrl(url: string): string {
  const clean = url.replace(/^file:\/\//, '');
  const nm = clean.lastIndexOf('node_modules/');
  if (nm >= 0) return clean.slice(nm + 'node_modules/'.length);
  const next = clean.indexOf('/.next');
  if (next >= 0) return clean.slice(next + 1);
  return path.basename(clean);
}

/** Prints the summary of the (newest) .cpuprofile in `dir`. */
export function printProfile(dir: string, title: string, top = 25): void {
  const files = fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.cpuprofile'))
    .map((file) => path.join(dir, file))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  const file = files[0];
  if (!file) {
    console.log(`no .cpuprofile in ${dir} (the server did not exit cleanly?)`);
    return;
  }
  printSummary(summarizeProfile(file), `${title} (${file})`, top);
}

export function printSummary(summary: ProfileSummary, title: string, top = 25): void {
  const busy = summary.byCategory.filter((c) => !c.name.startsWith('idle')).reduce((t, c) => t + c.ms, 0);
  printTable(
    `CPU profile, self time by part: ${title}`,
    ['part', ' ms', ' % of total', ' % of busy'],
    summary.byCategory.map((c) => [
      c.name,
      fmt(c.ms, 0),
      fmt((100 * c.ms) / summary.totalMs, 1),
      c.name.startsWith('idle') ? '' : fmt((100 * c.ms) / busy, 1),
    ]),
  );
  printTable(
    `CPU profile, top ${top} functions by self time`,
    ['function', 'where', 'part', ' ms', ' % of busy'],
    summary.byFunction
      .filter((f) => !f.category.startsWith('idle'))
      .slice(0, top)
      .map((f) => [f.name, f.where, f.category, fmt(f.ms, 0), fmt((100 * f.ms) / busy, 1)]),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? '')) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: tsx bench/http-profile.ts FILE.cpuprofile');
    process.exit(2);
  }
  printSummary(summarizeProfile(file), file);
}
