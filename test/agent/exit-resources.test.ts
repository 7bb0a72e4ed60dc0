/**
 * A finished headless run leaves nothing holding the event loop (issue 19,
 * item 2): a turn after the result line, no timer and no child process is
 * active, so the process exits as soon as its output is written. A bash call
 * is the case that once left a 200 ms output-drain timer behind.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { tempDir } from './support/workspace.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./support/resources-at-result.mjs', import.meta.url));
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

const SCRIPT: ScriptInput = {
  steps: [
    { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo one' } }] },
    { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo two; sleep 0.05 &' } }] },
    { content: [{ type: 'text', text: 'Printed one and two.' }] },
  ],
};

function run(cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const args = ['--import', TSX, '--import', PRELOAD, MAIN, 'agent', '-p', 'echo twice'];
    const flags = ['--model', 'scripted:script.json', '--output-format', 'stream-json', '--permission-mode', 'bypassPermissions'];
    const child = execFile(process.execPath, [...args, ...flags], { cwd, timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

test('after the result of a run with bash calls, no timer or child process keeps the process alive', async () => {
  await using dir = await tempDir();
  await writeFile(join(dir.path, 'script.json'), JSON.stringify(SCRIPT));
  const ran = await run(dir.path);
  expect(ran.code, ran.stderr).toBe(0);
  expect(ran.stdout).toContain('Printed one and two.');
  const line = ran.stderr.split('\n').find((l) => l.startsWith('RESOURCES '));
  expect(line, ran.stderr).toBeDefined();
  const resources = JSON.parse(line!.slice('RESOURCES '.length)) as string[];
  expect(resources.filter((r) => /Timeout|Immediate|Process|Signal|TCP/.test(r))).toEqual([]);
});
