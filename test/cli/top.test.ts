/** `teamd top` where there is no terminal: it prints what `teamd status` prints. */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { printStatus } from '../../src/cli/status.js';
import { top } from '../../src/cli/top.js';
import { readTeamStatus } from '../../src/observe/status.js';
import { buildTeam, type TeamFixture } from '../dashboard/support/team-fixture.js';
import { captureStdout } from '../observe/support/capture-stdout.js';
import { TSX_LOADER } from '../support/race/spawn-ts.js';

const ENTRY = fileURLToPath(new URL('../dashboard/support/top-entry.ts', import.meta.url));
/** Heartbeat ages move with the clock between two reads. */
const steady = (text: string): string => text.replace(/\b\d+ s\b/g, 'N s');

let team: TeamFixture;
afterEach(() => team.close());

describe('teamd top without a terminal', () => {
  it('piped: prints the status table and exits 0', async () => {
    team = buildTeam('approval');
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', TSX_LOADER, ENTRY, 'top', '--dir', team.root],
        { timeout: 30_000 },
        (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const expected = await captureStdout(async () =>
      printStatus(await readTeamStatus(team.root, team.config)),
    );
    expect(steady(run.stdout)).toBe(steady(expected.stdout));
    expect(run.stdout).toContain('waiting for you (teamd approve <id> / teamd reject <id>):');
    expect(run.stdout).not.toContain('\x1b[');
  });

  it('a bad --refresh or a broken config is a one-line error', async () => {
    team = buildTeam('finished');
    const notTty = process.stdout;
    const bad = await captureStdout(() => top({ dir: team.root, refresh: 'soon' }, notTty));
    expect(bad.error).toBe('--refresh: must be a whole number of milliseconds from 100, got "soon"');
    writeFileSync(join(team.root, '.team', 'config.json'), '{"stallAfterMs": -1}');
    const broken = await captureStdout(() => top({ dir: team.root }, notTty));
    expect(broken.error).toBe(
      `${join(team.root, '.team', 'config.json')}: stallAfterMs: Too small: expected number to be >0`,
    );
  });
});
