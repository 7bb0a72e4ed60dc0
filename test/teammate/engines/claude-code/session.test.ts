/**
 * `ClaudeCodeSession` without the CLI: a program that cannot be started fails
 * the turn with a result naming it and where it came from (not a crash, which
 * would restart the teammate into the same failure). The session on the real
 * CLI is test/interop/claude-code-session.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ClaudeCodeSession } from '../../../../src/teammate/engines/claude-code/session.js';

const dir = mkdtempSync(join(tmpdir(), 'teamd-cc-session-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a missing program ends the turn with an error result naming it', async () => {
  const notices: string[] = [];
  const s = new ClaudeCodeSession({
    bin: join(dir, 'no-such-claude'), args: ['-p'], cwd: dir, env: process.env, agent: 'cc', model: 'claude-opus-5-5',
    parentId: 't1', transcriptDir: join(dir, 'transcripts'), onEvent: () => undefined, notice: (m) => notices.push(m),
  });
  const r = await s.submit('Task t1: anything');
  expect(r).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true, error: expect.stringMatching(/cannot start .*no-such-claude \(claudeCode\.bin.*ENOENT/) });
  await s.close();
});
