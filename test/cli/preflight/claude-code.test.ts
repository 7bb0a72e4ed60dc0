/**
 * `teamd doctor`'s Claude Code check: the CLI must start and be logged in or
 * have a key, and no secret is ever printed. Uses the pinned CLI when it is
 * already in the cache (never installs it here: that is `npm run test:interop`).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { TeamConfigSchema } from '../../../src/config/schema.js';
import { checkClaudeCode } from '../../../src/cli/preflight/claude-code.js';
import { claudeCodeCacheDir } from '../../support/claude-code/install.js';

const bin = join(claudeCodeCacheDir(), 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
const cached = existsSync(bin);
if (!cached) console.log(`claude-code doctor check: the cases with the real CLI skipped (no CLI at ${bin}; npm run test:interop installs it)`);
const home = mkdtempSync(join(tmpdir(), 'teamd-doctor-cc-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const team = (extra: Record<string, unknown>) =>
  TeamConfigSchema.parse({ teammates: [{ name: 'ann', engine: 'claude-code' }, { name: 'bob' }], ...extra });

it('no Claude Code teammate: no check', async () => {
  expect(await checkClaudeCode(TeamConfigSchema.parse({}))).toEqual([]);
});

it('a CLI that cannot start fails with how to install it', async () => {
  const [check] = await checkClaudeCode(team({ claudeCode: { bin: join(home, 'no-such-claude') } }));
  expect(check).toMatchObject({ name: 'claude-code (ann)', status: 'fail', fix: expect.stringContaining('claudeCode.bin') });
});

it.skipIf(!cached)('logged out with no key: fails; a key from the endpoint: ok, and the key is never shown', async () => {
  const env = { HOME: home, ANTHROPIC_API_KEY: '', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
  const out = await checkClaudeCode(team({ claudeCode: { bin, env } }));
  expect(out[0]).toMatchObject({ status: 'fail', detail: expect.stringContaining('not logged in') });
  process.env['TEAMD_TEST_CC_KEY'] = 'sk-ant-very-secret-123';
  try {
    const withKey = await checkClaudeCode(team({ claudeCode: { bin, env }, endpoint: { apiKeyEnv: 'TEAMD_TEST_CC_KEY' } }));
    expect(withKey[0]).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^2\.\d+\.\d+.*logged in \(api_key from ANTHROPIC_API_KEY\)$/) });
    expect(JSON.stringify(withKey)).not.toContain('very-secret');
  } finally {
    delete process.env['TEAMD_TEST_CC_KEY'];
  }
}, 60_000);
