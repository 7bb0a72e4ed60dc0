import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitWorktree, teammateEmail } from '../../src/git/commit.js';
import { Worktrees } from '../../src/git/worktrees.js';
import { makeRepo, type TempRepo } from './temp-repo.js';

let repo: TempRepo;
let path: string;
beforeEach(async () => {
  repo = makeRepo();
  const made = await new Worktrees({ repoRoot: repo.root }).create({ taskId: 'work', agent: 'ada' });
  if (!made.ok) throw new Error(made.error);
  path = made.value.path;
});
afterEach(() => repo.cleanup());

const asAda = { message: 'work: Write the parser', authorName: 'ada', authorEmail: teammateEmail('ada') };

describe('commitWorktree', () => {
  it('commits every change as the teammate, leaving the team folders out', async () => {
    repo.write('src/a.txt', 'changed\n', path);
    repo.write('src/new.txt', 'new\n', path);
    repo.write('.tasks/work.json', '{}', path);
    repo.write('.team/state/x.json', '{}', path);
    repo.write('nested/.mailboxes/ada.json', '[]', path);
    repo.write('.worktrees/junk', 'x', path);
    repo.git(['add', '-f', '.tasks/work.json'], path);

    const result = await commitWorktree(path, asAda);
    if (!result.ok) throw new Error(result.error);
    expect(result.value.commit).toBe(repo.git(['rev-parse', 'HEAD'], path));
    expect(repo.git(['log', '-1', '--format=%an <%ae>|%cn|%s'], path)).toBe(
      'ada <ada@teamd.local>|teamd|work: Write the parser',
    );
    const files = repo.git(['show', '--name-only', '--format=', 'HEAD'], path).split('\n').sort();
    expect(files).toEqual(['src/a.txt', 'src/new.txt']);
    expect(repo.git(['diff', '--cached', '--name-only'], path)).toBe('');
  });

  it('returns a null commit when there is nothing to commit', async () => {
    const head = repo.git(['rev-parse', 'HEAD'], path);
    repo.write('.tasks/only.json', '{}', path);
    expect(await commitWorktree(path, asAda)).toEqual({ ok: true, value: { commit: null } });
    expect(repo.git(['rev-parse', 'HEAD'], path)).toBe(head);
  });

  it('refuses to commit leftover conflict markers, keeping a merge in progress', async () => {
    repo.write('src/a.txt', 'ours\n', path);
    await commitWorktree(path, asAda);
    repo.write('src/a.txt', 'theirs\n');
    repo.git(['commit', '-q', '-am', 'main moves on']);
    expect(() => repo.git(['merge', '-q', 'main'], path)).toThrow();
    const result = await commitWorktree(path, asAda);
    expect(!result.ok && result.error).toMatch(/conflict markers are left in src\/a\.txt/);
    expect(repo.git(['rev-parse', '--verify', 'MERGE_HEAD'], path)).toBe(repo.git(['rev-parse', 'main']));

    repo.write('src/a.txt', 'ours and theirs\n', path);
    const resolved = await commitWorktree(path, asAda);
    expect(resolved.ok).toBe(true);
    expect(repo.git(['rev-parse', 'HEAD^2'], path)).toBe(repo.git(['rev-parse', 'main']));
  });

  it('runs no hook of the repository unless teamd trusts them', async () => {
    repo.write('.git/hooks/pre-commit', '#!/bin/sh\necho "lint failed: src/a.txt" >&2\nexit 1\n');
    chmodSync(join(repo.root, '.git', 'hooks', 'pre-commit'), 0o755);
    repo.write('src/a.txt', 'changed\n', path);
    expect((await commitWorktree(path, asAda)).ok).toBe(true);
  });

  it('reports a refusing commit hook as an error with its output when hooks are trusted', async () => {
    repo.write('.git/hooks/pre-commit', '#!/bin/sh\necho "lint failed: src/a.txt" >&2\nexit 1\n');
    chmodSync(join(repo.root, '.git', 'hooks', 'pre-commit'), 0o755);
    repo.write('src/a.txt', 'changed\n', path);
    process.env.TEAMD_TRUST_GIT_HOOKS = '1';
    try {
      const result = await commitWorktree(path, asAda);
      expect(!result.ok && result.error).toMatch(/lint failed: src\/a\.txt/);
    } finally {
      delete process.env.TEAMD_TRUST_GIT_HOOKS;
    }
  });
});
