import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkClaudeFiles } from '../../src/cli/validate-claude.js';
import { formatProblem } from '../../src/store/problems.js';
import { errorLine, teamd } from './run-teamd.js';

let root = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'teamd-validate-claude-'));
  await mkdir(join(root, '.claude', 'agents', 'team'), { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: root });
});
afterEach(async () => rm(root, { recursive: true, force: true }));

const settings = {
  permissions: { allow: ['Bash(npm test:*)', 'Bash(:*)'], deny: ['Read(.env)'], defaultMode: 'yolo' },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '' }] }],
    PostToolUse: [{ matcher: '(', hooks: [{ type: 'command', command: 'true' }] }],
  },
};

async function writeClaudeFiles(): Promise<void> {
  await writeFile(join(root, '.claude', 'settings.json'), JSON.stringify(settings, null, 2));
  await writeFile(join(root, '.claude', 'settings.local.json'), '{ "hooks": ');
  await writeFile(
    join(root, '.claude', 'agents', 'team', 'helper.md'),
    '---\nname: helper\ndescription: Helps.\ntools: Read, Telepathy\ncolour: red\n---\nHelp.\n',
  );
  await writeFile(
    join(root, '.claude', 'agents', 'broken.md'),
    '---\nname: broken\ntools: [Read\n---\nBody\n',
  );
  await writeFile(
    join(root, '.mcp.json'),
    JSON.stringify(
      { mcpServers: { ok: { command: 'x', note: 'hi' }, bad: { type: 'ws', url: 'ws://x' } } },
      null,
      2,
    ),
  );
}

describe('teamd validate: the Claude Code files', () => {
  it('names file, line and field of each problem; warnings are separate', async () => {
    await writeClaudeFiles();
    const { problems, warnings } = await checkClaudeFiles(root);
    expect(problems.map(formatProblem)).toEqual([
      expect.stringMatching(
        /^\.claude\/settings\.json:\d+: hooks\.PreToolUse\[0\]\.hooks\[0\]\.command: must not be empty/,
      ),
      expect.stringMatching(
        /^\.claude\/settings\.json:\d+: hooks\.PostToolUse\[0\]\.matcher: "\(" is not a valid regular/,
      ),
      expect.stringMatching(
        /^\.claude\/settings\.json:5: permissions\.allow\[1\]: invalid permission rule "Bash\(:\*\)"/,
      ),
      expect.stringMatching(/^\.claude\/settings\.json: permissions\.defaultMode: "yolo" is not one of/),
      expect.stringMatching(/^\.claude\/settings\.local\.json: not valid JSON/),
      expect.stringMatching(/^\.claude\/agents\/broken\.md:\d+: not valid YAML/),
      expect.stringMatching(/^\.mcp\.json:\d+: mcpServers\.bad\.type: "ws" is not one of stdio, http, sse/),
    ]);
    expect(warnings.map(formatProblem)).toEqual([
      '.claude/agents/team/helper.md: colour: unknown key, ignored',
      '.claude/agents/team/helper.md: tools: "Telepathy" is not a teamd or Claude Code tool; kept, matches no built-in tool',
      expect.stringMatching(/^\.mcp\.json:\d+: mcpServers\.ok\.note: unknown key, ignored$/),
    ]);
  });

  it('the command prints them, warnings after problems, and fails only on problems', async () => {
    await writeClaudeFiles();
    const bad = await teamd(root, 'validate');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^\.mcp\.json:\d+: mcpServers\.bad\.type/m);
    expect(bad.stdout).toMatch(
      /^warning: \.claude\/agents\/team\/helper\.md: colour: unknown key, ignored$/m,
    );
    expect(errorLine(bad)).toBe('teamd: error: 7 problem(s) found');
    await rm(join(root, '.claude', 'settings.json'));
    await rm(join(root, '.claude', 'settings.local.json'));
    await rm(join(root, '.claude', 'agents', 'broken.md'));
    await writeFile(
      join(root, '.mcp.json'),
      JSON.stringify({ mcpServers: { ok: { command: 'x', note: 'hi' } } }),
    );
    const ok = await teamd(root, 'validate', '--json');
    expect(ok.code).toBe(0);
    const json = JSON.parse(ok.stdout) as { ok: boolean; warnings: unknown[] };
    expect(json).toMatchObject({ ok: true });
    expect(json.warnings).toHaveLength(3);
  });
});
