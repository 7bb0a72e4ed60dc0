/**
 * The soak bench in its tiny mode (small history, 2 s of `top`): it runs to
 * the end and prints every column and target. No number is asserted:
 * benchmarks never fail on a number. It drives the fresh build (dist/, what
 * users run) when there is one, else src/ through tsx (`--src`): see
 * test/support/teamd-cli.ts.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TSX_LOADER } from '../support/race/spawn-ts.js';
import { builtCliIsFresh } from '../support/teamd-cli.js';

const BENCH = fileURLToPath(new URL('../../bench/soak/index.ts', import.meta.url));
// The live part at its smallest that still takes the probe's per-fifth RSS readings (5 tasks: one each, a
// second of sampling apiece) and sends messages (4: under five, no readings); --tiny's 20 + 20 spent ~20 s there.
const LIVE = ['--live-tasks', '5', '--live-messages', '4'];

describe('bench/soak --tiny', () => {
  it('runs a team on generated history and prints its table', async () => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', TSX_LOADER, BENCH, '--tiny', ...LIVE, ...(builtCliIsFresh() ? [] : ['--src'])],
        { timeout: 170_000 },
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
      ),
    );
    for (const column of [
      'teamd status',
      'teamd logs --events --tail 20',
      'stall check, per run',
      'lead cold start',
      'lead RSS before the live tasks',
      'lead RSS after 5 tasks',
      'lead RSS after 4 more messages',
      'teamd top: CPU over 2 s idle',
      'teamd top: largest RSS',
    ])
      expect(out).toContain(column);
    expect(out.match(/^(PASS|MISS) {2}/gm)).toHaveLength(8);
  }, 180_000);
});
