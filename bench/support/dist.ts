/**
 * Benchmarks measure the compiled daemon (dist/, built by `npm run build`):
 * from TypeScript, every teammate worker would compile its modules through
 * tsx at start, which is seconds of noise that users never pay. The bench
 * scripts themselves run through tsx; they import the daemon from dist/ with
 * the types of src/ (`fromDist<typeof import('../../src/…')>('…')`).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DIST = join(ROOT, 'dist');
const SRC = join(ROOT, 'src');
let warned = false;

/** Imports `dist/<path>`; fails with a clear message when the build is missing. */
export async function fromDist<T>(path: string): Promise<T> {
  const file = join(DIST, path);
  if (!existsSync(file))
    throw new Error(`${file} is missing: run \`npm run build\` first (\`npm run bench\` does)`);
  warnIfStale();
  return (await import(new URL(`file://${file}`).href)) as T;
}

function warnIfStale(): void {
  if (warned) return;
  warned = true;
  const newest = (dir: string, ext: string): number => {
    let max = 0;
    for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (e.isFile() && e.name.endsWith(ext))
        max = Math.max(max, statSync(join(e.parentPath, e.name)).mtimeMs);
    }
    return max;
  };
  if (newest(SRC, '.ts') > newest(DIST, '.js')) {
    console.warn(
      'warning: src/ is newer than dist/ — these figures are for the last build (`npm run build`)',
    );
  }
}

/** The daemon's modules that benchmarks drive, loaded from dist/. */
export async function loadDaemon() {
  const [lead, tasks, mailbox, lock, atomic, ids] = await Promise.all([
    fromDist<typeof import('../../src/lead/lead.js')>('lead/lead.js'),
    fromDist<typeof import('../../src/store/tasks/index.js')>('store/tasks/index.js'),
    fromDist<typeof import('../../src/store/mailbox/index.js')>('store/mailbox/index.js'),
    fromDist<typeof import('../../src/store/lock.js')>('store/lock.js'),
    fromDist<typeof import('../../src/store/atomic.js')>('store/atomic.js'),
    fromDist<typeof import('../../src/store/ids.js')>('store/ids.js'),
  ]);
  return {
    Lead: lead.Lead,
    TaskStore: tasks.TaskStore,
    MailboxStore: mailbox.MailboxStore,
    withLock: lock.withLock,
    writeFileAtomic: atomic.writeFileAtomic,
    newId: ids.newId,
  };
}
export type Daemon = Awaited<ReturnType<typeof loadDaemon>>;
