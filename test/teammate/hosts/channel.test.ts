/**
 * The stdio channel between the lead and a teammate process, both ends real
 * processes: a bad line is a crash with a clear error (never a hang), and no
 * key or token of the lead's environment reaches the child.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ProcessHost, stdioTeammateCommand, teammateEnv } from '../../../src/teammate/hosts/process.js';
import { EXIT_BAD_LINE, EXIT_CHANNEL_DROPPED } from '../../../src/teammate/hosts/stdio-main.js';
import type { WorkerData } from '../../../src/teammate/types.js';

const data = { repoRoot: process.cwd(), teammate: { name: 'ann' } } as unknown as WorkerData;
const node = (script: string) => () => ({ file: process.execPath, args: ['-e', script] });

/** Runs `node -e script` as a teammate; resolves with its messages, its errors and its exit code. */
async function runChild(script: string) {
  const { channel } = new ProcessHost(node(script)).start(data);
  const messages: unknown[] = [];
  const errors: string[] = [];
  channel.on('message', (m) => messages.push(m));
  channel.on('error', (e) => errors.push(e.message));
  const code = await new Promise<number>((r) => channel.on('exit', r));
  return { messages, errors, code };
}

/** `file args` fed `input` on stdin; resolves with its exit code and stderr. */
async function runFed(file: string, args: string[], input: string) {
  const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(input);
  const [code] = (await once(child, 'close')) as [number];
  return { code, stderr };
}

/** The stdio entry itself, as the process host starts it. */
const runEntry = (input: string) => {
  const { file, args } = stdioTeammateCommand();
  return runFed(file, args, input);
};

describe('the lead end', () => {
  it('a line that is not JSON from the teammate is a crash naming it', async () => {
    const r = await runChild(`process.stdout.write('{"type":"pong"}\\nhello\\n'); setInterval(() => {}, 1000)`);
    expect(r.messages).toEqual([{ type: 'pong' }]);
    expect(r.errors).toEqual([expect.stringMatching(/^the teammate's stdout: line 2 is not JSON/)]);
    expect(r.code).not.toBe(0);
  });

  it('JSON that is no protocol message is a crash too, with the field that is wrong', async () => {
    const r = await runChild(`process.stdout.write('{"type":"state","state":"flying","task":null}\\n'); setInterval(() => {}, 1000)`);
    expect(r.errors[0]).toMatch(/line 1 is not a protocol message: .*state/);
  });

  it("the child's environment holds no key, token or secret of the lead's", async () => {
    const secrets = { ANTHROPIC_API_KEY: 'k1', GITHUB_TOKEN: 't1', AWS_SECRET_ACCESS_KEY: 's1', MY_PASSWORD: 'p1', ANTHROPIC_AUTH_TOKEN: 'a1' };
    Object.assign(process.env, secrets);
    try {
      const r = await runChild(`process.stdout.write(JSON.stringify({ type: 'event', event: process.env }) + '\\n')`);
      const env = (r.messages[0] as { event: Record<string, string> }).event;
      for (const key of Object.keys(secrets)) expect(env[key], key).toBeUndefined();
      expect(env.PATH).toBe(process.env.PATH);
    } finally {
      for (const key of Object.keys(secrets)) delete process.env[key];
    }
    expect(Object.keys(teammateEnv({ OPENAI_API_KEY: 'x', HOME: '/h' }))).toEqual(['HOME']);
  });
});

describe('the teammate end (teamd teammate --stdio)', () => {
  it('a first line that is not the teammate data, a line that is not JSON, or no data at all ends it at once, saying why', async () => {
    const [notData, notJson, nothing] = await Promise.all([runEntry('{"repoRoot": 5}\n'), runEntry('{"unclosed": \n'), runEntry('')]);
    expect(notData).toMatchObject({ code: EXIT_BAD_LINE, stderr: expect.stringMatching(/stdin line 1 is not the teammate's data/) });
    expect(notJson).toMatchObject({ code: EXIT_BAD_LINE, stderr: expect.stringMatching(/stdin line 1 is not JSON/) });
    expect(nothing).toMatchObject({ code: EXIT_CHANNEL_DROPPED, stderr: expect.stringMatching(/stdin closed before/) });
  });

  it('is what the CLI runs: `teamd teammate --stdio`, and `teamd teammate` alone is refused', async () => {
    const main = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));
    const cli = (args: string[], input: string) => runFed(process.execPath, ['--import', 'tsx', main, ...args], input);
    const [bad, bare] = await Promise.all([cli(['teammate', '--stdio'], 'nope\n'), cli(['teammate'], '')]);
    expect(bad).toMatchObject({ code: EXIT_BAD_LINE, stderr: expect.stringMatching(/stdin line 1 is not JSON/) });
    expect(bare).toMatchObject({ code: 1, stderr: expect.stringMatching(/--stdio is required/) });
  });
});
