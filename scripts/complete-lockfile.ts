// Adds lock entries for other platforms' optional binaries (e.g. `@biomejs/cli-darwin-arm64`) that `npm install`
// left out because the registry it used could not serve them. `npm ci` insists that every optional dependency has
// an entry; with `os`/`cpu`/`libc` recorded, it skips them on a platform they do not fit without fetching them.
// Run it after `npm install` changes package-lock.json: `npm run lock:complete`.
import { readFileSync, writeFileSync } from 'node:fs';

type Entry = {
  version?: string;
  dev?: boolean;
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
};

const OS = new Set([
  'aix',
  'android',
  'darwin',
  'freebsd',
  'linux',
  'netbsd',
  'openbsd',
  'openharmony',
  'sunos',
  'win32',
]);

/** Platform fields read off a binary package's name: `<name>-<os>-<cpu>[-<libc or abi>]`. */
function platformOf(name: string): { os: string[]; cpu: string[]; libc?: string[] } | null {
  const parts = name.split('/').pop()?.split('-') ?? [];
  const at = parts.findIndex((part) => OS.has(part));
  const os = parts[at];
  const cpu = parts[at + 1];
  if (at < 0 || !os || !cpu) return null;
  const abi = parts[at + 2];
  const libc = abi === 'musl' ? ['musl'] : abi === 'gnu' ? ['glibc'] : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc } : {}) };
}

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8')) as { packages: Record<string, Entry> };
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key] || lock.packages[`${path}/${key}`]) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
    lock.packages[key] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added += 1;
  }
}
const sorted = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
writeFileSync(file, `${JSON.stringify({ ...lock, packages: sorted }, null, 2)}\n`);
console.error(`complete-lockfile: added ${added} platform entr${added === 1 ? 'y' : 'ies'}`);
