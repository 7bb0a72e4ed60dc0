import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readJson, writeJson } from '../json-file.js';
import { problemsFromZod } from '../problems.js';
import { FILE_LIMITS } from '../team-file.js';
import type { FileProblem, Message } from '../types.js';
import { MessageSchema } from '../types.js';

/**
 * Mail on its way into an inbox: one file per message, `.mailboxes/<agent>@<id>.json`,
 * written whole (temp file, fsync, rename) by the sender and by nobody else.
 * A send takes no lock and rewrites nothing, so 16 senders to one agent never
 * wait for each other or for the recipient. The recipient folds these files
 * into its inbox under the inbox lock (`take`, `ack`, `recoverStale`) and
 * removes them after the inbox is written; a crash in between leaves a file
 * whose id the inbox already holds, which the next fold drops. `@` is not
 * allowed in an agent name or a message id, so the owner is everything before it.
 */
export const SPOOL_MARK = '@';

/** A message file waiting in the spool. */
export interface Spooled {
  file: string;
  message: Message;
}

export const spoolFile = (folder: string, message: Message): string =>
  join(folder, `${message.to}${SPOOL_MARK}${message.id}.json`);

/** The agent a spool file name (`ann@m-….json`) is for, or null when the name is no spool file. */
export function spoolOwner(name: string): string | null {
  const at = name.indexOf(SPOOL_MARK);
  if (at <= 0 || name.startsWith('.') || !name.endsWith('.json')) return null;
  return name.slice(0, at);
}

/** Writes one message into the recipient's spool: durable and atomic, no lock. */
export async function writeSpooled(folder: string, message: Message): Promise<void> {
  await writeJson(spoolFile(folder, message), message);
}

/** The names of `agent`'s spool files (or of every agent's, when absent), oldest id first. */
export async function spoolNames(folder: string, agent?: string): Promise<string[]> {
  const self = await lstat(folder).catch(() => null);
  if (!self?.isDirectory()) return [];
  const names = await readdir(folder).catch(() => [] as string[]);
  return names.filter((n) => (agent === undefined ? spoolOwner(n) !== null : spoolOwner(n) === agent)).sort();
}

/**
 * `agent`'s spooled messages, oldest first, and the files that cannot be
 * delivered (not JSON, not a message, or addressed to someone else), which
 * stay where they are for a person to look at and are reported.
 */
export async function readSpool(
  folder: string,
  agent: string,
  labelOf: (file: string) => string,
): Promise<{ spooled: Spooled[]; problems: FileProblem[] }> {
  const spooled: Spooled[] = [];
  const problems: FileProblem[] = [];
  for (const name of await spoolNames(folder, agent)) {
    const file = join(folder, name);
    const read = await readSpooledFile(file, labelOf(file), agent);
    if (read.ok) spooled.push({ file, message: read.message });
    else if (read.problems.length) problems.push(...read.problems);
  }
  return { spooled, problems };
}

async function readSpooledFile(
  file: string,
  label: string,
  agent: string,
): Promise<{ ok: true; message: Message } | { ok: false; problems: FileProblem[] }> {
  const json = await readJson(file, label, FILE_LIMITS.task);
  // Gone meanwhile: folded and removed by the recipient between the listing and this read.
  if (json.kind === 'missing') return { ok: false, problems: [] };
  if (json.kind === 'invalid') return { ok: false, problems: [json.problem] };
  const parsed = MessageSchema.safeParse(json.value);
  if (!parsed.success) return { ok: false, problems: problemsFromZod(label, parsed.error) };
  if (parsed.data.to !== agent || !file.endsWith(`${SPOOL_MARK}${parsed.data.id}.json`))
    return { ok: false, problems: [{ file: label, message: `holds message "${parsed.data.id}" to "${parsed.data.to}": its name must be ${parsed.data.to}${SPOOL_MARK}${parsed.data.id}.json` }] };
  return { ok: true, message: parsed.data };
}

/** Removes spool files already in the inbox. */
export async function removeSpooled(spooled: readonly Spooled[]): Promise<void> {
  for (const s of spooled) await rm(s.file, { force: true });
}
