/**
 * Reading the user's own files in the repository that a teammate can also
 * write (`.claude/settings*.json`, `.mcp.json`, `.claude/agents/*.md`,
 * `CLAUDE.md`, a model script): unlike team files they may be symbolic links
 * (CLAUDE.md linked to AGENTS.md is common), but only to a regular file
 * inside `root`; a FIFO (which would block the reader), a device such as
 * `/dev/zero` (which would fill memory), a folder, a file over `maxBytes`, or
 * a link out of `root` (to a secret, whose text a JSON error would quote) is
 * refused unread, as team-file.ts does.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { relative } from 'node:path';
import { describeLink, isInside, readTeamFile, type TextRead } from './team-file.js';

/** Caps (bytes) of the user's files teamd reads: far above real ones. */
export const REPO_FILE_LIMITS = {
  /** settings, .mcp.json, an agent role, an instruction file. */
  config: 1024 * 1024,
  /** A recorded model script grows with every step. */
  script: 64 * 1024 * 1024,
} as const;

const refused = (file: string, message: string): TextRead => ({
  kind: 'invalid',
  problem: { file, message },
});

/** Where a link at `file` really leads when that is inside `root`; null when it leads out (or nowhere). */
function linkTarget(file: string, root: string): string | null {
  try {
    const real = realpathSync(file);
    return isInside(realpathSync(root), real) ? real : null;
  } catch {
    return null;
  }
}

/** Reads `file` (shown as its path from `root`): a regular file of at most `maxBytes`, or a link to one inside `root`. */
export async function readRepoFile(file: string, root: string, maxBytes: number): Promise<TextRead> {
  const label = relative(root, file) || file;
  let target = file;
  try {
    if (lstatSync(file).isSymbolicLink()) {
      const real = linkTarget(file, root);
      if (real === null)
        return refused(label, describeLink(file, label, 'links must stay inside the repository'));
      target = real;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
  }
  return readTeamFile(target, label, maxBytes);
}
