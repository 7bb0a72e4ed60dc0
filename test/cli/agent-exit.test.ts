/**
 * `teamd agent -p … --output-format json` exits 1 on an error result and 0 on
 * success (docs/AGENT.md). The real CLI process, against the fake Messages API
 * on 127.0.0.1 (a refused key) and against a scripted run that hits --max-turns.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { useFakeEndpoint } from '../support/fake-endpoint.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { teamd } from './run-teamd.js';

const endpoint = useFakeEndpoint();
let server: FakeAnthropicServer | undefined;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'teamd-agent-exit-'));
  dirs.push(dir);
  return dir;
}

const SAY_HI: ScriptInput = {
  rules: [{ name: 'hi', times: 'always', content: [{ type: 'text', text: 'hi' }] }],
};
const json = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;

it('a refused key: the json result is an error and the exit code is 1', async () => {
  server = await endpoint.start({ script: SAY_HI });
  server.inject({ kind: 'auth' });
  const run = await teamd(
    workDir(),
    'agent',
    '-p',
    'say hi',
    '--model',
    'claude-sonnet-5',
    '--output-format',
    'json',
  );
  expect(json(run.stdout)).toMatchObject({ is_error: true });
  expect(run.code, run.stderr).toBe(1);
});

it('the same server without the fault: success, exit code 0', async () => {
  server = await endpoint.start({ script: SAY_HI });
  const run = await teamd(
    workDir(),
    'agent',
    '-p',
    'say hi',
    '--model',
    'claude-sonnet-5',
    '--output-format',
    'json',
  );
  expect(json(run.stdout)).toMatchObject({ subtype: 'success', is_error: false });
  expect(run.code, run.stderr).toBe(0);
});

it('a scripted run that reaches --max-turns: error_max_turns, exit code 1', async () => {
  const dir = workDir();
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  const loop = {
    rules: [
      {
        name: 'again',
        times: 'always',
        content: [{ type: 'tool_use', name: 'read', input: { file_path: 'a.txt' } }],
      },
    ],
  };
  writeFileSync(join(dir, 'loop.json'), JSON.stringify(loop));
  const run = await teamd(
    dir,
    'agent',
    '-p',
    'loop',
    '--model',
    'scripted:loop.json',
    '--max-turns',
    '2',
    '--output-format',
    'json',
  );
  expect(json(run.stdout)).toMatchObject({ subtype: 'error_max_turns', is_error: true });
  expect(run.code, run.stderr).toBe(1);
});

it('without --max-turns a run has the teammates\' 40 model calls: a 20-call task ends in success', async () => {
  const dir = workDir();
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  const script = {
    rules: [
      { name: 'read', times: 19, content: [{ type: 'tool_use', name: 'read', input: { file_path: 'a.txt' } }] },
      { name: 'done', times: 1, content: [{ type: 'text', text: 'read it 19 times' }] },
    ],
  };
  writeFileSync(join(dir, 'long.json'), JSON.stringify(script));
  const run = await teamd(dir, 'agent', '-p', 'read a lot', '--model', 'scripted:long.json', '--output-format', 'json');
  expect(json(run.stdout)).toMatchObject({ subtype: 'success', is_error: false, num_turns: 20 });
  expect(run.code, run.stderr).toBe(0);
});
