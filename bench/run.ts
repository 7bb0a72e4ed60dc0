/**
 * `npm run bench [-- --quick] [-- --no-build] [-- <name> …]`: builds the
 * daemon (`npm run build`; benchmarks measure dist/, see support/dist.ts),
 * then runs each benchmark in its own process, one after the other, and
 * prints the targets as PASS/MISS. Every benchmark prints its table
 * and writes bench/results/<name>.json; this runner also writes
 * bench/results/SUMMARY.md (the tables as markdown). Exits 0 whatever the
 * numbers; 1 only when a benchmark crashed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST } from './support/dist.js';
import { describeMachine, machine } from './support/machine.js';
import { renderMarkdown, RESULTS_DIR, type BenchResult } from './support/report.js';

const BENCHES = [
  'runtime',
  'cron',
  'drop-claim',
  'mail',
  'throughput',
  'scale',
  'memory',
  'mailbox-contention',
  'tokens',
  'peer-claude',
  'soak',
  'hosts',
];
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const unknown = argv.filter((a) => !a.startsWith('--') && !BENCHES.includes(a));
if (unknown.length) {
  console.error(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHES.join(', ')}`);
  process.exit(2);
}
const chosen = BENCHES.filter((b) => argv.includes(b));
const names = chosen.length ? chosen : BENCHES;

function build(): void {
  console.log('── npm run build');
  const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status === 0) return;
  // tsc still emits when another part of src/ does not typecheck yet; measure what was built, and say so.
  if (!existsSync(join(DIST, 'lead', 'lead.js'))) process.exit(1);
  console.warn('warning: the build reported errors; benchmarking the JavaScript it emitted');
}

if (!argv.includes('--no-build')) build();
console.log(`\nmachine: ${describeMachine(machine())}\nmode: ${quick ? 'quick' : 'full'}\n`);
const crashed: string[] = [];
const results: BenchResult[] = [];
for (const name of names) {
  console.log(`── ${name}`);
  const began = Date.now();
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench', name, 'index.ts'), ...(quick ? ['--quick'] : [])],
    { cwd: ROOT, stdio: 'inherit' },
  );
  console.log(`(${name}: ${((Date.now() - began) / 1000).toFixed(0)} s)\n`);
  const file = join(RESULTS_DIR, `${name}.json`);
  if (run.status !== 0 || !existsSync(file)) crashed.push(name);
  else results.push(JSON.parse(readFileSync(file, 'utf8')) as BenchResult);
}

const targets = results.flatMap((r) =>
  r.targets.map((t) => `${t.verdict}  ${r.bench}: ${t.name}: ${t.target} — measured ${t.value}`),
);
console.log(
  [
    '── targets of issue 9 (information, never a failure)',
    ...targets,
    ...crashed.map((c) => `CRASH ${c}`),
  ].join('\n'),
);
const summary = [
  `# Benchmark results (${quick ? 'quick' : 'full'})`,
  '',
  `Machine: ${describeMachine(machine())}`,
  '',
  ...results.map(renderMarkdown),
].join('\n');
writeFileSync(join(RESULTS_DIR, 'SUMMARY.md'), summary);
console.log(`\nwrote ${join(RESULTS_DIR, 'SUMMARY.md')}`);
process.exit(crashed.length ? 1 : 0);
