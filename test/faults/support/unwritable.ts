/**
 * Makes a folder refuse new files, by the first technique that works here:
 * `chmod 555` (ignored for root, who runs CI), then `chattr +i` (immutable:
 * even root cannot create, rename or delete in it; needs ext4-like file
 * systems and CAP_LINUX_IMMUTABLE), then swapping the folder for a plain file
 * (every path below it fails with ENOTDIR). Each technique is probed with a
 * real write before it is trusted; `restore()` undoes it.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Unwritable {
  technique: 'chmod 555' | 'chattr +i' | 'replaced by a file';
  restore(): void;
}

function refusesWrites(dir: string): boolean {
  const probe = join(dir, `.probe-${process.pid}`);
  try {
    writeFileSync(probe, 'x');
    rmSync(probe, { force: true });
    return false;
  } catch {
    return true;
  }
}

export function makeUnwritable(dir: string): Unwritable {
  chmodSync(dir, 0o555);
  if (refusesWrites(dir)) return { technique: 'chmod 555', restore: () => chmodSync(dir, 0o755) };
  chmodSync(dir, 0o755);
  try {
    execFileSync('chattr', ['+i', dir], { stdio: 'pipe' });
    if (refusesWrites(dir))
      return {
        technique: 'chattr +i',
        restore: () => execFileSync('chattr', ['-i', dir], { stdio: 'pipe' }),
      };
    execFileSync('chattr', ['-i', dir], { stdio: 'pipe' });
  } catch {
    // no chattr, or no permission for it: fall through
  }
  const aside = `${dir}.aside`;
  renameSync(dir, aside);
  writeFileSync(dir, 'not a folder\n');
  return {
    technique: 'replaced by a file',
    restore: () => {
      rmSync(dir, { force: true });
      renameSync(aside, dir);
    },
  };
}
