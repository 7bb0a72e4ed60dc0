/**
 * What the files of a team repository must look like after any fault: every
 * team file parses with its schema, no lock is left behind, and the tasks on
 * disk (not any process's index) say what happened.
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { CronJobSchema, InboxSchema, MessageSchema, TaskSchema } from '../../../src/store/types.js';
import type { Task } from '../../../src/store/types.js';

/** Every file below `dir` (recursively), as absolute paths; `.git` is entered only when asked. */
export function walk(dir: string, opts: { git?: boolean; dirs?: boolean } = {}): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === '.git' && !opts.git) continue;
      if (e.name === 'objects' && dir.endsWith('.git')) continue;
      if (opts.dirs) out.push(full);
      out.push(...walk(full, opts));
    } else out.push(full);
  }
  return out;
}

/** Locks left anywhere in the repository: teamd's (`<dir>/.locks/<name>`, owner files aside) and git's (`*.lock`). */
export function leftoverLocks(repo: string): string[] {
  return walk(repo, { git: true, dirs: true })
    .filter((p) => p.endsWith('.lock') || (basename(dirname(p)) === '.locks' && !basename(p).startsWith('.owner-')))
    .map((p) => relative(repo, p));
}

const parses = (schema: { safeParse(v: unknown): { success: boolean } }, text: string): boolean => {
  try {
    return schema.safeParse(JSON.parse(text)).success;
  } catch {
    return false;
  }
};

const jsonLinesParse = (text: string, check: (v: unknown) => boolean): boolean =>
  text
    .split('\n')
    .filter((l) => l.trim())
    .every((l) => {
      try {
        return check(JSON.parse(l));
      } catch {
        return false;
      }
    });

/** The team files that do not parse (tasks, inboxes, archives, cron jobs, event log, transcripts, status). */
export function unparsableTeamFiles(repo: string): string[] {
  const bad: string[] = [];
  const check = (folder: string, ok: (file: string, text: string) => boolean) => {
    // Temp files and lock entries (owner files are empty) are not data.
    for (const file of walk(join(repo, folder)).filter((f) => !f.endsWith('.tmp') && !f.includes('/.locks/'))) {
      if (!ok(file, readFileSync(file, 'utf8'))) bad.push(relative(repo, file));
    }
  };
  check('.tasks', (_f, t) => parses(TaskSchema, t));
  check('.mailboxes', (f, t) =>
    f.endsWith('.jsonl')
      ? jsonLinesParse(t, (v) => MessageSchema.safeParse(v).success)
      : f.includes('@')
        ? parses(MessageSchema, t) // a message in the spool: `<agent>@<id>.json`
        : parses(InboxSchema, t),
  );
  check('.cron', (_f, t) => parses(CronJobSchema, t));
  check('.team/state', (f, t) =>
    f.endsWith('.jsonl')
      ? jsonLinesParse(t, (v) => typeof v === 'object' && v !== null)
      : f.endsWith('.json')
        ? parses({ safeParse: (v) => ({ success: typeof v === 'object' && v !== null }) }, t)
        : true,
  );
  return bad;
}

/** The tasks as their files say now (the truth after a crash, whatever any index believes). */
export function tasksOnDisk(repo: string): Map<string, Task> {
  const tasks = new Map<string, Task>();
  const dir = join(repo, '.tasks');
  if (!existsSync(dir)) return tasks;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.'))) {
    try {
      // Only regular files: a FIFO would block this reader, a link to /dev/zero fill its memory.
      if (!lstatSync(join(dir, name)).isFile()) continue;
      const parsed = TaskSchema.safeParse(JSON.parse(readFileSync(join(dir, name), 'utf8')));
      if (parsed.success) tasks.set(parsed.data.id, parsed.data);
    } catch {
      // a file being replaced right now; the next look sees it whole
    }
  }
  return tasks;
}

/** Polls the files (a crash leaves no process to send events) until `check` holds. */
export async function untilFiles(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
