import { newId } from '../ids.js';
import { describeInputError } from '../problems.js';
import type { Message, Outcome } from '../types.js';
import { SendInputSchema, type SendInput } from './types.js';

/** A message from what `send` was given: validated, the recipient checked against the roster, id and ts added. */
export function composeMessage(input: SendInput, roster: readonly string[] | undefined, now: Date): Outcome<Message> {
  const parsed = SendInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: describeInputError(parsed.error) };
  if (roster && !roster.includes(parsed.data.to)) {
    return { ok: false, error: `unknown recipient "${parsed.data.to}"; valid: ${roster.join(', ')}` };
  }
  return {
    ok: true,
    value: {
      id: newId('m'),
      ...parsed.data,
      type: parsed.data.type ?? 'message',
      metadata: parsed.data.metadata ?? {},
      ts: now.toISOString(),
    },
  };
}
