import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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
}

/** Returns false when `onlyIf` abandoned the write. */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<boolean> {
  const dir = dirname(file);
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await openCreatingFolder(tmp);
    try {
      await handle.writeFile(data);
      if (options.durable !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.onlyIf && !(await options.onlyIf())) {
      await rm(tmp, { force: true });
      return false;
    }
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  if (options.durable !== false) await syncDir(dir);
  return true;
}

/** Opens a new file for writing; the folder is created only when missing (a syscall spared on every write). */
async function openCreatingFolder(file: string): Promise<FileHandle> {
  try {
    return await open(file, 'w');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await mkdir(dirname(file), { recursive: true });
    return open(file, 'w');
  }
}

async function syncDir(dir: string): Promise<void> {
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
}
