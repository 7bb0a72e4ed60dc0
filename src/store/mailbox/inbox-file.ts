import type { Fence } from '../fence.js';
import { readJson, writeJson } from '../json-file.js';
import { parseWith } from '../problems.js';
import type { FileProblem, Message, Outcome } from '../types.js';
import { InboxSchema } from '../types.js';

/** Reads an inbox; a missing file is an empty inbox, an invalid one is refused as a whole. */
export async function readInbox(file: string, label: string): Promise<Outcome<Message[], FileProblem[]>> {
  const json = await readJson(file, label);
  if (json.kind === 'missing') return { ok: true, value: [] };
  if (json.kind === 'invalid') return { ok: false, error: [json.problem] };
  return parseWith(InboxSchema, json.value, label);
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
  const json = await readJson(file, label);
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
