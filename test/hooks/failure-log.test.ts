import { appendFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { hookFailuresPath, recentHookFailures, recordHookFailure } from '../../src/hooks/failure-log.js';

it('hook failures are kept for teamd status: the last few of the last day, a damaged line skipped', async () => {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamd-hookfail-')));
  try {
    expect(recentHookFailures(dir)).toEqual([]);
    const old = { ts: new Date(Date.now() - 3 * 86_400_000).toISOString(), agent: 'ann', event: 'Stop', command: 'old', message: 'old' };
    recordHookFailure(dir, 'ann', { event: 'Stop', command: 'x', exitCode: 127, message: 'first' });
    appendFileSync(hookFailuresPath(dir), JSON.stringify(old) + '\n{torn\n');
    for (let i = 0; i < 6; i++) recordHookFailure(dir, 'bob', { event: 'PreToolUse', command: `c${i}`, exitCode: 127, message: `m${i}` });
    const recent = recentHookFailures(dir);
    expect(recent.map((f) => f.message)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(recentHookFailures(dir, 20).map((f) => f.message)).toEqual(['first', 'm0', 'm1', 'm2', 'm3', 'm4', 'm5']);
    expect(recent[0]).toMatchObject({ agent: 'bob', event: 'PreToolUse', command: 'c1' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
