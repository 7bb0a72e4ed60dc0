/**
 * `HookRunnerOptions.onAsyncRewake`: an asyncRewake result (exit 2) goes to
 * it first; taken (true), the session's listeners do not get it too (a
 * teammate wakes for it instead, src/teammate/hook-wake.ts); not taken, or a
 * receiver that throws, and the listeners get it as before. Real scripts.
 */
import { chmod, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { InputQueue } from '../../src/agent/input-queue.js';
import { createHookRunner } from '../../src/hooks/runner.js';
import type { HookAsyncOutput } from '../../src/hooks/types.js';

let dir = '';
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamd-rewake-route-')));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function rewakeRun(
  take: (o: HookAsyncOutput) => boolean,
): Promise<{ taken: HookAsyncOutput[]; heard: HookAsyncOutput[] }> {
  const file = path.join(dir, 'check.sh');
  await writeFile(file, '#!/bin/sh\ncat >/dev/null\necho "tests failed" >&2\nexit 2\n');
  await chmod(file, 0o755);
  const taken: HookAsyncOutput[] = [];
  const heard: HookAsyncOutput[] = [];
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const runner = createHookRunner(
    { Stop: [{ hooks: [{ type: 'command', command: file, asyncRewake: true }] }] },
    { cwd: dir, onAsyncRewake: (o) => (taken.push(o), take(o)), onAsyncOutput: () => setImmediate(done) },
  );
  runner.onAsyncOutput?.((o) => heard.push(o));
  await runner.run('Stop', {});
  await finished;
  return { taken, heard };
}

it('taken: only the receiver has it', async () => {
  const { taken, heard } = await rewakeRun(() => true);
  expect(taken).toEqual([expect.objectContaining({ event: 'Stop', text: 'tests failed', rewake: true })]);
  expect(heard).toEqual([]);
});

it('not taken, or a receiver that throws: the listeners get it', async () => {
  expect((await rewakeRun(() => false)).heard).toHaveLength(1);
  const threw = await rewakeRun(() => {
    throw new Error('bug');
  });
  expect(threw.heard).toHaveLength(1);
});

it('InputQueue.take removes what it picks and keeps the rest in order', () => {
  const q = new InputQueue();
  for (const text of ['a', 'b', 'c', 'd'])
    q.add({ text, meta: text === 'b' || text === 'd' ? { rewake: text } : {} });
  expect(q.take((i) => i.meta?.rewake !== undefined).map((i) => i.text)).toEqual(['b', 'd']);
  expect(q.drain().map((i) => i.text)).toEqual(['a', 'c']);
});

it('the woken turn’s prompt names only team tools a teammate is offered (not the old, unlisted names)', async () => {
  const { hookWakePrompt } = await import('../../src/teammate/hook-wake.js');
  const { teamTools } = await import('../../src/teammate/tools/index.js');
  const offered = new Set(teamTools('teammate').filter((t) => !t.unlisted).map((t) => t.name));
  const named = /\(([^)]*)\)/.exec(hookWakePrompt([]))![1]!.split(/,\s*/);
  expect(named.length).toBeGreaterThan(0);
  for (const name of named) expect(offered.has(name), name).toBe(true);
});
