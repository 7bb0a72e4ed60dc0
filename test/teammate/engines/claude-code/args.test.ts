/** The command line teamd gives Claude Code for a teammate, and its environment. */
import { expect, it } from 'vitest';
import { claudeArgs, PERMISSION_TOOL, type ClaudeRunSettings } from '../../../../src/teammate/engines/claude-code/args.js';
import { claudeBin, claudeEnv, mcpConfigJson } from '../../../../src/teammate/engines/claude-code/env.js';

const base: ClaudeRunSettings = {
  name: 'ann',
  model: 'claude-opus-5-5',
  maxTurns: 7,
  permissions: { defaultMode: 'default', allow: ['Bash(npm test:*)'], deny: ['WebFetch'], ask: ['Bash(git push:*)'] },
  role: 'You write tests.',
  mcpConfig: mcpConfigJson('ann', '/repo'),
  readOnly: false,
  extra: ['--effort', 'low'],
};
const after = (args: string[], flag: string): string | undefined => args[args.indexOf(flag) + 1];

it('stream-json both ways, model, turns, budget, team tools and the permission prompt tool', () => {
  const args = claudeArgs({ ...base, budgetUsd: 1.5 });
  expect(args.slice(0, 7)).toEqual(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--replay-user-messages']);
  expect([after(args, '--model'), after(args, '--max-turns'), after(args, '--max-budget-usd')]).toEqual(['claude-opus-5-5', '7', '1.5']);
  expect(after(args, '--permission-prompt-tool')).toBe(PERMISSION_TOOL);
  expect(PERMISSION_TOOL).toBe('mcp__teamd__permission_prompt');
  expect(args.slice(args.indexOf('--allowedTools') + 1, args.indexOf('--allowedTools') + 3)).toEqual(['mcp__teamd', 'Bash(npm test:*)']);
  expect(after(args, '--disallowedTools')).toBe('WebFetch');
  expect(JSON.parse(after(args, '--settings')!)).toEqual({ permissions: { ask: ['Bash(git push:*)'] } });
  expect(after(args, '--permission-mode')).toBe('default');
  expect(after(args, '--append-system-prompt')).toContain('You write tests.');
  expect(args.slice(-2)).toEqual(['--effort', 'low']);
  expect(args).not.toContain('--agent');
});

it('the MCP config starts `teamd mcp --as <name> --dir <repo>` as the server teamd', () => {
  const cfg = JSON.parse(base.mcpConfig!) as { mcpServers: Record<string, { command: string; args: string[] }> };
  expect(Object.keys(cfg.mcpServers)).toEqual(['teamd']);
  expect(cfg.mcpServers['teamd']!.args.slice(-5)).toEqual(['mcp', '--as', 'ann', '--dir', '/repo']);
  expect(cfg.mcpServers['teamd']!.command).toBe(process.execPath);
});

it('an agent role becomes --agent; restricted tools become --tools in Claude Code names (team tools come through MCP)', () => {
  const args = claudeArgs({ ...base, role: 'agent:reviewer', tools: ['read', 'bash', 'send_message', 'task_update'] });
  expect(after(args, '--agent')).toBe('reviewer');
  expect(after(args, '--tools')).toBe('Read,Bash');
});

it('a mail session in the shared tree may not edit, and never bypasses permissions', () => {
  const args = claudeArgs({ ...base, readOnly: true, permissions: { ...base.permissions, defaultMode: 'bypassPermissions' } });
  expect(after(args, '--permission-mode')).toBe('default');
  expect(args.slice(args.indexOf('--disallowedTools') + 1)).toEqual(expect.arrayContaining(['Edit', 'Write', 'MultiEdit']));
});

it('without teamd MCP there is no prompt tool and no MCP allow rule', () => {
  const args = claudeArgs({ ...base, mcpConfig: null, permissions: { defaultMode: 'acceptEdits', allow: [], deny: [], ask: [] } });
  expect(args).not.toContain('--permission-prompt-tool');
  expect(args).not.toContain('--allowedTools');
  expect(args).not.toContain('--mcp-config');
});

it('the binary: config, else TEAMD_CLAUDE_BIN, else claude', () => {
  expect(claudeBin('/opt/claude', { TEAMD_CLAUDE_BIN: '/x' })).toBe('/opt/claude');
  expect(claudeBin(undefined, { TEAMD_CLAUDE_BIN: '/x' })).toBe('/x');
  expect(claudeBin(undefined, { TEAMD_CLAUDE_BIN: '' })).toBe('claude');
});

it('the endpoint becomes ANTHROPIC_BASE_URL and the key or token its variables name; none keeps the environment', () => {
  const env = { PATH: '/bin', MY_KEY: 'k1', MY_TOKEN: 't1', ANTHROPIC_API_KEY: 'user-key' };
  expect(claudeEnv({ baseURL: 'http://127.0.0.1:9/', apiKeyEnv: 'MY_KEY' }, undefined, env)).toMatchObject({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/', ANTHROPIC_API_KEY: 'k1' });
  const token = claudeEnv({ tokenEnv: 'MY_TOKEN' }, { HOME: '/h' }, env);
  expect(token).toMatchObject({ ANTHROPIC_AUTH_TOKEN: 't1', HOME: '/h' });
  expect(token['ANTHROPIC_API_KEY']).toBeUndefined();
  expect(claudeEnv(undefined, undefined, env)).toEqual(env);
});

it("plan mode is the CLI's own: --permission-mode plan, whatever the policy's mode", () => {
  expect(after(claudeArgs({ ...base, planMode: true, permissions: { ...base.permissions, defaultMode: 'acceptEdits' } }), '--permission-mode')).toBe('plan');
  expect(after(claudeArgs({ ...base, planMode: false }), '--permission-mode')).toBe('default');
});
