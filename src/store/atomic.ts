import { closeSync, constants, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Fence } from './fence.js';
import { freshTempOf } from './fresh-temp.js';
import { openSyncMakingFolder } from './open-sync.js';
import { runsInline } from './inline-io.js';

/**
 * Writes `data` to `file` so that a reader sees the old or the new content,
 * never half: a temp file in the same folder (same file system, so rename is
 * atomic), fsync, rename, then fsync of the folder so the rename survives a crash.
 */
export interface AtomicWriteOptions {
  /**
   * Checked after the data is safely in the temp file, just before the rename:
   * when it resolves false the write is abandoned (temp file removed) and the
   * old file stays. Used to write back only over a file nobody changed meanwhile.
   */
  onlyIf?: () => Promise<boolean>;
  /**
   * Default true: fsync the file and its folder, so the write survives a
   * power loss. False for files rewritten all the time whose loss costs
   * nothing (a status snapshot): still atomic, never torn, just not forced out.
   */
  durable?: boolean;
  /**
   * The hold of the lock this write happens under (`withLock` hands it to its
   * function): checked last before the rename, which then follows at once on
   * this thread; throws LockLostError (nothing written) when the lock was
   * lost or the file changed meanwhile.
   */
  fence?: Fence;
}

export { freshTempOf };

/**
 * The temp file is made afresh: anyone who can write the folder (a
 * teammate's bash in `.tasks/`) could plant a link at a temp name it can
 * guess, and `w` would write through it into any file of the user's. The name
 * carries random bytes and the open refuses an existing name or a link.
 */
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Returns false when `onlyIf` abandoned the write. */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<boolean> {
  const durable = options.durable !== false;
  const io = runsInline(durable) ? INLINE : POOLED;
  const dir = dirname(file);
  const tmp = freshTempOf(file);
  try {
    await io.writeTemp(tmp, data, durable);
    if (options.onlyIf && !(await options.onlyIf())) {
      rmSync(tmp, { force: true });
      return false;
    }
    await commit(io, tmp, file, options.fence);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  if (durable) await io.syncDir(dir);
  return true;
}

/**
 * A fenced rename is synchronous and right after its check: between the two
 * only a stop of the whole process in those microseconds can slip a
 * takeover in (docs/RELIABILITY.md, "Fenced writes").
 */
async function commit(io: FileOps, tmp: string, file: string, fence: Fence | undefined): Promise<void> {
  if (!fence) return io.rename(tmp, file);
  fence.verify(file);
  renameSync(tmp, file);
  fence.committed(file);
}

interface FileOps {
  writeTemp(tmp: string, data: string | Uint8Array, durable: boolean): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  syncDir(dir: string): Promise<void>;
}

const INLINE: FileOps = {
  async writeTemp(tmp, data, durable) {
    const fd = openSyncMakingFolder(tmp, TEMP_FLAGS, 0o644);
    try {
      writeFileSync(fd, data);
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  },
  async rename(from, to) {
    renameSync(from, to);
  },
  async syncDir(dir) {
    try {
      const fd = openSync(dir, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      // Some file systems refuse fsync on a directory; the rename is still atomic.
    }
  },
};

const POOLED: FileOps = {
  async writeTemp(tmp, data, durable) {
    const handle = await openCreatingFolder(tmp);
    try {
      await handle.writeFile(data);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
  },
  rename,
  async syncDir(dir) {
    try {
      const handle = await open(dir, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch {
      // Some file systems refuse fsync on a directory; the rename is still atomic.
    }
  },
};

/** Opens a new file for writing; the folder is created only when missing (a syscall spared on every write). */
async function openCreatingFolder(file: string): Promise<FileHandle> {
  try {
    return await open(file, TEMP_FLAGS, 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await mkdir(dirname(file), { recursive: true });
    return open(file, TEMP_FLAGS, 0o644);
  }
}

