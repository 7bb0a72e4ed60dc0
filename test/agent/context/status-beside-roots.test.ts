/**
 * At the start of a new session, the git status of the session context is
 * asked beside the repository's roots (two git processes at once), not after
 * them; with a SessionStart hook, which may change the tree first, it is not.
 * A `git` on PATH that logs each call around the real one shows the order.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../../src/agent/runtime.js';
import { createHookRunner } from '../../../src/hooks/runner.js';
import { ScriptedModel } from '../../../src/model/scripted/scripted-model.js';
import { collect } from '../support/workspace.js';
import { gitRepo, type GitRepo } from './git-repo.js';

const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
const say = { times: 'always' as const, content: [{ type: 'text' as const, text: 'ok' }] };

/** A `git` that logs `start <word>` and `end <word>` (rev-parse held back until the status has begun, or 0.8 s). */
async function loggingGit(dir: string, log: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const script = [
    '#!/bin/sh',
    'word=""; for a in "$@"; do case "$a" in rev-parse|status) word=$a;; esac; done',
    `echo "start $word" >> '${log}'`,
    `if [ "$word" = rev-parse ]; then i=0; while [ $i -lt 16 ] && ! grep -q 'start status' '${log}'; do sleep 0.05; i=$((i+1)); done; fi`,
    `'${REAL_GIT}' "$@"; code=$?`,
    `echo "end $word" >> '${log}'`,
    'exit $code',
  ].join('\n');
  await writeFile(join(dir, 'git'), script + '\n');
  await chmod(join(dir, 'git'), 0o755);
}


/** One SessionStart hook that writes a file: the status must show it. */
const sessionStart = (cwd: string) =>
  createHookRunner({ SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi > from-hook.txt' }] }] }, { cwd });

describe('the session-context git status at a start', () => {
  let repo: GitRepo;
  let log: string;
  const path = process.env.PATH;
  beforeEach(async () => {
    repo = await gitRepo();
    log = join(repo.path, '.git', 'calls.log');
    await loggingGit(join(repo.path, '.git', 'bin'), log);
    process.env.PATH = `${join(repo.path, '.git', 'bin')}:${path}`;
  });
  afterEach(async () => {
    process.env.PATH = path;
    await repo[Symbol.asyncDispose]();
  });

  const lines = async (): Promise<string[]> => (await readFile(log, 'utf8')).trim().split('\n').filter((l) => /rev-parse|status/.test(l));

  test('starts beside the roots in a new session', async () => {
    await collect(new AgentRuntime({ model: new ScriptedModel({ rules: [say] }), cwd: repo.path, tools: [] }).submitMessage('hi'));
    const calls = await lines();
    expect(calls.indexOf('start status')).toBeGreaterThan(-1);
    expect(calls.indexOf('start status')).toBeLessThan(calls.indexOf('end rev-parse'));
  });

  test('waits for the roots when a SessionStart hook runs first', async () => {
    const runtime = new AgentRuntime({ model: new ScriptedModel({ rules: [say] }), cwd: repo.path, tools: [], hooks: sessionStart(repo.path) });
    const events = await collect(runtime.submitMessage('hi'));
    const calls = await lines();
    expect(calls, JSON.stringify(events.result)).toContain('start status');
    expect(calls.indexOf('start status')).toBeGreaterThan(calls.indexOf('end rev-parse'));
    const first = runtime.messages[0]!.content;
    expect(JSON.stringify(first)).toContain('?? from-hook.txt');
  });
});
