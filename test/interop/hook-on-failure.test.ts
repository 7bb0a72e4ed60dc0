/**
 * `onFailure` and `shell` of command hooks on the real Claude Code CLI and on
 * `teamd agent -p`, one repository and one conversation for both (offline
 * against the fake Messages API): a PreToolUse hook that crashes (exit 1)
 * with `onFailure: "block"` blocks the Bash call in both, and the same hook
 * with `"continue"` lets it run; a `shell: "bash"` hook runs in the same
 * shell under both (the real CLI: `/bin/sh -c`, though $SHELL is bash).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import { claudeCodeEnv, ensureClaudeCode } from '../support/claude-code/install.js';
import { TSX_LOADER } from '../support/race/spawn-ts.js';
import { runProcess, toolResults, type ProcessRun } from './run.js';

const KEY = 'sk-ant-test-offline';
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const claude = ensureClaudeCode();
if (!claude.ok) console.log(`interop onFailure/shell: skipped: ${claude.reason}`);

let server: FakeAnthropicServer;
let base: string;
beforeAll(async () => {
  server = await startFakeAnthropicServer({ apiKey: KEY });
  base = mkdtempSync(join(tmpdir(), 'teamd-interop-onfail-'));
});
afterAll(async () => {
  await server?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

type OnFailure = 'block' | 'continue';

function makeRepo(dir: string, onFailure: OnFailure): void {
  mkdirSync(join(dir, '.claude', 'hooks'), { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  const crash = join(dir, '.claude', 'hooks', 'crash.sh');
  writeFileSync(crash, '#!/bin/sh\ncat >/dev/null\necho "lint crashed" >&2\nexit 1\n');
  chmodSync(crash, 0o755);
  // which shell ran the line: its $0 and whether it is bash
  const which = 'echo "$0 ${BASH_VERSION:+bash}" > "$CLAUDE_PROJECT_DIR/shell.txt"';
  const hooks = [
    { type: 'command', command: crash, onFailure },
    { type: 'command', command: which, shell: 'bash' },
  ];
  writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks }] } }));
}

async function run(client: 'claude' | 'teamd', onFailure: OnFailure): Promise<ProcessRun & { dir: string }> {
  const dir = join(base, `repo-${client}-${onFailure}`);
  makeRepo(dir, onFailure);
  server.setScript({
    steps: [
      { content: [{ type: 'tool_use', name: client === 'claude' ? 'Bash' : 'bash', input: { command: 'echo ran > ran.txt', description: 'write' } }] },
      { content: [{ type: 'text', text: 'Done.' }] },
    ],
  });
  const home = mkdtempSync(join(base, `home-${client}-`));
  // `shell: "bash"` means the user's $SHELL (bash here) for both
  const env = { ...claudeCodeEnv(server.url, home, { ENABLE_TOOL_SEARCH: 'false', SHELL: '/bin/bash' }), ANTHROPIC_API_KEY: KEY };
  const args = ['-p', 'Write the file.', '--output-format', 'stream-json', '--verbose', '--model', 'claude-opus-5-5', '--permission-mode', 'bypassPermissions'];
  const ran =
    client === 'claude'
      ? await runProcess((claude as { bin: string }).bin, args, { cwd: dir, env })
      : await runProcess(process.execPath, ['--import', TSX_LOADER, MAIN, 'agent', ...args], { cwd: dir, env });
  if (process.env.INTEROP_DUMP) writeFileSync(join(process.env.INTEROP_DUMP, `onfail-${client}-${onFailure}.jsonl`), ran.stdout + '\n' + ran.stderr);
  return { ...ran, dir };
}

describe.skipIf(!claude.ok)('hook onFailure and shell: Claude Code and teamd agent -p', () => {
  const runs: Record<string, ProcessRun & { dir: string }> = {};
  beforeAll(async () => {
    for (const client of ['claude', 'teamd'] as const)
      for (const mode of ['block', 'continue'] as const) runs[`${client}:${mode}`] = await run(client, mode);
  }, 240_000);

  it('onFailure "block": the crashed hook blocks the Bash call in both, the hook\'s stderr in the reason', () => {
    for (const client of ['claude', 'teamd']) {
      const ran = runs[`${client}:block`]!;
      expect(ran.code, `${client}: ${ran.stderr}`).toBe(0);
      expect(existsSync(join(ran.dir, 'ran.txt')), client).toBe(false);
      expect(toolResults(ran), client).toContain('is_error');
      expect(toolResults(ran), client).toContain('lint crashed');
    }
  });

  it('onFailure "continue": the same crash lets the call run in both', () => {
    for (const client of ['claude', 'teamd']) {
      const ran = runs[`${client}:continue`]!;
      expect(readFileSync(join(ran.dir, 'ran.txt'), 'utf8'), client).toBe('ran\n');
    }
  });

  it('shell "bash": the same shell runs the line in both (/bin/sh, though $SHELL is bash)', () => {
    const shells = ['claude', 'teamd'].map((client) => readFileSync(join(runs[`${client}:block`]!.dir, 'shell.txt'), 'utf8').trim());
    expect(shells[0]).toMatch(/^\/bin\/sh\b/);
    expect(shells[1]).toBe(shells[0]);
  });
});
