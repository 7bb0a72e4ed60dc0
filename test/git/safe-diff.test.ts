import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runGit } from '../../src/git/run-git.js';
import { withSafeDiffFlags } from '../../src/git/safe-git.js';
import { makeRepo, type TempRepo } from './temp-repo.js';

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

it("teamd's diff, log -p and show run no diff.external nor textconv of the repository's config, and still print the diff", async () => {
  repo = makeRepo();
  const marker = join(repo.root, '..', `marker-${process.pid}`);
  repo.git(['config', 'diff.external', `touch ${marker}`]);
  repo.git(['config', 'diff.txt.textconv', `touch ${marker}.tc; cat`]);
  repo.write('.gitattributes', '*.txt diff=txt\n');
  repo.write('src/a.txt', 'changed\n');
  for (const args of [['diff'], ['log', '-p', '-1'], ['show', 'HEAD']]) {
    const run = await runGit(repo.root, args);
    expect(run.exitCode, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  }
  expect((await runGit(repo.root, ['diff'])).stdout).toContain('+changed');
  expect(existsSync(marker) || existsSync(`${marker}.tc`)).toBe(false);
});

it('the safe diff flags go right after the subcommand, past leading options, once', () => {
  expect(withSafeDiffFlags(['diff', '--cached'])).toEqual([
    'diff',
    '--no-ext-diff',
    '--no-textconv',
    '--cached',
  ]);
  expect(withSafeDiffFlags(['--git-dir=/x', '--work-tree=/y', 'log', '-p'])).toEqual([
    '--git-dir=/x',
    '--work-tree=/y',
    'log',
    '--no-ext-diff',
    '--no-textconv',
    '-p',
  ]);
  expect(withSafeDiffFlags(['diff', '--no-ext-diff'])).toEqual(['diff', '--no-ext-diff']);
  expect(withSafeDiffFlags(['status'])).toEqual(['status']);
});
