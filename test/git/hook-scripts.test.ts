/**
 * A file the protected config runs (a hook's script in .claude/settings.json,
 * an MCP server's program in .mcp.json) needs a person when a branch changes
 * it, or links to it; a folder a command only reads does not.
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { commandPaths, commandStrings } from '../../src/git/hook-scripts.js';
import { protectedChanges } from '../../src/git/protected-changes.js';
import { makeRepo, type TempRepo } from './temp-repo.js';

const SETTINGS = {
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/scripts/guard.sh --strict' }] }],
    PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'npx eslint src && node ./tools/Format.mjs' }] }],
  },
  statusLine: { type: 'command', command: 'bash ${CLAUDE_PROJECT_DIR}/scripts/status.sh' },
  permissions: { allow: ['Bash(scripts/not-run.sh)'] },
};
const MCP = { mcpServers: { local: { command: 'node', args: ['servers/local.js', '--port=1'] } } };

let repo: TempRepo;
beforeEach(() => {
  repo = makeRepo();
  repo.write('.claude/settings.json', JSON.stringify(SETTINGS));
  repo.write('.mcp.json', JSON.stringify(MCP));
  for (const f of ['scripts/guard.sh', 'scripts/status.sh', 'scripts/not-run.sh', 'tools/format.mjs', 'servers/local.js', 'src/x.ts'])
    repo.write(f, 'v1\n');
  repo.git(['add', '-A']);
  repo.git(['commit', '-qm', 'config']);
});
afterEach(() => repo.cleanup());

async function changed(name: string, change: () => void): Promise<string[]> {
  repo.git(['checkout', '-q', '-b', name, 'main']);
  change();
  repo.git(['add', '-A']);
  repo.git(['commit', '-qm', name]);
  repo.git(['checkout', '-q', 'main']);
  const found = await protectedChanges(repo.root, 'main', name);
  if (!found.ok) throw new Error(found.error);
  return found.value.sort();
}

it('reads the files a command names, not its flags, variables or folders', () => {
  expect(commandPaths('"$CLAUDE_PROJECT_DIR"/scripts/guard.sh --strict')).toEqual(['scripts/guard.sh']);
  expect(commandPaths('FOO=1 bash ${CLAUDE_PROJECT_DIR}/a/B.sh; cat /etc/x $HOME/y ../z')).toEqual(['bash', 'a/b.sh', 'cat']);
  expect(commandStrings(SETTINGS)).toHaveLength(3);
  expect(commandStrings(MCP)).toEqual(['node', 'servers/local.js', '--port=1']);
});

it('a changed hook script, status line script or MCP server program waits for a person', async () => {
  const found = await changed('scripts', () => {
    for (const f of ['scripts/guard.sh', 'scripts/status.sh', 'tools/format.mjs', 'servers/local.js']) repo.write(f, 'v2\n');
  });
  expect(found).toEqual([
    'scripts/guard.sh: run by a command in .claude/settings.json',
    'scripts/status.sh: run by a command in .claude/settings.json',
    'servers/local.js: started by an MCP server in .mcp.json',
    'tools/format.mjs: run by a command in .claude/settings.json',
  ]);
});

it('a link to a hook script waits too; a file only named in a permission, or under a linted folder, does not', async () => {
  expect(await changed('link', () => symlinkSync('../scripts/guard.sh', join(repo.root, 'src/g')))).toEqual([
    'src/g: a symlink to scripts/guard.sh (run by a command in .claude/settings.json)',
  ]);
  expect(await changed('free', () => (repo.write('scripts/not-run.sh', 'v2\n'), repo.write('src/x.ts', 'v2\n')))).toEqual([]);
});

it('.worktreeinclude waits for a person', async () => {
  expect(await changed('include', () => repo.write('.worktreeinclude', '.env\n'))).toEqual([
    '.worktreeinclude: .worktreeinclude picks which of your untracked files are copied into every worktree',
  ]);
});
