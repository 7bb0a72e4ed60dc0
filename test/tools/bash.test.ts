import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BASH_LIMITS, bashTool } from '../../src/tools/bash.js';
import { createToolContext, currentCwd } from '../../src/tools/context.js';
import { processAlive } from '../../src/tools/process-group.js';
import { readTool } from '../../src/tools/read.js';
import { createTempRoot, type TempRoot } from './temp-root.js';

/** Alive and not a zombie: a killed orphan may wait a while for pid 1 to reap it. */
const alive = processAlive;

async function waitFor(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('bash tool', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await createTempRoot();
  });
  afterEach(async () => t.close());

  it('leaves no timer behind once a command has ended (a headless run can exit at once)', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const out = await t.run(bashTool, { command: 'echo hi' });
    expect(out.isError).toBe(false);
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('gives the command /dev/null on stdin: reads end at once, and bash sources no bashrc as for a remote shell', async () => {
    // bash sources ~/.bashrc for a "remote" shell (a socket on stdin) when SHLVL < 2, as under cron or CI
    await writeFile(path.join(t.root, '.bashrc'), 'echo SOURCED\n');
    const saved = { HOME: process.env.HOME, SHLVL: process.env.SHLVL };
    process.env.HOME = t.root;
    delete process.env.SHLVL;
    try {
      const out = await t.run(bashTool, { command: 'readlink /proc/self/fd/0 || echo no-proc; cat; echo "[$?]"' });
      expect(out.content).toBe(`${existsSync('/proc/self/fd/0') ? '/dev/null' : 'no-proc'}\n[0]`);
    } finally {
      for (const [key, value] of Object.entries(saved)) if (value === undefined) delete process.env[key]; else process.env[key] = value;
    }
  });

  it('returns output, stderr and a zero exit as success', async () => {
    const out = await t.run(bashTool, { command: 'echo out; echo err >&2' });
    expect(out.isError).toBe(false);
    expect(out.content).toBe('out\nerr');
    expect(out.summary).toBe('$ echo out; echo err >&2 → exit 0');
  });

  it('reports a non-zero exit code as an error', async () => {
    const out = await t.run(bashTool, { command: 'echo partial; exit 7' });
    expect(out.isError).toBe(true);
    expect(out.content).toBe('partial\n[exit code 7]');
  });

  it('reports a syntax error as a failed command, not a crash', async () => {
    const out = await t.run(bashTool, { command: 'if then' });
    expect(out.isError).toBe(true);
    expect(out.content).toContain('syntax error');
    expect(out.content).toContain('[exit code 2]');
  });

  it('streams output lines to onProgress', async () => {
    await t.run(bashTool, { command: 'printf "one\\ntwo\\nthree"' });
    expect(t.progress).toEqual(['one', 'two', 'three']);
  });

  it('keeps head and tail of long output and says what was cut', async () => {
    const out = await t.run(bashTool, { command: 'seq 1 200000' });
    expect(out.isError).toBe(false);
    expect(out.content.startsWith('1\n2\n3\n')).toBe(true);
    expect(out.content.endsWith('199999\n200000')).toBe(true);
    expect(out.content).toMatch(
      /\[… output truncated: \d+ characters \(about \d+ lines\) cut from the middle of \d+ …\]/,
    );
    expect(out.content.length).toBeLessThan(BASH_LIMITS.maxOutputChars + 200);
  });

  it('kills a command at its timeout, with its children', async () => {
    const started = Date.now();
    const out = await t.run(bashTool, { command: 'echo "child:$$"; sleep 30', timeout: 300 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(out.isError).toBe(true);
    expect(out.content).toContain('timed out after 0.3 s');
    const pid = Number(/child:(\d+)/.exec(out.content)?.[1]);
    await waitFor(() => !alive(pid), 'the timed-out shell to die');
  });

  it('abort kills the whole process group: no orphan survives', async () => {
    const controller = new AbortController();
    let childPid = 0;
    const ctx = createToolContext({
      root: t.root,
      signal: controller.signal,
      onProgress: (line) => {
        const m = /^child:(\d+)$/.exec(line);
        if (m) childPid = Number(m[1]);
      },
    });
    // The sleep is a grandchild in a background job: only a group kill reaches it.
    const running = t.run(bashTool, { command: '(sleep 300 & echo "child:$!"; wait) ; echo never' }, ctx);
    await waitFor(() => childPid !== 0, 'the child pid');
    expect(alive(childPid)).toBe(true);
    controller.abort();
    const out = await running;
    expect(out.isError).toBe(true);
    expect(out.content).toContain('[interrupted');
    expect(out.content).not.toContain('never');
    await waitFor(() => !alive(childPid), 'the sleep grandchild to die');
  });

  it('stops background processes left running when the command ends', async () => {
    const out = await t.run(bashTool, { command: 'sleep 300 & echo "bg:$!"' });
    expect(out.isError).toBe(false);
    const pid = Number(/bg:(\d+)/.exec(out.content)?.[1]);
    expect(pid).toBeGreaterThan(0);
    await waitFor(() => !alive(pid), 'the background sleep to be stopped');
  });

  it('carries a cd over to the next call and to other tools', async () => {
    await t.file('sub/a.txt', 'in sub\n');
    await t.run(bashTool, { command: 'cd sub' });
    expect(currentCwd(t.ctx)).toBe(path.join(t.root, 'sub'));
    expect((await t.run(bashTool, { command: 'pwd' })).content).toBe(path.join(t.root, 'sub'));
    expect((await t.run(readTool, { file_path: 'a.txt' })).content).toBe('     1\tin sub');
  });

  it('keeps the directory after `exit N`', async () => {
    await mkdir(path.join(t.root, 'sub'));
    const out = await t.run(bashTool, { command: 'cd sub && exit 5' });
    expect(out.content).toContain('[exit code 5]');
    expect(currentCwd(t.ctx)).toBe(path.join(t.root, 'sub'));
  });

  it('never keeps a directory outside root: resets to root and says so', async () => {
    await mkdir(path.join(t.root, 'sub'));
    await t.run(bashTool, { command: 'cd sub' });
    const out = await t.run(bashTool, { command: 'cd ../.. && pwd' });
    expect(out.content).toContain(`the current directory was reset to ${t.root}`);
    expect(currentCwd(t.ctx)).toBe(t.root);
    expect((await t.run(bashTool, { command: 'cd / ; pwd' })).content).toContain(
      'outside the working directory',
    );
    expect((await t.run(bashTool, { command: 'pwd' })).content).toBe(t.root);
  });

  it('falls back to root when the kept directory was deleted', async () => {
    await mkdir(path.join(t.root, 'gone'));
    await t.run(bashTool, { command: 'cd gone' });
    await rm(path.join(t.root, 'gone'), { recursive: true });
    const out = await t.run(bashTool, { command: 'pwd' });
    expect(out.content).toContain(t.root);
    expect(out.content).toContain('no longer exists');
  });

  it('is read-only and concurrency-safe only for read-only commands', () => {
    expect(bashTool.isReadOnly({ command: 'git status && ls' })).toBe(true);
    expect(bashTool.isConcurrencySafe({ command: 'cat a | wc -l' })).toBe(true);
    expect(bashTool.isReadOnly({ command: 'npm install' })).toBe(false);
    expect(bashTool.isReadOnly({ command: 'cd src && ls' })).toBe(true);
    expect(bashTool.isConcurrencySafe({ command: 'cd src && ls' })).toBe(false);
  });

  it('rejects a timeout above the maximum through its schema', () => {
    expect(
      bashTool.inputSchema.safeParse({ command: 'ls', timeout: BASH_LIMITS.maxTimeoutMs + 1 }).success,
    ).toBe(false);
  });
});
