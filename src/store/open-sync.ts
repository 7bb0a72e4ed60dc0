import { mkdirSync, openSync, type Mode, type OpenMode } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Opens `file` on this thread; its folder is made only when the open finds
 * it missing (a syscall spared on every open of a file whose folder exists).
 */
export function openSyncMakingFolder(file: string, flags: OpenMode, mode?: Mode): number {
  try {
    return openSync(file, flags, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dirname(file), { recursive: true });
    return openSync(file, flags, mode);
  }
}
