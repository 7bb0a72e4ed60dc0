/**
 * Issue 16 (2, 3, 8): a teammate attacking teamd's own git and file tools
 * from inside its worktree. Every config key git runs as a command, placed
 * where a teammate (or its bash) can put it; generated `.git` pointers;
 * generated `.git` spellings for the file tools; killed-git lock leftovers.
 * The invariants: no trap ever runs, a commit that succeeds has the work on
 * the task's branch, one that fails says why, and no lock leftover makes a
 * task fail for good.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitWorktree, teammateEmail } from '../../src/git/commit.js';
import { runGit } from '../../src/git/run-git.js';
import { Worktrees } from '../../src/git/worktrees.js';
import { writeTool } from '../../src/tools/write.js';
import {
  EXECUTABLE_KEYS,
  makeTaskWorktree,
  markerLeft,
  nestedRepo,
  redirectGitDir,
  trapConfig,
} from '../git/escape-kit.js';
import { makeRepo, type TempRepo } from '../git/temp-repo.js';
import { createTempRoot } from '../tools/temp-root.js';
import { budget, SEED, seededRandom, sized } from './support/scale.js';

let repo: TempRepo;
let marker: string;
let n = 0;
beforeEach(() => {
  repo = makeRepo();
  marker = join(repo.root, '..', `${repo.root.split('/').pop()}-marker`);
});
afterEach(() => {
  rmSync(marker, { force: true });
  repo.cleanup();
});

const asMallory = { message: 'work', authorName: 'mallory', authorEmail: teammateEmail('mallory') };
const PLACES = ['repository config', 'config.worktree', 'redirected git dir', 'nested repository'] as const;

/** Sets the trap for `key` in `place`, for the worktree at `path`. */
function setTrap(place: (typeof PLACES)[number], key: string, path: string): void {
  const config = trapConfig(key, marker);
  if (place === 'repository config') writeFileSync(join(repo.root, '.git', 'config'), config, { flag: 'a' });
  else if (place === 'config.worktree') {
    repo.git(['config', 'extensions.worktreeConfig', 'true']);
    const admin = repo.git(['rev-parse', '--path-format=absolute', '--git-dir'], path);
    writeFileSync(join(admin, 'config.worktree'), config, { flag: 'a' });
  } else if (place === 'redirected git dir') redirectGitDir(path, 'evilgit', config);
  else nestedRepo(path, config);
}

