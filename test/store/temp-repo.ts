import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** A fresh temp folder standing in for a repository; `cleanup` removes it. */
export async function tempRepo(prefix = 'teamd-store-'): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** Every file and folder under `root` with its size and content hash-ish (content itself), for before/after comparison. */
export async function snapshotTree(root: string): Promise<Map<string, string>> {
  const snapshot = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const rel = relative(root, path);
      if (entry.isDirectory()) {
        snapshot.set(`${rel}/`, 'dir');
        await walk(path);
      } else snapshot.set(rel, `${(await stat(path)).size}:${await readFile(path, 'utf8')}`);
    }
  };
  await walk(root);
  return snapshot;
}

/** Polls `condition` until it holds or `timeoutMs` passes (then throws with `what`). */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
