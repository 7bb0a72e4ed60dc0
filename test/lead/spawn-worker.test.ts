import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TEAMMATE_RESOURCE_LIMITS, withoutTsx } from '../../src/lead/spawn-worker.js';

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, 'fixtures', 'spawn-child.ts');

interface ThreadReport {
  execArgv: string[];
  resourceLimits: { maxYoungGenerationSizeMb: number };
  gc: string;
}

async function spawnedUnder(
  flags: string[],
): Promise<{ parent: string[]; js: ThreadReport; ts: ThreadReport }> {
  const dir = await mkdtemp(join(tmpdir(), 'teamd-spawn-'));
  try {
    const { stdout } = await run(process.execPath, [...flags, CHILD, dir]);
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      parent: string[];
      js: ThreadReport;
      ts: ThreadReport;
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('withoutTsx', () => {
  it('drops every form of the flags that load tsx', () => {
    expect(withoutTsx(['--import', 'tsx', '--cpu-prof'])).toEqual(['--cpu-prof']);
    expect(withoutTsx(['--import=tsx', '--loader', 'tsx', '--require', 'tsx/cjs'])).toEqual([]);
    expect(
      withoutTsx(['-r', '/repo/node_modules/tsx/dist/cjs/index.cjs', '--experimental-loader=tsx/esm']),
    ).toEqual([]);
  });

  it('keeps other flags, and other modules given to --import', () => {
    const flags = [
      '--enable-source-maps',
      '--import',
      './trace.mjs',
      '--conditions=dev',
      '--cpu-prof-dir',
      'tsx',
    ];
    expect(withoutTsx(flags)).toEqual(flags);
  });
});

describe('spawnWorker', () => {
  it('starts a compiled entry without the lead’s tsx flags, keeping the others, with the heap limits', async () => {
    const { parent, js } = await spawnedUnder(['--expose-gc', '--conditions=teamd-test', '--import', 'tsx']);
    expect(parent).toEqual(['--expose-gc', '--conditions=teamd-test', '--import', 'tsx']);
    // --expose-gc is refused in a worker's own flags but holds for the whole process
    expect(js.execArgv).toEqual(['--conditions=teamd-test']);
    expect(js.gc).toBe('function');
    expect(js.resourceLimits.maxYoungGenerationSizeMb).toBe(
      TEAMMATE_RESOURCE_LIMITS.maxYoungGenerationSizeMb,
    );
  });

  it('starts a TypeScript entry through tsx, with the same heap limits', async () => {
    const { ts } = await spawnedUnder(['--import', 'tsx']);
    expect(ts.execArgv).toEqual(['--import', 'tsx']);
    expect(ts.resourceLimits.maxYoungGenerationSizeMb).toBe(
      TEAMMATE_RESOURCE_LIMITS.maxYoungGenerationSizeMb,
    );
  });
});
