// `npm test`: lint, type check, unit and integration tests (PGlite and Postgres), the production build, then HTTP,
// browser (Chromium) and reliability tests against running servers. `npm test -- unit http` runs only the steps
// named. Prints one summary line "N passed, N failed" and exits non-zero on any failure.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

type Step = { name: string; command: string[]; env?: Record<string, string>; tests?: boolean };

const testFiles = (dir: string) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((file) => file.endsWith('.test.ts'))
        .sort()
        .map((file) => path.join(dir, file))
    : [];

const only = process.argv.slice(2);
const nodeTest = (files: string[], concurrency = process.env.TEST_CONCURRENCY || '2') => [
  process.execPath,
  '--import',
  'tsx',
  '--test',
  '--test-reporter=spec',
  `--test-concurrency=${concurrency}`,
  ...files,
];
// A real restart of the machine's Postgres (tests/reliability/_postgres.ts) cuts every other test's connections,
// so with it the reliability files run one at a time.
const restartsPostgres = process.env.RELIABILITY_RESTART_POSTGRES === '1' || process.env.CI === 'true';

const steps: Step[] = [
  { name: 'lint (biome)', command: ['node_modules/.bin/biome', 'check', '.'] },
  { name: 'types (tsc)', command: ['node_modules/.bin/tsc', '--noEmit'] },
  { name: 'unit', command: nodeTest(testFiles('tests/unit')), tests: true },
  { name: 'integration', command: nodeTest(testFiles('tests/integration')), tests: true },
  // The HTTP tests run the production server, so they test what `npm start` serves.
  { name: 'build', command: [process.execPath, 'node_modules/next/dist/bin/next', 'build', '--webpack'] },
  { name: 'http', command: nodeTest(testFiles('tests/api')), tests: true },
  { name: 'browser', command: nodeTest(testFiles('tests/browser')), tests: true },
  {
    name: 'reliability',
    command: nodeTest(testFiles('tests/reliability'), restartsPostgres ? '1' : undefined),
    tests: true,
  },
].filter((step) => only.length === 0 || only.some((name) => step.name.startsWith(name)));

function run(step: Step): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const [bin, ...args] = step.command as [string, ...string[]];
    const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...step.env };
    const child = spawn(bin, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const tee = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
      output += chunk.toString();
      stream.write(chunk);
    };
    child.stdout.on('data', tee(process.stdout));
    child.stderr.on('data', tee(process.stderr));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

let passed = 0;
let failed = 0;
const report: string[] = [];
for (const step of steps) {
  const started = Date.now();
  console.log(`\n=== ${step.name} ===`);
  const { code, output } = await run(step);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (step.tests) {
    const pass = Number(/^\S*\s*pass (\d+)/m.exec(output)?.[1] ?? 0);
    const fail = Number(/^\S*\s*fail (\d+)/m.exec(output)?.[1] ?? 0);
    passed += pass;
    failed += fail + (code !== 0 && fail === 0 ? 1 : 0);
    report.push(`${code === 0 ? 'ok  ' : 'FAIL'} ${step.name}: ${pass} passed, ${fail} failed (${seconds}s)`);
  } else {
    if (code === 0) passed += 1;
    else failed += 1;
    report.push(`${code === 0 ? 'ok  ' : 'FAIL'} ${step.name} (${seconds}s)`);
  }
}

console.log(`\n=== summary ===\n${report.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
