// npm test: typecheck, lint and the vitest suite, then one closing line
// `N passed, N failed` (typecheck and lint count as one check each).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const extra = process.argv.slice(2);
const run = (label, cmd, args, env = {}) => {
  console.log(`\n── ${label}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
};

let passed = 0;
let failed = 0;
const check = (ok) => (ok ? passed++ : failed++);

if (!extra.length) {
  check(run('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']));
  check(run('typecheck (web page)', 'npx', ['tsc', '--noEmit', '-p', 'web/tsconfig.json']));
  check(run('lint', 'npx', ['eslint', 'src', 'test', 'bench', 'web']));
}
const summary = join(mkdtempSync(join(tmpdir(), 'teamd-test-')), 'summary.json');
const vitestOk = run('vitest', 'npx', ['vitest', 'run', ...extra], { VITEST_SUMMARY_FILE: summary });
if (existsSync(summary)) {
  const s = JSON.parse(readFileSync(summary, 'utf8'));
  passed += s.passed;
  failed += s.failed;
  if (!vitestOk && s.failed === 0) failed++;
} else if (!vitestOk) failed++;

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
