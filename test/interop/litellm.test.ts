/**
 * A real Anthropic-compatible endpoint: LiteLLM's proxy (pinned, installed with
 * pip into .cache/litellm/ by ./litellm/install.ts) speaks the Messages API on
 * 127.0.0.1 and forwards an `anthropic/` model to teamd's fake server.
 * `teamd agent -p` runs through it with ANTHROPIC_BASE_URL + ANTHROPIC_AUTH_TOKEN
 * (the proxy's master key as a Bearer token), a model name only the proxy
 * knows, and a tool call. `TEAMD_INTEROP_LITELLM=1 npm run test:interop`; without
 * the opt-in it skips with one line (it has not yet run against the real proxy:
 * the machine it was written on reaches no Python package registry, so a first
 * real run must be watched by a person, not meet CI unannounced); with it, it
 * skips with one line when python3's venv or pip, or the registry, is not available.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import { genericTaskScript, makeTeamRepo, teamPerTest } from '../e2e/support/harness.js';
import { runTwoTasks } from '../e2e/support/two-tasks.js';
import { TSX_LOADER } from '../support/race/spawn-ts.js';
import { ensureLiteLLM, HEAVY } from './litellm/install.js';
import { liteLLMConfig, MASTER_KEY, startLiteLLM, UPSTREAM_KEY, type LiteLLMProxy } from './litellm/proxy.js';
import { runProcess } from './run.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
/** The name teamd asks for (in no model table), and the upstream model LiteLLM forwards it to. */
const PROXY_MODEL = 'team-coder';
const UPSTREAM_MODEL = 'claude-sonnet-5-5';

const OPT_IN = 'TEAMD_INTEROP_LITELLM';
const litellm: ReturnType<typeof ensureLiteLLM> =
  process.env[OPT_IN] === '1'
    ? ensureLiteLLM()
    : { ok: false, reason: `set ${OPT_IN}=1 to install and run the LiteLLM proxy (pip into .cache/litellm/)` };
if (!litellm.ok) console.log(`interop: LiteLLM skipped: ${litellm.reason}`);
else if (litellm.installSeconds !== undefined)
  console.log(
    `interop: LiteLLM ${litellm.version} installed in ${litellm.installSeconds} s, ${litellm.sizeMb} MB`,
  );
const heavy =
  litellm.ok && ((litellm.installSeconds ?? 0) > HEAVY.seconds || (litellm.sizeMb ?? 0) > HEAVY.megabytes);
if (heavy)
  console.log('interop: LiteLLM skipped: its install is heavier than the limit (see the numbers above)');

const SCRIPT = {
  steps: [
    {
      content: [
        { type: 'text' as const, text: 'Writing the file.' },
        { type: 'tool_use' as const, name: 'bash', input: { command: 'echo through-litellm > proxied.txt' } },
      ],
    },
    { content: [{ type: 'text' as const, text: 'Wrote proxied.txt through the proxy.' }] },
  ],
};

describe.skipIf(!litellm.ok || heavy)(
  `LiteLLM ${litellm.ok ? litellm.version : ''} proxy in front of the fake server`,
  () => {
    let upstream: FakeAnthropicServer;
    let proxy: LiteLLMProxy;
    let dir: string;
    beforeAll(async () => {
      if (!litellm.ok) return;
      dir = mkdtempSync(join(tmpdir(), 'teamd-litellm-'));
      upstream = await startFakeAnthropicServer({ script: SCRIPT, apiKey: UPSTREAM_KEY });
      proxy = await startLiteLLM(
        litellm.bin,
        dir,
        liteLLMConfig({ [PROXY_MODEL]: UPSTREAM_MODEL }, upstream.url),
      );
    });
    afterAll(async () => {
      await proxy?.stop();
      await upstream?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('teamd agent -p with ANTHROPIC_AUTH_TOKEN: the tool ran, the answer came back, every call went through the proxy', async () => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        ANTHROPIC_BASE_URL: proxy.url,
        ANTHROPIC_AUTH_TOKEN: MASTER_KEY,
      };
      delete env.ANTHROPIC_API_KEY;
      const args = [
        '-p',
        'Write proxied.txt',
        '--model',
        PROXY_MODEL,
        '--output-format',
        'stream-json',
        '--verbose',
      ];
      const run = await runProcess(
        process.execPath,
        ['--import', TSX_LOADER, MAIN, 'agent', ...args, '--dangerously-skip-permissions'],
        { cwd: dir, env, timeoutMs: 120_000 },
      );
      const why = `${run.stderr}\n--- proxy ---\n${proxy.output().slice(-4000)}`;
      expect(run.code, why).toBe(0);
      expect(existsSync(join(dir, 'proxied.txt')), why).toBe(true);
      expect(readFileSync(join(dir, 'proxied.txt'), 'utf8')).toBe('through-litellm\n');
      expect(run.events.at(-1)).toMatchObject({
        type: 'result',
        subtype: 'success',
        result: 'Wrote proxied.txt through the proxy.',
      });
      // the fake server saw LiteLLM's upstream key and model, never teamd's token or model name
      const answered = upstream.requests.filter((r) => r.outcome === 'answered');
      expect(answered).toHaveLength(2);
      for (const r of answered) {
        expect(r.body?.model).toBe(UPSTREAM_MODEL);
        expect(JSON.stringify(r.headers)).not.toContain(MASTER_KEY);
      }
      expect(run.stderr).toMatch(new RegExp(`${PROXY_MODEL}: not in teamd's model table`));
    });

    describe('a small team', () => {
      const team = teamPerTest();
      const saved = { ...process.env };
      afterAll(() => {
        for (const name of ['ANTHROPIC_BASE_URL', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_API_KEY'])
          if (saved[name] === undefined) delete process.env[name];
          else process.env[name] = saved[name];
      });

      it('two teammates on the proxy finish their tasks; every call reached the fake server through it', async () => {
        upstream.setScript(genericTaskScript());
        const before = upstream.requests.length;
        process.env.ANTHROPIC_BASE_URL = proxy.url;
        process.env.ANTHROPIC_AUTH_TOKEN = MASTER_KEY;
        delete process.env.ANTHROPIC_API_KEY;
        const config = {
          model: PROXY_MODEL,
          teammates: [{ name: 'ann' }, { name: 'bob' }],
          worktrees: { mode: 'off' },
        };
        const r = team.repo(makeTeamRepo({ script: genericTaskScript(), config }));
        await runTwoTasks(team, r, ['ann', 'bob']);
        expect(readFileSync(join(r.dir, 'out', 't1.txt'), 'utf8')).toBe('done t1\n');
        expect(readFileSync(join(r.dir, 'out', 't2.txt'), 'utf8')).toBe('done t2\n');
        const calls = upstream.requests.slice(before).filter((q) => q.path.startsWith('/v1/messages'));
        expect(calls.length).toBeGreaterThanOrEqual(4);
        expect(new Set(calls.map((q) => q.body?.model))).toEqual(new Set([UPSTREAM_MODEL]));
      });
    });
  },
);
