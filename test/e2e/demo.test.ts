import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, onTestFailed } from 'vitest';
import { defaultDemoModel, runDemo } from '../../src/demo/demo.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('teamd demo: the lead plans, three teammates work in parallel worktrees, everything merges and the tests pass', async () => {
  dir = join(mkdtempSync(join(tmpdir(), 'teamd-demo-test-')), 'repo');
  const lines: string[] = [];
  // a run that fails or times out shows what the team did (a CI run once hung here for 180 s, 0 of 12 local repeats did)
  onTestFailed(() => console.error(`demo output before the failure:\n${lines.join('\n')}`));
  const result = await runDemo({ dir, model: defaultDemoModel({}), out: (l) => lines.push(l) });
  if (!result.ok) throw new Error(result.error);
  expect(result.summary.tasks).toMatchObject({ completed: 5, failed: 0, pending: 0, in_progress: 0 });
  expect(result.summary.scripts.every((s) => s.complete), JSON.stringify(result.summary.scripts)).toBe(true);
  const claimers = new Set(lines.filter((l) => / claimed /.test(l)).map((l) => /(worker-\d)/.exec(l)![1]));
  expect(claimers.size).toBeGreaterThanOrEqual(2);
  expect(lines.some((l) => /→ .*broadcast|→ lead: message/.test(l))).toBe(true);
  // the integration branch holds the work, and its test suite passes
  const check = join(dir, '..', 'check');
  execFileSync('git', ['worktree', 'add', '-q', check, 'teamd/integration'], { cwd: dir });
  const out = execFileSync('node', ['--test', 'test/'], { cwd: check, encoding: 'utf8' });
  expect(out).toMatch(/# fail 0/);
  expect(out).toMatch(/# pass 4/);
}, 180_000);
