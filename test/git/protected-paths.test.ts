/**
 * Which paths need a person before they merge, including look-alikes a
 * lenient file system resolves to the same place (generated), and the real
 * diff of a branch (renames into a protected path count).
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { protectedChanges } from '../../src/git/protected-changes.js';
import { protectedReason } from '../../src/git/protected-paths.js';
import { makeRepo, type TempRepo } from './temp-repo.js';

const PROTECTED = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/agents/reviewer.md',
  '.claude/skills/x/SKILL.md',
  'packages/web/.claude/commands/deploy.md',
  '.mcp.json',
  'CLAUDE.md',
  'CLAUDE.local.md',
  'docs/deep/CLAUDE.md',
  'AGENTS.md',
  '.team/config.json',
  '.githooks/pre-commit',
  '.husky/pre-push',
  'vendor/.git/hooks/post-checkout',
  '.claude',
];
const FREE = [
  'README.md',
  'src/claude.ts',
  'docs/claude-notes.md',
  'src/.claudex/a',
  'my.mcp.json',
  'sub/.mcp.json',
  '.teams/x',
  'src/team/config.json',
  'githooks/pre-commit',
  'CLAUDE.md.bak',
  'notes/AGENTS.md.txt',
];

/** Ways to write the same path that git or a file system may accept. */
const disguise = fc.record({
  upper: fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
  dotSlash: fc.boolean(),
  doubleSlash: fc.boolean(),
  invisible: fc.constantFrom('', '\u200b', '\u200d', '\ufeff', '\u202e', '\u00ad'),
  trailing: fc.constantFrom('', '.', ' ', '. .'),
  backslash: fc.boolean(),
  fullwidth: fc.boolean(),
});

type Disguise = typeof disguise extends fc.Arbitrary<infer D> ? D : never;

function disguised(path: string, d: Disguise): string {
  let out = [...path].map((c, i) => (d.upper[i % 64] ? c.toUpperCase() : c)).join('');
  if (d.fullwidth) out = out.replace(/[a-z]/gi, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
  const parts = out.split('/');
  parts[0] = `${parts[0]!.slice(0, 2)}${d.invisible}${parts[0]!.slice(2)}${d.trailing}`;
  out = parts.join(d.doubleSlash ? '//' : '/');
  if (d.backslash) out = out.replace(/\//g, '\\');
  return d.dotSlash ? `./${out}` : out;
}

describe('protected paths', () => {
  it('names why each protected path needs a person, and leaves look-alike free paths alone', () => {
    for (const p of PROTECTED) expect(protectedReason(p), p).toBeDefined();
    for (const p of FREE) expect(protectedReason(p), p).toBeUndefined();
    expect(protectedReason('tools/hooks/pre-commit', 'tools/hooks')).toMatch(/core\.hooksPath/);
    expect(protectedReason('tools/hooksx/pre-commit', 'tools/hooks')).toBeUndefined();
  });

  it('sees through case, ./, doubled or back slashes, invisible marks, trailing dots and fullwidth letters (generated)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PROTECTED), disguise, (path, d) => {
        const variant = disguised(path, d);
        expect(protectedReason(variant), JSON.stringify(variant)).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });

  it('never flags a path that has no protected segment (generated)', () => {
    const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}(\.[a-z]{1,3})?$/).filter((s) => !['claude.md', 'agents.md'].includes(s));
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (parts) => {
        expect(protectedReason(parts.join('/'))).toBeUndefined();
      }),
    );
  });
});

describe('protectedChanges on a real branch', () => {
  let repo: TempRepo;
  beforeEach(() => {
    repo = makeRepo();
    repo.write('notes.md', 'harmless\n');
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'notes']);
  });
  afterEach(() => repo.cleanup());

  it('lists both names of a rename into .claude/, and nothing for an ordinary change', async () => {
    repo.git(['checkout', '-qb', 'sneaky']);
    repo.git(['mv', 'notes.md', 'docs-x.md']);
    repo.write('.Claude/settings.json', '{"hooks":{}}\n');
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'move']);
    repo.git(['checkout', '-q', 'main']);
    repo.git(['checkout', '-qb', 'plain']);
    repo.write('src/a.txt', 'changed\n');
    repo.git(['commit', '-qam', 'plain']);
    const sneaky = await protectedChanges(repo.root, 'main', 'sneaky');
    expect(sneaky).toEqual({ ok: true, value: [expect.stringMatching(/^\.Claude\/settings\.json: \.claude\/ holds/)] });
    expect(await protectedChanges(repo.root, 'main', 'plain')).toEqual({ ok: true, value: [] });
    repo.git(['checkout', '-q', 'main']);
    repo.git(['checkout', '-qb', 'rename-in']);
    repo.git(['mv', 'notes.md', 'CLAUDE.md']);
    repo.git(['commit', '-qm', 'rename']);
    const renamed = await protectedChanges(repo.root, 'main', 'rename-in');
    expect(renamed.ok && renamed.value).toEqual([expect.stringMatching(/^CLAUDE\.md: /)]);
  });

  it("flags the repository's own core.hooksPath, and fails on a branch that is not there", async () => {
    repo.git(['config', 'core.hooksPath', 'tools/hooks']);
    repo.git(['checkout', '-qb', 'hooks']);
    repo.write('tools/hooks/pre-commit', '#!/bin/sh\n');
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'hook']);
    const found = await protectedChanges(repo.root, 'main', 'hooks');
    expect(found.ok && found.value).toEqual(['tools/hooks/pre-commit: tools/hooks is the repository\'s core.hooksPath']);
    expect((await protectedChanges(repo.root, 'main', 'nope')).ok).toBe(false);
  });
});
