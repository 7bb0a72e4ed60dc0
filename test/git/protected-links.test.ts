/**
 * A branch that reaches what steers the agents without a protected name in
 * its diff: symlinks added or retargeted (chains, symlinked folders, a file
 * turned into a link), a link that leads elsewhere because a link on its way
 * changed, submodules, .gitmodules and .gitattributes. Real repositories; the
 * generated case checks a checked-out link against the kernel's answer.
 */
import { mkdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { protectedChanges } from '../../src/git/protected-changes.js';
import { protectedReason } from '../../src/git/protected-paths.js';
import { makeRepo, type TempRepo } from './temp-repo.js';

// One repository for the file: every case branches from main and comes back to it.
let repo: TempRepo;
beforeAll(() => {
  repo = makeRepo();
  repo.write('.claude/settings.json', '{"permissions":{"deny":["Bash(rm:*)"]}}\n');
  repo.write('CLAUDE.md', 'rules\n');
  repo.write('docs/readme.md', 'docs\n');
  repo.write('d/settings.json', '{}\n');
  link('docs/old', '../README.md');
  link('x', 'd/settings.json');
  link('accepted', '.claude/settings.json'); // a person let this one in earlier
  repo.git(['add', '-A']);
  repo.git(['commit', '-qm', 'base']);
});
afterAll(() => repo.cleanup());

function link(at: string, to: string): void {
  const path = join(repo.root, at);
  rmSync(path, { recursive: true, force: true });
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(to, path);
}

/** A branch from main with `change` done and committed; what protectedChanges says of it. */
async function branch(name: string, change: () => void): Promise<string[]> {
  repo.git(['checkout', '-q', 'main']);
  repo.git(['checkout', '-qb', name]);
  change();
  repo.git(['add', '-A']);
  repo.git(['commit', '-qm', name, '--allow-empty']);
  repo.git(['checkout', '-q', 'main']);
  const found = await protectedChanges(repo.root, 'main', name);
  if (!found.ok) throw new Error(found.error);
  return found.value;
}

const CASES: [string, () => void, RegExp[]][] = [
  ['a link to a protected file', () => link('docs/x', '../.claude/settings.json'), [/^docs\/x: a symlink to \.claude\/settings\.json \(\.claude\/ holds/]],
  ['a link to git hooks', () => link('tools', '.git/hooks'), [/^tools: a symlink to \.git\/hooks \(files under \.git\//]],
  ['a look-alike target', () => link('docs/y', '../.CLAUDE/./settings.json'), [/^docs\/y: a symlink to \.claude\/settings\.json/]],
  ['an absolute target', () => link('cfg', '/work/main/.claude'), [/^cfg: a symlink to \/work\/main\/\.claude, outside the repository/]],
  ['a target above the root', () => link('docs/up', '../../elsewhere'), [/^docs\/up: a symlink to \.\.\/\.\.\/elsewhere, outside/]],
  ['a link to the root', () => link('docs/all', '..'), [/^docs\/all: a symlink to the repository's root/]],
  ['a chain', () => (link('a', 'b'), link('b', 'CLAUDE.md')), [/^a: a symlink to claude\.md/, /^b: a symlink to claude\.md/]],
  ['a retargeted link', () => link('docs/old', '../CLAUDE.md'), [/^docs\/old: a symlink to claude\.md/]],
  ['a file turned into a link', () => link('docs/readme.md', '../.mcp.json'), [/^docs\/readme\.md: a symlink to \.mcp\.json/]],
  [
    'a folder on the way of an old link replaced by a link',
    () => link('d', '.claude'),
    [/^d: a symlink to \.claude \(/, /^x: a symlink to \.claude\/settings\.json/],
  ],
  ['a loop', () => (link('l1', 'l2'), link('l2', 'l1')), [/^l1: a chain of symlinks too long/, /^l2: a chain/]],
  ['.claude itself replaced by a link', () => link('.claude', 'docs'), [/^\.claude\/settings\.json: /, /^\.claude: /]],
  ['.gitattributes', () => repo.write('.gitattributes', '.claude/settings.json merge=union\n'), [/^\.gitattributes: \.gitattributes sets how git/]],
  ['a nested .gitattributes', () => repo.write('docs/.gitattributes', '* -text\n'), [/^docs\/\.gitattributes: /]],
  ['.gitmodules', () => repo.write('.gitmodules', '[submodule "v"]\n\tpath = v\n\turl = ../v\n'), [/^\.gitmodules: \.gitmodules says where/]],
];

it.each(CASES)('%s waits for a person, with the reason', async (name, change, expected) => {
  const found = await branch(`b-${name.replace(/\W+/g, '-')}`, change);
  expect(found.sort()).toEqual(expected.map((r) => expect.stringMatching(r)));
});

it('a submodule (gitlink) added at any path waits for a person', async () => {
  const found = await branch('submodule', () => {
    const nested = join(repo.root, 'vendor/lib');
    mkdirSync(nested, { recursive: true });
    repo.git(['init', '-q'], nested);
    repo.git(['-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-q', '--allow-empty', '-m', 'x'], nested);
  });
  expect(found).toEqual([expect.stringMatching(/^vendor\/lib: a submodule \(gitlink\)/)]);
  rmSync(join(repo.root, 'vendor'), { recursive: true, force: true }); // git leaves a submodule's folder behind
});

it('harmless links, and a branch that leaves an accepted link alone, merge on the agents\' word', async () => {
  expect(await branch('harmless', () => (link('docs/r', '../README.md'), link('src/dangling', 'nowhere/yet')))).toEqual([]);
  expect(await branch('unrelated', () => repo.write('src/b.txt', 'b\n'))).toEqual([]);
  expect(await branch('gone', () => rmSync(join(repo.root, 'accepted')))).toEqual([]);
});

const UP = fc.constantFrom('', '../', '../../', '../../../');
const SEGMENTS = ['..', '.', 'docs', 'd', '.claude', 'settings.json', '.git', 'hooks', 'CLAUDE.md', 'x', 'zz'];

it('every generated link that the checkout resolves to a protected path or outside is held (generated)', async () => {
  let held = 0;
  await fc.assert(
    fc.asyncProperty(UP, fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 3 }), async (up, segments) => {
      const target = up + segments.join('/');
      const name = `gen-${held}-${Math.random().toString(36).slice(2)}`;
      repo.git(['checkout', '-q', 'main']);
      repo.git(['checkout', '-qb', name]);
      link('docs/gen/l', target);
      repo.git(['add', '-A']);
      repo.git(['commit', '-qm', name]);
      let real: string | null = null;
      try {
        real = realpathSync.native(join(repo.root, 'docs/gen/l')); // the kernel's walk (the JS one folds `..` by text)
      } catch {
        real = null; // dangling: where it would lead is checked lexically, not asserted here
      }
      repo.git(['checkout', '-q', 'main']);
      rmSync(join(repo.root, 'docs/gen'), { recursive: true, force: true });
      const found = await protectedChanges(repo.root, 'main', name);
      if (!found.ok) throw new Error(found.error);
      if (real === null) return;
      const rel = relative(repo.root, real);
      const bad = rel === '' || rel.startsWith('..') || protectedReason(rel.split(sep).join('/')) !== undefined;
      if (bad) held++;
      expect(found.value.some((l) => l.startsWith('docs/gen/l: ')), `docs/gen/l -> ${target} (${rel})`).toBe(bad);
    }),
    // two that always resolve to a held place (the root, above it), so a run of unlucky draws still checks one
    { numRuns: 10, examples: [['', ['..', '..']], ['../../', ['..']]] },
  );
  expect(held).toBeGreaterThan(0);
}, 60_000);
