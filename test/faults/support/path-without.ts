/**
 * A PATH without one program: every PATH folder that holds it is replaced by
 * a temp folder of symlinks to everything else in it. The grep tool searches
 * in-process (JavaScript regular expressions, in the worker thread) only when
 * ripgrep is not on the PATH, and a hung worker needs exactly that.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export function pathWithout(
  program: string,
  path = process.env.PATH ?? '',
): { path: string; cleanup: () => void } {
  const made: string[] = [];
  const dirs = path.split(delimiter).map((dir) => {
    if (!existsSync(join(dir, program))) return dir;
    const shadow = mkdtempSync(join(tmpdir(), 'teamd-path-'));
    made.push(shadow);
    for (const name of readdirSync(dir))
      if (name !== program) symlinkSync(join(dir, name), join(shadow, name));
    return shadow;
  });
  return {
    path: dirs.join(delimiter),
    cleanup: () => made.forEach((d) => rmSync(d, { recursive: true, force: true })),
  };
}
