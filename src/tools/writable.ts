/**
 * The checks `write` and `edit` share before touching a file: inside root,
 * not in git's data, not a directory, not hard-linked or on another device
 * (write-guard.ts), and read (unchanged) first when it already exists.
 */
import type { Stats } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Outcome } from '../store/types.js';
import { currentCwd, resolveForTool, rootOf } from './context.js';
import { displayPath, realpathOrSelf } from './paths.js';
import type { ToolContext } from './types.js';
import { deviceOf, refuseGitPath, whyNotPlainFile } from './write-guard.js';

export interface WritableFile {
  absPath: string;
  /** The path as the model should see it. */
  shown: string;
  exists: boolean;
  /** The root's device: the file must stay on it (checked again when writing). */
  rootDev: number;
}

export async function resolveWritable(ctx: ToolContext, filePath: string): Promise<Outcome<WritableFile>> {
  const cwd = currentCwd(ctx);
  const resolved = resolveForTool(ctx, filePath);
  if (!resolved.ok) return resolved;
  const absPath = resolved.value;
  const shown = displayPath(cwd, absPath);
  const realRoot = realpathOrSelf(rootOf(ctx, absPath));
  const notGit = refuseGitPath(realRoot, absPath, shown);
  if (!notGit.ok) return notGit;
  const info = await stat(absPath).catch(() => null);
  if (info?.isDirectory()) return { ok: false, error: `${shown} is a directory, not a file.` };
  const rootDev = await deviceOf(realRoot);
  const above = info === null ? await nearestExisting(absPath) : null;
  if (above && !above.info.isDirectory()) {
    return {
      ok: false,
      error: `${shown} cannot be created: ${displayPath(cwd, above.path)} is a file, not a folder.`,
    };
  }
  const plain = whyNotPlainFile(info ?? above!.info, rootDev, shown);
  if (plain !== null) return { ok: false, error: plain };
  const refusal = await ctx.fileState.checkWritable(absPath);
  if (refusal !== null) return { ok: false, error: refusal.replace(absPath, shown) };
  return { ok: true, value: { absPath, shown, exists: info !== null, rootDev } };
}

/** The deepest existing path above a file that does not exist yet (its device is the new file's). */
async function nearestExisting(absPath: string): Promise<{ path: string; info: Stats }> {
  for (let dir = path.dirname(absPath); ; dir = path.dirname(dir)) {
    const info = await lstat(dir).catch(() => null);
    if (info !== null) return { path: dir, info };
    if (path.dirname(dir) === dir) return { path: dir, info: await lstat(dir) };
  }
}
