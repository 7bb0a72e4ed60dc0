// What the on-demand installers of test programs (test/support/claude-code/, test/interop/litellm/)
// share: a step run to its end with its failure as one line, and a staging folder moved into place
// only when whole.
import { spawnSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';

/** Runs one install step; null when it succeeded, else what failed and the last lines it printed. */
export function runStep(cmd: string, args: string[], cwd: string | undefined, timeoutMs: number): string | null {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: timeoutMs });
  if (r.status === 0) return null;
  const lines = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n');
  const errors = lines.filter((l) => /error/i.test(l));
  const out = (errors.length > 0 ? errors : lines).slice(-3).join(' | ');
  return `${cmd} ${args.join(' ')} failed (${r.status ?? r.signal ?? r.error?.message}): ${out}`;
}

/** After the steps: a failed staging folder is removed; a whole one becomes `dir` (unless another process won). */
export function settleStaging(staging: string, dir: string, failed: string | null): string | null {
  if (failed) {
    rmSync(staging, { recursive: true, force: true });
    return failed;
  }
  try {
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another process installed it first
  }
  return null;
}
