/**
 * Project instructions: `AGENTS.md` and/or `CLAUDE.md` (the names are
 * configurable) in every folder from the project root down to the cwd,
 * outermost first, so the most specific instructions come last.
 */
import { statSync } from 'node:fs';
import { readRepoFile, REPO_FILE_LIMITS } from '../../store/repo-file.js';
import { join, relative, sep } from 'node:path';

export interface InstructionFile {
  /** Relative to the project root. */
  path: string;
  text: string;
}

/** Folders from `root` down to `cwd` (just `root` when `cwd` is not inside it). */
export function foldersDownTo(root: string, cwd: string): string[] {
  const rel = relative(root, cwd);
  if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) return [root];
  const parts = rel.split(sep);
  return [root, ...parts.map((_, i) => join(root, ...parts.slice(0, i + 1)))];
}

/** Most candidates do not exist: asked without an exception (their stack traces cost more than the read). */
export async function readIfPresent(file: string, root = '/'): Promise<string | null> {
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return null;
  // A regular file (or a link to one inside `root`) within the cap: anything swapped in meanwhile is refused.
  const read = await readRepoFile(file, root, REPO_FILE_LIMITS.config);
  return read.kind === 'text' ? read.text : null;
}

export async function instructionChain(
  root: string,
  cwd: string,
  names: string[],
): Promise<InstructionFile[]> {
  const found: InstructionFile[] = [];
  for (const folder of foldersDownTo(root, cwd)) {
    for (const name of names) {
      const file = join(folder, name);
      const text = await readIfPresent(file, root);
      if (text !== null && text.trim() !== '') found.push({ path: relative(root, file), text: text.trim() });
    }
  }
  return found;
}
