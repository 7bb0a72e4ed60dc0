/**
 * A teammate's additional directories, from its config, the team's and the
 * repository's `.claude/settings*.json`, as the claude-code engine passes
 * them (`--add-dir <abs>`) and the teamd engine uses them. Real folders.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { teammateAddedDirs, type DirsSource } from '../../src/teammate/added-dirs.js';
import { claudeArgs, type ClaudeRunSettings } from '../../src/teammate/engines/claude-code/args.js';
import { TeamConfigSchema } from '../../src/config/schema.js';

let root = '';
let repo = '';
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'teamd-adddirs-')));
  repo = join(root, 'repo');
  for (const d of ['repo/.claude', 'lib', 'docs', 'shared']) mkdirSync(join(root, d), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const source = (team: string[] | undefined, own?: string[]): DirsSource => ({
  repoRoot: repo,
  team: { permissions: team === undefined ? {} : { additionalDirectories: team } },
  teammate: { name: 'ann', ...(own === undefined ? {} : { permissions: { additionalDirectories: own } }) },
});

it("the teammate's own list wins over the team's; the settings files add theirs; relative to the repository, absolute, once", () => {
  writeFileSync(join(repo, '.claude', 'settings.json'), JSON.stringify({ permissions: { additionalDirectories: ['../docs', '../lib'] } }));
  writeFileSync(join(repo, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { additionalDirectories: [join(root, 'shared')] } }));
  expect(teammateAddedDirs(source(['../docs'], ['../lib'])).dirs).toEqual([join(root, 'lib'), join(root, 'docs'), join(root, 'shared')]);
  expect(teammateAddedDirs(source(['../docs'])).dirs).toEqual([join(root, 'docs'), join(root, 'lib'), join(root, 'shared')]);
});

it('a missing directory or a file is left out with a warning naming where it came from; bad settings name none', () => {
  writeFileSync(join(root, 'file.txt'), 'x');
  writeFileSync(join(repo, '.claude', 'settings.json'), '{ not json');
  const got = teammateAddedDirs(source(undefined, ['../nope', '../file.txt', '../lib']));
  expect(got.dirs).toEqual([join(root, 'lib')]);
  expect(got.warnings).toEqual([
    expect.stringMatching(/teammate ann: permissions\.additionalDirectories: \.\.\/nope does not exist/),
    expect.stringMatching(/\.\.\/file\.txt is not a directory/),
  ]);
});

it('a symlinked directory is passed as its real path', () => {
  symlinkSync(join(root, 'lib'), join(root, 'lib-link'));
  expect(teammateAddedDirs(source(['../lib-link', '../lib'])).dirs).toEqual([join(root, 'lib')]);
});

it('the config accepts permissions.additionalDirectories for the team and a teammate', () => {
  const cfg = TeamConfigSchema.parse({
    permissions: { additionalDirectories: ['../lib'] },
    teammates: [{ name: 'ann', permissions: { additionalDirectories: ['../docs'] } }],
  });
  expect(cfg.permissions.additionalDirectories).toEqual(['../lib']);
  expect(cfg.teammates[0]?.permissions?.additionalDirectories).toEqual(['../docs']);
});

const settings: ClaudeRunSettings = {
  name: 'ann',
  model: 'm',
  maxTurns: 3,
  permissions: { defaultMode: 'default', allow: ['Read'], deny: [], ask: [] },
  role: 'r',
  mcpConfig: null,
  readOnly: false,
  extra: [],
};

it('claude-code args: one --add-dir per directory, never swallowed by a variadic flag, none when there are none', () => {
  expect(claudeArgs(settings)).not.toContain('--add-dir');
  fc.assert(
    fc.property(fc.array(fc.stringMatching(/^\/[a-z0-9 ._-]{1,12}$/), { maxLength: 4 }), (dirs) => {
      const args = claudeArgs({ ...settings, addDirs: dirs });
      const pairs = args.flatMap((a, i) => (a === '--add-dir' ? [args[i + 1]] : []));
      expect(pairs).toEqual(dirs);
      // the flag after each directory is another flag: the variadic --add-dir takes exactly one value
      args.forEach((a, i) => a === '--add-dir' && expect(args[i + 2]?.startsWith('--')).toBe(true));
    }),
  );
});
