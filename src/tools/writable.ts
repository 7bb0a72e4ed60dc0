/**
 * The checks `write` and `edit` share before touching a file: inside root,
 * not a directory, and read (unchanged) first when it already exists.
 */
import { stat } from 'node:fs/promises';
import type { Outcome } from '../store/types.js';
import { currentCwd } from './context.js';
import { displayPath, resolveInside } from './paths.js';
import type { ToolContext } from './types.js';

export interface WritableFile {
  absPath: string;
  /** The path as the model should see it. */
  shown: string;
  exists: boolean;
}

export async function resolveWritable(ctx: ToolContext, filePath: string): Promise<Outcome<WritableFile>> {
  const cwd = currentCwd(ctx);
  const resolved = resolveInside(ctx.root, cwd, filePath);
  if (!resolved.ok) return resolved;
  const absPath = resolved.value;
  const shown = displayPath(cwd, absPath);
  const info = await stat(absPath).catch(() => null);
  if (info?.isDirectory()) return { ok: false, error: `${shown} is a directory, not a file.` };
  const refusal = await ctx.fileState.checkWritable(absPath);
  if (refusal !== null) return { ok: false, error: refusal.replace(absPath, shown) };
  return { ok: true, value: { absPath, shown, exists: info !== null } };
}
