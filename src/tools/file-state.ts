/**
 * Remembers what the agent has seen of each file, so `edit` and `write` refuse
 * to overwrite a file blind or one that someone else changed since the read.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { FileStateTracker } from './types.js';

interface SeenState {
  mtimeMs: number;
  size: number;
  sha256: string;
}

export function createFileStateTracker(): FileStateTracker {
  const seen = new Map<string, SeenState>();
  const remember = async (absPath: string): Promise<void> => {
    const state = await currentState(absPath);
    if (state === null) seen.delete(absPath);
    else seen.set(absPath, state);
  };
  return {
    recordRead: remember,
    recordWrite: remember,
    checkWritable: async (absPath) => whyNotWritable(absPath, seen.get(absPath)),
  };
}

async function whyNotWritable(absPath: string, known: SeenState | undefined): Promise<string | null> {
  const now = await currentState(absPath);
  if (now === null) return null; // a new file needs no read
  if (known === undefined) {
    return `${absPath} exists but has not been read yet: read it first, then write or edit it.`;
  }
  // mtime alone lies both ways (touch without change, change within the clock's resolution): the hash decides.
  if (now.size !== known.size || now.sha256 !== known.sha256) {
    return `${absPath} has changed on disk since it was last read (by someone else or another tool): read it again before writing.`;
  }
  return null;
}

async function currentState(absPath: string): Promise<SeenState | null> {
  try {
    const info = await stat(absPath);
    if (!info.isFile()) return null;
    const sha256 = createHash('sha256')
      .update(await readFile(absPath))
      .digest('hex');
    return { mtimeMs: info.mtimeMs, size: info.size, sha256 };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null; // ENOTDIR: a file where a folder of the path should be
    throw error;
  }
}
