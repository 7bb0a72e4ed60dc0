/**
 * A stream that broke after its text was streamed (the fake server's
 * `no_content_block_stop`), retried: the real Claude Code CLI and `teamd agent
 * -p --include-partial-messages` both print the void attempt's partial
 * message as it came, then the answer as a new message (a new id), and one
 * clean result. `npm run test:interop`; skips with one line without the CLI.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import { claudeCodeEnv, ensureClaudeCode } from '../support/claude-code/install.js';
import { TSX_LOADER } from '../support/race/spawn-ts.js';
import { runProcess, type ProcessRun } from './run.js';

const KEY = 'sk-ant-test-offline';
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const ANSWER = 'Hello there, friend. All good.';
const claude = ensureClaudeCode();
if (!claude.ok) console.log(`interop: skipped: ${claude.reason}`);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- read field by field

describe.skipIf(!claude.ok)('a call retried after its text was streamed', () => {
  let server: FakeAnthropicServer;
  let base: string;
  beforeAll(async () => {
    server = await startFakeAnthropicServer({
      apiKey: KEY,
      script: { rules: [{ times: 'always', content: [{ type: 'text', text: ANSWER }] }] },
    });
    base = mkdtempSync(join(tmpdir(), 'teamd-interop-retry-output-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(base, { recursive: true, force: true });
  });

  async function run(client: 'claude' | 'teamd'): Promise<ProcessRun> {
    server.inject({ kind: 'no_content_block_stop' });
    const env = {
      ...claudeCodeEnv(server.url, mkdtempSync(join(base, `home-${client}-`)), {}),
      ANTHROPIC_API_KEY: KEY,
    };
    const flags = ['-p', '--output-format', 'stream-json', '--verbose', '--include-partial-messages'];
    const args = [...flags, '--model', 'claude-opus-5-5', 'Say hello'];
    const [cmd, argv] =
      client === 'claude'
        ? [(claude as { bin: string }).bin, args]
        : [process.execPath, ['--import', TSX_LOADER, MAIN, 'agent', ...args]];
    return runProcess(cmd, argv, { cwd: base, env, timeoutMs: 120_000 });
  }

  it.each(['claude', 'teamd'] as const)(
    '%s: the void message, then the answer as a new message, one result',
    async (client) => {
      const ran = await run(client);
      const events = ran.events as Json[];
      const starts = events.filter((e) => e.type === 'stream_event' && e.event.type === 'message_start');
      const ids = starts.map((e) => e.api_message_id ?? e.event.message.id);
      expect(ids.length, ran.stdout).toBe(2);
      expect(new Set(ids).size).toBe(2);
      const assistants = events.filter((e) => e.type === 'assistant');
      expect(assistants.map((a) => a.message.id)).toEqual([ids[1]]);
      expect(assistants.flatMap((a) => a.message.content)).toEqual([{ type: 'text', text: ANSWER }]);
      const text = (id: string) =>
        events
          .filter(
            (e) =>
              e.type === 'stream_event' &&
              e.event.delta?.type === 'text_delta' &&
              (e.api_message_id ?? id) === id,
          )
          .map((e) => e.event.delta.text)
          .join('');
      expect(text(ids[1])).toBe(ANSWER);
      expect(events.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: ANSWER });
    },
  );
});
