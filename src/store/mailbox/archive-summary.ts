/**
 * What readers that ask often need of a mailbox archive — its problems and
 * its newest message — parsed again only when the archive's inode, size or
 * mtime moved: `teamd top` asks every refresh and `teamd status` every run,
 * and an archive of 100,000 messages took most of either to parse. Only the
 * summary is kept, never the messages. With a `cacheFile` (status and top
 * pass `.team/state/archive-summaries.json`) summaries outlive the process,
 * else they live in it. The cache is soft state: a bad or stale entry is
 * ignored, a failed write leaves the old file.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../atomic.js';
import { teamPaths } from '../paths.js';
import { readStateSync, STATE_LIMITS } from '../state-file.js';
import { MessageSchema, type FileProblem, type Message } from '../types.js';
import { readArchive } from './archive.js';

export interface ArchiveSummary {
  problems: FileProblem[];
  latest: Message | null;
}

const EntrySchema = z.object({
  stamp: z.string(),
  problems: z.array(z.object({ file: z.string(), message: z.string() })),
  latest: MessageSchema.nullable(),
});
type Entry = z.infer<typeof EntrySchema>;

const memory = new Map<string, Entry>();
/** Per cache file, the archives it holds (a process may serve several repositories). */
const caches = new Map<string, Set<string>>();

function loadCache(cacheFile: string): Set<string> {
  const known = caches.get(cacheFile);
  if (known) return known;
  const files = new Set<string>();
  caches.set(cacheFile, files);
  // Through the safe reader: a FIFO, a link or a huge file there is refused, never read.
  const read = readStateSync(cacheFile, z.record(z.string(), z.unknown()), STATE_LIMITS.mergeQueue);
  if (read.kind !== 'ok') return files;
  for (const [file, value] of Object.entries(read.value)) {
    const entry = EntrySchema.safeParse(value);
    if (!entry.success) continue;
    files.add(file);
    if (!memory.has(file)) memory.set(file, entry.data);
  }
  return files;
}

async function saveCache(cacheFile: string, files: ReadonlySet<string>): Promise<void> {
  const value = Object.fromEntries([...files].flatMap((f) => (memory.has(f) ? [[f, memory.get(f)]] : [])));
  await writeFileAtomic(cacheFile, JSON.stringify(value), { durable: false }).catch(() => undefined);
}

export async function archiveSummary(file: string, label: string, cacheFile?: string): Promise<ArchiveSummary> {
  const cached = cacheFile === undefined ? null : loadCache(cacheFile);
  cached?.add(file);
  const st = await stat(file).catch(() => null);
  if (st === null) {
    memory.delete(file);
    return { problems: [], latest: null };
  }
  const stamp = `${st.ino}:${st.size}:${st.mtimeMs}`;
  const known = memory.get(file);
  if (known?.stamp === stamp) return { problems: known.problems, latest: known.latest };
  const { messages, problems } = await readArchive(file, label);
  const entry = { stamp, problems, latest: messages.at(-1) ?? null };
  memory.set(file, entry);
  if (cacheFile && cached) await saveCache(cacheFile, cached);
  return { problems, latest: entry.latest };
}

/** Where `teamd status` and `top` keep archive summaries between runs. */
export const summaryCacheOf = (repoRoot: string): string => join(teamPaths(repoRoot).state, 'archive-summaries.json');
