import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { modelTableChecks } from '../../src/cli/preflight/model-table.js';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import { modelInfo, UNKNOWN_MODEL } from '../../src/model/models.js';
import { tempDir } from '../agent/support/workspace.js';

const ENTRY = fileURLToPath(new URL('../agent/support/agent-cli.ts', import.meta.url));
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

function teamdAgent(cwd: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', TSX, ENTRY, 'agent', ...args],
      { cwd, timeout: 30_000, env: { ...process.env, ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

describe('the model table', () => {
  test('dated and provider-prefixed ids match their model; unknown ids get the safe defaults', () => {
    expect(modelInfo('claude-sonnet-5-5-20260601')).toMatchObject({
      known: true,
      maxOutputTokens: 128_000,
      thinking: 'adaptive',
    });
    expect(modelInfo('us.anthropic.claude-haiku-4-5-v1:0')).toMatchObject({
      known: true,
      contextWindow: 200_000,
      thinking: 'enabled',
      effort: false,
    });
    expect(modelInfo('qwen3-coder:30b')).toMatchObject({ known: false, ...UNKNOWN_MODEL, price: undefined });
  });

  test('doctor shows a row per model: known ones ok, an unknown one a warning naming what is assumed', () => {
    const config = TeamConfigSchema.parse({
      model: 'claude-opus-5',
      thinking: 'adaptive',
      teammates: [{ name: 'local', model: 'qwen3-coder:30b', maxTokens: 16_000 }, { name: 'w' }],
    });
    const rows = modelTableChecks(config, ['claude-opus-5', 'qwen3-coder:30b', 'scripted:x.json']);
    expect(rows.map((r) => [r.name, r.status])).toEqual([
      ['model table claude-opus-5', 'ok'],
      ['model table qwen3-coder:30b', 'warn'],
    ]);
    expect(rows[0]!.detail).toMatch(
      /^context 1M, max output 128k, thinking adaptive, effort, \$5\/\$25 .*configured: thinking: adaptive$/,
    );
    expect(rows[1]!.detail).toMatch(
      /not in teamd's model table; assuming context 32768, max output 8192, thinking none.*maxTokens 16000/,
    );
  });

  test('agent -p --model <unknown> runs, with one warning line on stderr, max_tokens from the defaults and no thinking sent', async () => {
    await using dir = await tempDir();
    await using server = await startFakeAnthropicServer({
      script: { rules: [{ times: 'always', content: [{ type: 'text', text: 'Hi from a local model.' }] }] },
    });
    await mkdir(join(dir.path, '.team'));
    await writeFile(join(dir.path, '.team', 'config.json'), JSON.stringify({ thinking: 'enabled' }));
    const env = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' };
    const ran = await teamdAgent(dir.path, ['-p', 'hello', '--model', 'llama3.2:3b'], env);
    expect(ran).toMatchObject({ code: 0, stdout: 'Hi from a local model.\n' });
    const lines = ran.stderr.split('\n').filter((l) => l.includes('llama3.2:3b'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^teamd: warning: llama3.2:3b: not in teamd's model table; assuming context 32768, max output 8192/,
      ),
    ]);
    const body = server.requests.find((r) => r.outcome === 'answered')!.body!;
    expect(body).toMatchObject({ model: 'llama3.2:3b', max_tokens: 8_192 });
    expect(body.thinking).toBeUndefined();
  });
});