describe('git escapes (issue 16)', () => {
  it(
    'no config key git runs as a command runs in teamd git, wherever a teammate puts it',
    async () => {
      const random = seededRandom(SEED);
      const cases = PLACES.flatMap((place) => EXECUTABLE_KEYS.map((key) => ({ place, key })));
      const chosen = sized(
        cases,
        cases.filter(() => random() < 0.12),
      );
      const config = join(repo.root, '.git', 'config');
      const cleanConfig = readFileSync(config, 'utf8');
      for (const { place, key } of chosen) {
        const path = await makeTaskWorktree(repo, `t${++n}`);
        repo.write('src/work.txt', `${place} ${key}\n`, path);
        setTrap(place, key, path);
        repo.write('src/a.txt', 'tracked change\n', path);
        await runGit(path, ['diff']); // git diff runs diff.external unless told not to
        const result = await commitWorktree(path, asMallory);
        await runGit(path, ['status']);
        await runGit(path, ['log', '-p', '-1']);
        await new Worktrees({ repoRoot: repo.root }).list();
        const label = `${key} in the ${place}`;
        expect(markerLeft(marker), label).toBe(false);
        if (place === 'redirected git dir')
          expect(!result.ok && result.error, label).toMatch(/\.git no longer points/);
        else expect(result.ok, `${label}: ${!result.ok && result.error}`).toBe(true);
        writeFileSync(config, cleanConfig);
      }
    },
    budget(600_000, 60_000),
  );

  it(
    'a generated .git pointer: the commit lands on the task branch only through the git dir teamd made',
    async () => {
      const path = await makeTaskWorktree(repo, 'ptr');
      const admin = repo.git(['rev-parse', '--path-format=absolute', '--git-dir'], path);
      const other = await makeTaskWorktree(repo, 'other');
      const otherAdmin = repo.git(['rev-parse', '--path-format=absolute', '--git-dir'], other);
      redirectGitDir(path, 'evilgit', trapConfig('core.fsmonitor', marker), `gitdir: ${admin}`);
      const pointer = fc.oneof(
        fc.constantFrom(
          `gitdir: ${admin}`,
          `gitdir: ${otherAdmin}`,
          'gitdir: evilgit',
          `gitdir: ${path}/evilgit`,
        ),
        fc.constantFrom(
          `gitdir: ${admin}/`,
          `gitdir:${admin}`,
          `gitdir: ${admin}\r`,
          `gitdir: ${admin}/../other`,
          '',
        ),
        fc.string({ maxLength: 40 }).map((s) => `gitdir: ${s}`),
      );
      let okCount = 0;
      await fc.assert(
        fc.asyncProperty(pointer, async (text) => {
          writeFileSync(join(path, '.git'), `${text}\n`);
          repo.write('src/work.txt', `${++n}\n`, path);
          const result = await commitWorktree(path, asMallory);
          expect(markerLeft(marker)).toBe(false);
          if (result.ok) okCount++;
          if (result.ok) expect(repo.git(['show', 'teamd/ptr:src/work.txt'])).toBe(String(n));
          else expect(result.error).toContain(`${join(path, '.git')} no longer points`);
        }),
        { seed: SEED, numRuns: sized(200, 12) },
      );
      expect(okCount, 'some pointers were the right one').toBeGreaterThan(0);
    },
    budget(600_000, 60_000),
  );

  it('the file tools refuse every spelling of a .git segment and nothing else for it', async () => {
    const t = await createTempRoot();
    try {
      const cased = fc
        .array(fc.boolean(), { minLength: 3, maxLength: 3 })
        .map((up) => ['g', 'i', 't'].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));
      const gitName = fc
        .tuple(cased, fc.constantFrom('', '.', '..', ' ', '. '))
        .map(([g, tail]) => `.${g}${tail}`);
      const plain = fc.stringMatching(/^[a-z0-9_-][a-z0-9._-]{0,8}$/).filter((s) => !/^\.git[. ]*$/i.test(s));
      const place = fc.tuple(fc.array(plain, { maxLength: 2 }), gitName, fc.array(plain, { maxLength: 2 }));
      await fc.assert(
        fc.asyncProperty(place, async ([before, dotGit, after]) => {
          const p = [...before, dotGit, ...after].join('/');
          const result = await t.run(writeTool, { file_path: p, content: 'x' });
          expect(result.isError, p).toBe(true);
          expect(result.content, p).toMatch(/git's own data/);
        }),
        { seed: SEED, numRuns: sized(500, 60) },
      );
      await fc.assert(
        fc.asyncProperty(fc.array(plain, { minLength: 1, maxLength: 3 }), async (segments) => {
          const p = segments.join('/');
          const result = await t.run(writeTool, { file_path: p, content: 'x' });
          if (result.isError) expect(result.content, p).not.toMatch(/git's own data/);
        }),
        { seed: SEED, numRuns: sized(300, 40) },
      );
    } finally {
      await t.close();
    }
  });

  it(
    'whatever locks a killed git left in a worktree, reusing it clears them and the commit succeeds',
    async () => {
      const random = seededRandom(SEED + 1);
      const worktrees = new Worktrees({ repoRoot: repo.root });
      for (let round = 0; round < sized(40, 3); round++) {
        const id = `lock${round}`;
        const path = await makeTaskWorktree(repo, id);
        const admin = join(repo.root, '.git', 'worktrees', id);
        const locks = [
          join(admin, 'index.lock'),
          join(admin, 'HEAD.lock'),
          join(admin, 'ORIG_HEAD.lock'),
          join(admin, 'refs', 'bisect', 'x.lock'),
          join(repo.root, '.git', 'refs', 'heads', 'teamd', `${id}.lock`),
          join(admin, 'locked'),
        ].filter(() => random() < 0.6);
        for (const lock of locks) {
          mkdirSync(join(lock, '..'), { recursive: true });
          writeFileSync(lock, '');
        }
        repo.write('src/work.txt', `${id}\n`, path);
        expect((await worktrees.create({ taskId: id, agent: 'mallory' })).ok).toBe(true);
        const result = await commitWorktree(path, asMallory);
        expect(result.ok, `${locks.join(', ')}: ${!result.ok && result.error}`).toBe(true);
        expect(repo.git(['show', `teamd/${id}:src/work.txt`])).toBe(id);
      }
    },
    budget(600_000, 60_000),
  );
});
