import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';

/*
 * Node's built-in modules only: the CLI's launcher uses this (its code
 * cache's write, src/cli/cache-write.ts) before any bundle is loaded. And
 * node:crypto and node:worker_threads are loaded at the first call, not at
 * import: the launcher serves every command, and one that needs neither
 * (`teamd --version`) would pay ms for each.
 */
interface Parts {
  randomBytes: (size: number) => Buffer;
  threadId: number;
}

let parts: Parts | undefined;
function partsOf(): Parts {
  if (parts) return parts;
  const load = createRequire(import.meta.url);
  const { randomBytes } = load('node:crypto') as typeof import('node:crypto');
  const { threadId } = load('node:worker_threads') as typeof import('node:worker_threads');
  return (parts = { randomBytes, threadId });
}

let made = 0;

/** A temp name beside `file` no other writer (nor anyone planting links) can guess: `.<name>.<pid>.<thread>.<n>.<random>.tmp`. */
export function freshTempOf(file: string): string {
  const { randomBytes, threadId } = partsOf();
  return join(dirname(file), `.${basename(file)}.${process.pid}.${threadId}.${(made++).toString(36)}.${randomBytes(4).toString('hex')}.tmp`);
}
