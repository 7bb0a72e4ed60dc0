/**
 * `teamd agent -p` ends when its action returns (exit-when-done.ts): it does
 * not wait for the event loop to empty, where Node first drains V8's
 * background tasks. Its output still arrives whole through a pipe, and the
 * exit code is the run's.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { tempDir } from '../agent/support/workspace.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
/** Says on stderr when the loop emptied (the exit did not come first). */
const BEFORE_EXIT = `data:text/javascript,process.on('beforeExit',()=>process._rawDebug('BEFORE-EXIT'))`;

function agent(cwd: string, ...flags: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const args = ['--import', TSX, '--import', BEFORE_EXIT, MAIN, 'agent', '-p', 'go', '--model', 'scripted:script.json', ...flags];
    const child = execFile(process.execPath, args, { cwd, timeout: 30_000, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

test('exits once its output is written, not when the event loop empties; all of a long output arrives', async () => {
  await using dir = await tempDir();
  const long = 'x'.repeat(2_000_000); // more than a pipe holds: the writes must be waited for
  const script: ScriptInput = { steps: [{ content: [{ type: 'text', text: long }] }] };
  await writeFile(join(dir.path, 'script.json'), JSON.stringify(script));
  const ran = await agent(dir.path, '--output-format', 'stream-json');
  expect(ran.code, ran.stderr).toBe(0);
  expect(ran.stderr).not.toContain('BEFORE-EXIT');
  const lines = ran.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; result?: string });
  expect(lines.at(-1)?.type).toBe('result');
  expect(lines.at(-1)?.result).toBe(long);
});

test('keeps the exit code of a failed run', async () => {
  await using dir = await tempDir();
  await writeFile(join(dir.path, 'script.json'), JSON.stringify({ steps: [] } satisfies ScriptInput));
  const ran = await agent(dir.path);
  expect(ran.code).toBe(1);
  expect(ran.stderr).not.toContain('BEFORE-EXIT');
});
