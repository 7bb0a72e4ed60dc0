/**
 * `teamd agent -p` rehearses its first turn while the first answer is
 * awaited (src/model/turn-rehearsal.ts): a real process against the fake
 * server, whose first answer comes late as a model's does. The fake server
 * gets exactly the conversation's requests, the rehearsal's go to its own
 * 127.0.0.1 endpoint, and the process still exits with the run's code.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../../src/model/index.js';
import { tempDir } from '../agent/support/workspace.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
/** Prints the origin of every fetch request the process made, at its exit. */
const WATCH = `data:text/javascript,${encodeURIComponent(
  "import dc from 'node:diagnostics_channel'; const o = []; dc.subscribe('undici:request:create', (m) => o.push(m.request.origin)); process.on('exit', () => process._rawDebug('ORIGINS ' + JSON.stringify(o)));",
)}`;

let server: FakeAnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function agent(cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; origins: string[]; stderr: string }> {
  return new Promise((resolve) => {
    const args = ['--import', TSX, '--import', WATCH, MAIN, 'agent', '-p', 'Echo one word.', '--permission-mode', 'bypassPermissions'];
    const child = execFile(process.execPath, args, { cwd, env, timeout: 60_000 }, (error, _stdout, stderr) => {
      const line = stderr.split('\n').find((l) => l.startsWith('ORIGINS '));
      const origins = line ? (JSON.parse(line.slice('ORIGINS '.length)) as string[]) : [];
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, origins, stderr });
    });
    child.stdin?.end();
  });
}

async function run(off = false, firstDelayMs = 600): Promise<{ code: number; origins: string[]; stderr: string; real: string }> {
  server = await startFakeAnthropicServer({
    script: {
      steps: [
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo one' } }], delayMs: firstDelayMs },
        { content: [{ type: 'text', text: 'It printed one.' }] },
      ],
    },
  });
  await using dir = await tempDir();
  const env = { PATH: process.env.PATH, HOME: dir.path, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key', ...(off ? { TEAMD_NO_TURN_REHEARSAL: '1' } : {}) };
  return { ...(await agent(dir.path, env)), real: new URL(server.url).origin };
}

test('the rehearsal reaches only its own endpoint; the fake server gets exactly the conversation', async () => {
  const ran = await run();
  expect(ran.code, ran.stderr).toBe(0);
  expect(server!.requests).toHaveLength(2);
  expect(ran.origins.filter((o) => o === ran.real)).toHaveLength(2);
  const rehearsal = ran.origins.filter((o) => o !== ran.real);
  expect(rehearsal).toHaveLength(2);
  expect(rehearsal.every((o) => o.startsWith('http://127.0.0.1:'))).toBe(true);
  expect(ran.origins[0]).toBe(ran.real); // the first request is the real one
});

/** The conversation's requests as the server saw them, without what differs from run to run (paths, ids). */
const shapeOf = (requests: FakeAnthropicServer['requests']): unknown[] =>
  requests.map((r) => r.body?.messages.map((m) => [m.role, (m.content as { type: string }[]).map((b) => b.type)]));

test('an answer that comes at once: the same requests reach the server as with the rehearsals off, none of them rehearsals', async () => {
  const on = await run(false, 0);
  expect(on.code, on.stderr).toBe(0);
  const seenOn = { count: server!.requests.length, shape: shapeOf(server!.requests), outcomes: server!.requests.map((r) => r.outcome) };
  expect(on.origins.every((o) => o === on.real)).toBe(true); // no answer was awaited 20 ms: nothing rehearsed over HTTP
  await server!.close();
  const off = await run(true, 0);
  expect(off.code, off.stderr).toBe(0);
  expect(seenOn).toEqual({ count: 2, shape: shapeOf(server!.requests), outcomes: ['answered', 'answered'] });
  const result = server!.requests[1]!.body!.messages.at(-1)!.content as { type: string; content?: unknown }[];
  expect(result.filter((b) => b.type === 'tool_result')).toHaveLength(1); // bash ran once, for the call
  expect(JSON.stringify(result)).toContain('one');
});
