/**
 * One repository set up for Claude Code, made afresh at the same path before
 * each client runs: hooks in `.claude/settings.json` (a recorder script of our
 * own), an agent file, `.mcp.json` with a stdio server of our own, CLAUDE.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { echoMcpServer, RECORD_HOOK } from './scripts.js';

export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Stop',
  'SessionEnd',
];
const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse']);

function settings(): unknown {
  const command = 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/record.mjs"';
  const hooks = Object.fromEntries(
    HOOK_EVENTS.map((event) => [
      event,
      [
        {
          ...(TOOL_EVENTS.has(event) ? { matcher: 'Bash|mcp__echo__.*' } : {}),
          hooks: [{ type: 'command', command }],
        },
      ],
    ]),
  );
  return { hooks, enableAllProjectMcpServers: true };
}

const AGENT = `---
name: reviewer
description: Reviews a change.
  Use it after an edit.
tools: Read, Grep
---
You review changes and report problems.
`;

/** (Re)creates the repository at `dir`: a git repo with one commit. */
export function makeRepo(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  for (const sub of ['.claude/agents', '.claude/hooks', 'tools'])
    mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, '.claude', 'hooks', 'record.mjs'), RECORD_HOOK);
  writeFileSync(join(dir, 'tools', 'echo-mcp.mjs'), echoMcpServer());
  writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify(settings(), null, 2));
  writeFileSync(join(dir, '.claude', 'agents', 'reviewer.md'), AGENT);
  const mcp = { mcpServers: { echo: { command: process.execPath, args: ['tools/echo-mcp.mjs'] } } };
  writeFileSync(join(dir, '.mcp.json'), JSON.stringify(mcp, null, 2));
  writeFileSync(join(dir, 'CLAUDE.md'), '# Project\nKeep answers short.\n');
  writeFileSync(join(dir, 'README.md'), 'interop\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
}
