import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { excludeLockFolders, excludeWorktreesFolder } from '../../src/git/exclude.js';
import { makeRepo, type TempRepo } from './temp-repo.js';

let repo: TempRepo;
beforeEach(() => (repo = makeRepo()));
afterEach(() => repo.cleanup());

const ignored = (path: string): boolean => {
  try {
    execFileSync('git', ['check-ignore', '-q', path], { cwd: repo.root });
    return true;
  } catch {
    return false;
  }
};

it('hides lock folders at any depth and the worktrees folder, through info/exclude only, once each', async () => {
  expect(ignored('.tasks/.locks/.owner-1-0-ab')).toBe(false);
  for (let i = 0; i < 2; i++) {
    expect((await excludeLockFolders(repo.root)).ok).toBe(true);
    expect((await excludeWorktreesFolder(repo.root)).ok).toBe(true);
  }
  expect(ignored('.tasks/.locks/.owner-1-0-ab')).toBe(true);
  expect(ignored('.mailboxes/.locks/ann.json')).toBe(true);
  expect(ignored('.worktrees/t1/file.txt')).toBe(true);
  expect(ignored('.tasks/t1.json')).toBe(false);
  const exclude = readFileSync(join(repo.root, '.git', 'info', 'exclude'), 'utf8');
  expect(exclude.split('\n').filter((l) => l === '.locks/')).toHaveLength(1);
});
