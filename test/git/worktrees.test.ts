import { existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanWorktrees } from '../../src/git/hygiene.js';
import { ensureIntegrationBranch } from '../../src/git/integration.js';
import { Worktrees } from '../../src/git/worktrees.js';
import { makeRepo, type TempRepo } from './temp-repo.js';

let repo: TempRepo;
beforeEach(() => {
  repo = makeRepo();
});
afterEach(() => repo.cleanup());

describe('ensureIntegrationBranch', () => {
  it('creates the branch at HEAD without touching the main checkout, then reuses it', async () => {
    const before = repo.snapshot();
    const first = await ensureIntegrationBranch(repo.root);
    expect(first).toEqual({
      ok: true,
      value: { branch: 'teamd/integration', tip: before.head, created: true },
    });
    const again = await ensureIntegrationBranch(repo.root);
    expect(again.ok && again.value.created).toBe(false);
    expect(repo.snapshot()).toEqual(before);
  });

  it('refuses a repository with no commits, and a bad branch name', async () => {
    const empty = makeRepo();
    try {
      empty.git(['checkout', '-q', '--orphan', 'fresh']);
      const result = await ensureIntegrationBranch(empty.root);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error).toMatch(/no commits yet/);
    } finally {
      empty.cleanup();
    }
    const bad = await ensureIntegrationBranch(repo.root, 'bad..name');
    expect(!bad.ok && bad.error).toMatch(/not a valid git branch name/);
  });
});

