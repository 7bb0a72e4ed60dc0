import { appendFileSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitStatusSummary } from '../../src/agent/context/git.js';
import { commitWorktree, teammateEmail } from '../../src/git/commit.js';
import { MergeQueue } from '../../src/git/merge-queue.js';
import { runGit } from '../../src/git/run-git.js';
import { Worktrees } from '../../src/git/worktrees.js';
import {
  hookAt,
  makeTaskWorktree,
  markerLeft,
  nestedRepo,
  redirectGitDir,
  trapConfig,
} from './escape-kit.js';
import { makeRepo, type TempRepo } from './temp-repo.js';

let repo: TempRepo;
let path: string;
let marker: string;
beforeEach(async () => {
  repo = makeRepo();
  marker = join(repo.root, '..', `marker-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  path = await makeTaskWorktree(repo, 'work');
});
afterEach(() => {
  rmSync(marker, { force: true });
  repo.cleanup();
});

const asMallory = { message: 'work: done', authorName: 'mallory', authorEmail: teammateEmail('mallory') };
const branchTip = (): string => repo.git(['rev-parse', 'teamd/work']);

describe("teamd's git in a worktree a teammate controls", () => {
  it('a .git redirected to a git dir with core.fsmonitor: nothing runs, the commit fails naming the file', async () => {
    const before = branchTip();
    repo.write('src/new.txt', 'the work\n', path);
    redirectGitDir(path, 'evilgit', trapConfig('core.fsmonitor', marker));

    const result = await commitWorktree(path, asMallory);
    expect(markerLeft(marker)).toBe(false);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain(
      `${join(path, '.git')} no longer points at the git dir teamd created`,
    );
    expect(!result.ok && result.error).toContain('gitdir: evilgit');
    expect(branchTip()).toBe(before);
    expect(repo.read('src/new.txt', path)).toBe('the work\n');
  });

  it("a .git pointing at another worktree's git dir, a folder, or a symlink is refused", async () => {
    const other = await makeTaskWorktree(repo, 'other');
    const otherAdmin = repo.git(['rev-parse', '--path-format=absolute', '--git-dir'], other);
    const variants: Array<() => void> = [
      () => writeFileSync(join(path, '.git'), `gitdir: ${otherAdmin}\n`),
      () => writeFileSync(join(path, '.git'), `gitdir: ${'x'.repeat(20_000)}\n`),
      () => {
        rmSync(join(path, '.git'));
        symlinkSync(join(other, '.git'), join(path, '.git'));
      },
      () => {
        rmSync(join(path, '.git'), { recursive: true, force: true });
        redirectGitDir(path, '.git-real', '');
        rmSync(join(path, '.git'));
        symlinkSync(join(path, '.git-real'), join(path, '.git'));
      },
    ];
    for (const spoil of variants) {
      spoil();
      const result = await commitWorktree(path, asMallory);
      expect(!result.ok && result.error).toMatch(/\.git no longer points at the git dir teamd created/);
    }
    expect(repo.git(['log', '--format=%s', '-1', 'teamd/other'])).toBe('initial');
  });

  it('every git call teamd makes in such a worktree is refused, not only the commit', async () => {
    redirectGitDir(path, 'evilgit', trapConfig('core.fsmonitor', marker));
    const status = await runGit(path, ['status', '--porcelain']);
    expect(status.exitCode).not.toBe(0);
    expect(status.stderr).toMatch(/no longer points at the git dir/);
    const listed = await new Worktrees({ repoRoot: repo.root }).list();
    expect(listed.ok && listed.value.find((w) => w.taskId === 'work')?.dirty).toBe(true);
    expect(markerLeft(marker)).toBe(false);
  });

  it("the session context's git status runs no fsmonitor of a redirected git dir", async () => {
    redirectGitDir(path, 'evilgit', trapConfig('core.fsmonitor', marker));
    await gitStatusSummary(path);
    expect(markerLeft(marker)).toBe(false);
  });

  it('a worktree whose registration was pruned away cannot be committed through its .git', async () => {
    repo.write('src/new.txt', 'the work\n', path);
    rmSync(join(repo.root, '.git', 'worktrees', 'work'), { recursive: true });
    redirectGitDir(path, 'evilgit', trapConfig('core.fsmonitor', marker));
    const result = await commitWorktree(path, asMallory);
    expect(!result.ok && result.error).toMatch(/no git dir under .* is registered for it/);
    expect(markerLeft(marker)).toBe(false);
  });

  it('a repository that merely lives in a folder named .worktrees is used as it is', async () => {
    const parent = join(repo.root, '..', `${Date.now()}-home`);
    mkdirSync(join(parent, '.worktrees'), { recursive: true });
    repo.git(['init', '-q', parent]); // a home folder kept in git, say
    renameSync(makeRepo().root, join(parent, '.worktrees', 'proj'));
    try {
      const run = await runGit(join(parent, '.worktrees', 'proj'), ['rev-parse', '--abbrev-ref', 'HEAD']);
      expect(run).toMatchObject({ exitCode: 0, stdout: 'main' });
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it("ignores core.fsmonitor, a relative core.hooksPath and a pager in the repository's config", async () => {
    appendFileSync(join(repo.root, '.git', 'config'), trapConfig('core.fsmonitor', marker));
    repo.git(['config', 'core.hooksPath', '.husky']);
    hookAt(join(path, '.husky'), 'pre-commit', marker);
    repo.git(['config', 'core.pager', `touch '${marker}'`]);
    repo.write('src/a.txt', 'changed\n', path);

    const result = await commitWorktree(path, asMallory);
    expect(result.ok).toBe(true);
    expect(markerLeft(marker)).toBe(false);
    expect(branchTip()).not.toBe(repo.git(['rev-parse', 'main']));
  });

  it("ignores core.fsmonitor in the worktree's own config.worktree and in a nested repository", async () => {
    repo.git(['config', 'extensions.worktreeConfig', 'true']);
    repo.git(['config', '--worktree', 'core.fsmonitor', `touch '${marker}'; false`], path);
    nestedRepo(path, trapConfig('core.fsmonitor', marker));
    repo.write('src/a.txt', 'changed\n', path);
    const result = await commitWorktree(path, asMallory);
    expect(result.ok).toBe(true);
    expect((await commitWorktree(path, asMallory)).ok).toBe(true);
    expect(markerLeft(marker)).toBe(false);
  });

  it('refuses to commit while the repository config defines a filter a .gitattributes can select', async () => {
    repo.git(['config', 'filter.evil.clean', `touch '${marker}'; cat`]);
    repo.write('.gitattributes', '* filter=evil\n', path);
    repo.write('src/a.txt', 'changed\n', path);
    const result = await commitWorktree(path, asMallory);
    expect(!result.ok && result.error).toMatch(/defines filter\.evil\.clean \([^)]*\.git\/config\)/);
    expect(markerLeft(marker)).toBe(false);
    expect(branchTip()).toBe(repo.git(['rev-parse', 'main']));
  });

  it('every git call in a worktree is refused once the repository config names a driver, not only the commit', async () => {
    repo.write('.gitattributes', '* filter=evil merge=evil\n', path);
    repo.write('src/a.txt', 'changed\n', path);
    expect((await runGit(path, ['status', '--porcelain'])).exitCode).toBe(0);
    repo.git(['config', 'filter.evil.clean', `touch '${marker}'; cat`]);
    const status = await runGit(path, ['status', '--porcelain']);
    expect(status.stderr).toMatch(/defines filter\.evil\.clean/);
    repo.git(['config', '--unset', 'filter.evil.clean']);
    expect((await runGit(path, ['status', '--porcelain'])).exitCode).toBe(0);
    repo.git(['config', 'merge.evil.driver', `touch '${marker}'; false`]);
    const merged = await runGit(path, ['merge', '--no-edit', 'main']);
    expect(merged.stderr).toMatch(/defines merge\.evil\.driver/);
    expect(markerLeft(marker)).toBe(false);
  });

  it('the merge queue runs no merge driver the repository config defines', async () => {
    repo.write('src/a.txt', 'changed\n', path);
    repo.write('.gitattributes', '* merge=evil\n', path);
    expect((await commitWorktree(path, asMallory)).ok).toBe(true);
    repo.git(['config', 'merge.evil.driver', `touch '${marker}'; false`]);
    const queue = await MergeQueue.open({ repoRoot: repo.root });
    if (!queue.ok) throw new Error(queue.error);
    try {
      await queue.value.enqueue({ taskId: 'work', branch: 'teamd/work', agent: 'mallory', subject: 'x' });
      const [result] = await queue.value.drain();
      expect(result).toMatchObject({ type: 'merge_refused', reason: 'error' });
      expect(result?.type === 'merge_refused' && result.message).toMatch(/merge\.evil\.driver/);
    } finally {
      await queue.value.close();
    }
    expect(markerLeft(marker)).toBe(false);
  });
});
