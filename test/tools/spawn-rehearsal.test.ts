import { describe, expect, it } from 'vitest';
import { spawnRehearsalShell } from '../../src/tools/spawn-rehearsal.js';
import { defaultShell } from '../../src/tools/bash-process.js';

const live = (): string[] => process.getActiveResourcesInfo().filter((r) => /Process|Pipe/.test(r));

describe('the bash spawn rehearsal', () => {
  it('starts the shell, reaps it, and holds nothing that keeps the process alive', async () => {
    const before = live();
    const reaped = spawnRehearsalShell(defaultShell());
    expect(live().length).toBe(before.length); // the child and its pipes are unref'd while it runs
    await reaped;
    expect(live().length).toBe(before.length);
  });

  it('is harmless when the shell cannot start', async () => {
    await expect(spawnRehearsalShell('/nonexistent/shell')).resolves.toBeUndefined();
    await expect(spawnRehearsalShell('')).resolves.toBeUndefined();
  });
});
