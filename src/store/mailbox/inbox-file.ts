import type { Fence } from '../fence.js';
import { readJson, writeJson } from '../json-file.js';
import { parseWith } from '../problems.js';
import { FILE_LIMITS } from '../team-file.js';
import type { FileProblem, Message, Outcome } from '../types.js';
import { InboxSchema } from '../types.js';

/**
 * An inbox as read: its messages (each id once) and the problems that did not
 * stop the read (an id found twice), or the problems that refused it whole.
 */
export type InboxRead =
  | { ok: true; value: Message[]; problems: FileProblem[] }
  | { ok: false; error: FileProblem[] };

/**
 * Reads an inbox; a missing file is an empty inbox, an invalid one is refused
 * as a whole. A message id found more than once (a hand edit, a bad merge) is
 * a problem, and only its first copy is kept: one id is delivered once.
 */
export async function readInbox(file: string, label: string): Promise<InboxRead> {
  const json = await readJson(file, label, FILE_LIMITS.inbox);
  if (json.kind === 'missing') return { ok: true, value: [], problems: [] };
  if (json.kind === 'invalid') return { ok: false, error: [json.problem] };
  const parsed = parseWith(InboxSchema, json.value, label);
  return parsed.ok ? withoutDuplicates(parsed.value, label) : parsed;
}

function withoutDuplicates(messages: Message[], label: string): InboxRead {
  const counts = new Map<string, number>();
  for (const m of messages) counts.set(m.id, (counts.get(m.id) ?? 0) + 1);
  const problems: FileProblem[] = [];
  for (const [id, n] of counts)
    if (n > 1) problems.push({ file: label, message: `message id "${id}" appears ${n} times; delivered once (the first)` });
  if (!problems.length) return { ok: true, value: messages, problems };
  const seen = new Set<string>();
  const value = messages.filter((m) => !seen.has(m.id) && seen.add(m.id));
  return { ok: true, value, problems };
}

/**
 * Reads an inbox only as far as sending needs: a JSON array. Its messages are
 * not judged here, so one bad message (a hand edit) never blocks new mail;
 * `take` and `problems` report it.
 */
export async function readInboxArray(
  file: string,
  label: string,
): Promise<Outcome<unknown[], FileProblem[]>> {
  const json = await readJson(file, label, FILE_LIMITS.inbox);
  if (json.kind === 'missing') return { ok: true, value: [] };
  if (json.kind === 'invalid') return { ok: false, error: [json.problem] };
  if (!Array.isArray(json.value))
    return { ok: false, error: [{ file: label, message: 'must be a JSON array of messages' }] };
  return { ok: true, value: json.value };
}

/** Written under the inbox's lock: `fence` refuses the commit once that lock is lost. */
export async function writeInbox(file: string, messages: readonly unknown[], fence: Fence): Promise<void> {
  await writeJson(file, messages, { fence });
}

/** A message as handed out again or archived: no longer marked as delivering. */
export function withoutDelivery(message: Message): Message {
  const { deliveringSince: _delivering, ...rest } = message;
  return rest;
}