describe('Worktrees.create', () => {
  it('makes .worktrees/<id> on teamd/<id> from the integration tip, and adopts it after a restart', async () => {
    const before = repo.snapshot();
    const worktrees = new Worktrees({ repoRoot: repo.root });
    const made = await worktrees.create({ taskId: 'parse', agent: 'w1' });
    expect(made.ok).toBe(true);
    if (!made.ok) return;
    expect(made.value).toMatchObject({
      path: join(repo.root, '.worktrees', 'parse'),
      branch: 'teamd/parse',
      reusedBranch: false,
    });
    expect(repo.git(['rev-parse', 'HEAD'], made.value.path)).toBe(
      repo.git(['rev-parse', 'teamd/integration']),
    );
    expect(repo.snapshot()).toEqual(before);

    const adopted = await new Worktrees({ repoRoot: repo.root }).create({ taskId: 'parse', agent: 'w1' });
    expect(adopted.ok && adopted.value.reusedWorktree).toBe(true);

    await worktrees.remove('parse');
    const recreated = await worktrees.create({ taskId: 'parse', agent: 'w1' });
    expect(recreated.ok && recreated.value).toMatchObject({ reusedBranch: true, reusedWorktree: false });
  });

  it('fails with the git error and leaves nothing behind when the path is taken or the base is invalid', async () => {
    const worktrees = new Worktrees({ repoRoot: repo.root });
    expect((await worktrees.create({ taskId: 'warmup', agent: 'w1' })).ok).toBe(true);
    const before = repo.snapshot();
    const branchesBefore = repo.git(['branch', '--list']);
    writeFileSync(join(repo.root, '.worktrees', 'taken'), 'not a worktree');

    const taken = await worktrees.create({ taskId: 'taken', agent: 'w1' });
    expect(!taken.ok && taken.error).toMatch(/already exists and is not the worktree/);
    const badBase = await worktrees.create({ taskId: 'based', agent: 'w1', base: 'no-such-branch' });
    expect(!badBase.ok && badBase.error).toMatch(/invalid base 'no-such-branch'/);
    const badId = await worktrees.create({ taskId: '../escape', agent: 'w1' });
    expect(badId.ok).toBe(false);
    const clash = await worktrees.create({ taskId: 'integration', agent: 'w1' });
    expect(!clash.ok && clash.error).toMatch(/integration branch itself/);

    expect(repo.snapshot()).toEqual(before);
    expect(repo.git(['branch', '--list'])).toBe(branchesBefore);
    expect(existsSync(join(repo.root, '.worktrees', 'based'))).toBe(false);
    const listed = await worktrees.list();
    expect(listed.ok && listed.value.map((w) => w.taskId)).toEqual(['warmup']);
  });

  it('undoes the worktree and its new branch when the setup command fails', async () => {
    const worktrees = new Worktrees({
      repoRoot: repo.root,
      setup: 'echo installing; echo broken >&2; exit 3',
    });
    const before = repo.snapshot();
    const result = await worktrees.create({ taskId: 'setup-fails', agent: 'w1' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/exited with 3[\s\S]*installing[\s\S]*broken/);
    expect(existsSync(join(repo.root, '.worktrees', 'setup-fails'))).toBe(false);
    expect(repo.git(['branch', '--list', 'teamd/setup-fails'])).toBe('');
    expect(repo.git(['worktree', 'list', '--porcelain'])).not.toContain('setup-fails');
    expect(repo.snapshot()).toEqual(before);
  });

  it('runs the setup command inside the new worktree', async () => {
    const worktrees = new Worktrees({ repoRoot: repo.root, setup: 'pwd > setup-ran.txt' });
    const made = await worktrees.create({ taskId: 'with-setup', agent: 'w1' });
    expect(made.ok).toBe(true);
    if (made.ok) expect(repo.read('setup-ran.txt', made.value.path).trim()).toBe(made.value.path);
  });

  it('copies the ignored files .worktreeinclude lists, and no symlink leading outside the repository', async () => {
    repo.write('.env', 'API_KEY=local\n');
    repo.write('config/local.json', '{"debug":true}\n');
    repo.write('.gitignore', '.env\n.team/state/\nconfig/local.json\nnot-listed.txt\noutside-link\n');
    repo.write('not-listed.txt', 'stay\n');
    symlinkSync('/etc/hostname', join(repo.root, 'outside-link'));
    repo.write('.worktreeinclude', '.env\nconfig/local.json\noutside-link\n');
    repo.git(['add', '.gitignore', '.worktreeinclude']);
    repo.git(['commit', '-q', '-m', 'include list']);

    const made = await new Worktrees({ repoRoot: repo.root }).create({ taskId: 'env', agent: 'w1' });
    expect(made.ok).toBe(true);
    if (!made.ok) return;
    expect(made.value.copiedFiles.sort()).toEqual(['.env', 'config/local.json']);
    expect(repo.read('.env', made.value.path)).toBe('API_KEY=local\n');
    expect(existsSync(join(made.value.path, 'not-listed.txt'))).toBe(false);
    expect(existsSync(join(made.value.path, 'outside-link'))).toBe(false);
    expect(repo.git(['status', '--porcelain'], made.value.path)).toBe('');
  });

  it('sees the work of dependencies that merged before it was created', async () => {
    const worktrees = new Worktrees({ repoRoot: repo.root });
    await ensureIntegrationBranch(repo.root);
    const tree = repo.git(['rev-parse', 'teamd/integration^{tree}']);
    const commit = repo.git(['commit-tree', tree, '-p', 'teamd/integration', '-m', 'dependency merged']);
    repo.git(['update-ref', 'refs/heads/teamd/integration', commit]);
    const made = await worktrees.create({ taskId: 'dependent', agent: 'w1' });
    expect(made.ok && repo.git(['rev-parse', 'HEAD'], made.value.path)).toBe(commit);
  });
});

describe('per-teammate worktrees', () => {
  it('keeps one worktree per teammate and brings it to the integration tip when clean', async () => {
    const worktrees = new Worktrees({ repoRoot: repo.root });
    const first = await worktrees.createForAgent('w1');
    expect(first.ok && first.value).toMatchObject({ branch: 'teamd/@w1', synced: true });
    if (!first.ok) return;
    repo.write('src/new.txt', 'from w1\n', first.value.path);
    repo.git(['add', '-A'], first.value.path);
    repo.git(['commit', '-q', '-m', 'w1 work'], first.value.path);
    // The work merges (as the queue would, with --no-ff), and the integration branch moves on.
    const merged = repo.git([
      'commit-tree',
      repo.git(['rev-parse', 'teamd/@w1^{tree}']),
      '-p',
      'teamd/integration',
      '-p',
      'teamd/@w1',
      '-m',
      'merge',
    ]);
    repo.git(['update-ref', 'refs/heads/teamd/integration', merged]);

    const second = await worktrees.createForAgent('w1');
    expect(second.ok && second.value).toMatchObject({ path: first.value.path, synced: true });
    expect(repo.git(['rev-parse', 'HEAD'], first.value.path)).toBe(merged);

    repo.write('scratch.txt', 'uncommitted\n', first.value.path);
    const dirty = await worktrees.createForAgent('w1');
    expect(dirty.ok && dirty.value).toMatchObject({ synced: false, note: 'uncommitted changes: left as is' });
    const listed = await worktrees.list();
    expect(listed.ok && listed.value).toEqual([
      expect.objectContaining({ kind: 'agent', agent: 'w1', dirty: true }),
    ]);
  });

  it('rebases unmerged commits onto the integration tip', async () => {
    const worktrees = new Worktrees({ repoRoot: repo.root });
    const made = await worktrees.createForAgent('w2');
    if (!made.ok) throw new Error(made.error);
    repo.write('mine.txt', 'unmerged\n', made.value.path);
    repo.git(['add', '-A'], made.value.path);
    repo.git(['commit', '-q', '-m', 'unmerged work'], made.value.path);
    const tree = repo.git(['rev-parse', 'teamd/integration^{tree}']);
    const moved = repo.git(['commit-tree', tree, '-p', 'teamd/integration', '-m', 'someone else']);
    repo.git(['update-ref', 'refs/heads/teamd/integration', moved]);

    const again = await worktrees.createForAgent('w2');
    expect(again.ok && again.value.synced).toBe(true);
    expect(repo.git(['rev-parse', 'HEAD~1'], made.value.path)).toBe(moved);
    expect(repo.read('mine.txt', made.value.path)).toBe('unmerged\n');
  });
});

describe('list, orphans and clean', () => {
  it('reports sizes and state, finds orphans, and removes only finished, clean worktrees', async () => {
    const worktrees = new Worktrees({ repoRoot: repo.root });
    for (const taskId of ['done', 'busy', 'done-dirty', 'gone']) {
      const made = await worktrees.create({ taskId, agent: 'w1' });
      if (!made.ok) throw new Error(made.error);
    }
    repo.write('big.bin', 'x'.repeat(200_000), join(repo.root, '.worktrees', 'busy'));
    repo.write('edit.txt', 'unsaved\n', join(repo.root, '.worktrees', 'done-dirty'));

    const listed = await worktrees.list();
    if (!listed.ok) throw new Error(listed.error);
    const byId = new Map(listed.value.map((w) => [w.taskId, w]));
    expect(byId.get('busy')?.sizeBytes).toBeGreaterThan(200_000 + (byId.get('done')?.sizeBytes ?? 0) - 1);
    expect(byId.get('done')?.sizeBytes).toBeGreaterThan(0);
    expect(byId.get('done-dirty')?.dirty).toBe(true);
    expect(byId.get('done')).toMatchObject({ kind: 'task', branch: 'teamd/done', dirty: false });

    const orphans = await worktrees.findOrphans(['done', 'busy', 'done-dirty']);
    expect(orphans.ok && orphans.value.map((w) => w.taskId)).toEqual(['gone']);

    const finished = new Set(['done', 'done-dirty', 'gone']);
    const report = await cleanWorktrees(worktrees, {
      isFinished: (id) => finished.has(id),
      deleteMergedBranches: true,
    });
    if (!report.ok) throw new Error(report.error);
    expect(report.value.removed.sort()).toEqual(['done', 'gone']);
    expect(report.value).toMatchObject({
      kept: expect.arrayContaining([
        { taskId: 'busy', reason: 'task not finished' },
        { taskId: 'done-dirty', reason: expect.stringMatching(/uncommitted/) },
      ]),
    });
    // Their branches had no commits of their own, so the integration branch contains them.
    expect(report.value.deletedBranches.sort()).toEqual(['teamd/done', 'teamd/gone']);
    expect(repo.git(['branch', '--list', 'teamd/busy'])).toContain('teamd/busy');
    const after = await worktrees.list();
    expect(after.ok && after.value.map((w) => w.taskId).sort()).toEqual(['busy', 'done-dirty']);
  });
});
