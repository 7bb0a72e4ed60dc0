/**
 * Rotating one append-only log by size and age (see store/segments.ts for
 * the steps and why a crash between them loses nothing).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { compressQuietSegments, pruneSegments, rotateFile } from '../store/segments.js';
import type { LogRotation, RotationPolicy } from './types.js';

/** The time of a file's first line (its `ts` or pino's `time`), or null. */
export function firstLineTime(file: string): number | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(4096);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const first = buffer.subarray(0, n).toString('utf8').split('\n')[0] ?? '';
    const m = /"(?:ts|time)":"([^"]+)"/.exec(first);
    const t = m ? Date.parse(m[1]!) : NaN;
    return Number.isFinite(t) ? t : null;
  } finally {
    closeSync(fd);
  }
}

/** Whether `file` is due: past the size, or its oldest line past the age. */
async function isDue(path: string, policy: RotationPolicy, now: number): Promise<boolean> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile() || info.size === 0) return false;
  if (info.size >= policy.rotateBytes) return true;
  const first = firstLineTime(path) ?? info.birthtimeMs;
  return now - first >= policy.rotateAfterMs;
}

export interface RotateOptions {
  now?: number;
  dryRun?: boolean;
  /** Never rotate the live file itself (its writer cannot reopen it); segments are still compressed and pruned. */
  keepLive?: boolean;
  /** For labels: paths are shown relative to it. */
  repoRoot: string;
}

/** Rotates `dir/file` when due, compresses its quiet raw segments, prunes old compressed ones. */
export async function rotateLog(
  dir: string,
  file: string,
  policy: RotationPolicy,
  o: RotateOptions,
): Promise<LogRotation> {
  const now = o.now ?? Date.now();
  const label = (p: string): string => relative(o.repoRoot, p);
  const due = !o.keepLive && (await isDue(join(dir, file), policy, now));
  const rotated = due ? (o.dryRun ? join(dir, file) : await rotateFile(dir, file, new Date(now))) : null;
  const compressed = await compressQuietSegments(dir, file, {
    now,
    quietMs: policy.quietMs,
    dryRun: o.dryRun,
  });
  const pruned = await pruneSegments(dir, file, policy.keepSegmentsMs, { now, dryRun: o.dryRun });
  return {
    file: label(join(dir, file)),
    rotated: rotated && label(rotated),
    compressed: compressed.compressed.map(label),
    pruned: pruned.map(label),
    bytesBefore: compressed.bytesBefore,
    bytesAfter: compressed.bytesAfter,
  };
}
