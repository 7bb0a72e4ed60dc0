import { parseWith } from '../problems.js';
import type { FileProblem, Task } from '../types.js';
import { invalidIdReason } from '../paths.js';
import { TaskSchema } from '../types.js';

/** A task read from its file; `complete` is false for a dropped file that lacks some fields. */
export type ParsedTask = { ok: true; task: Task; complete: boolean } | { ok: false; problems: FileProblem[] };

const TASK_FIELDS = Object.keys(TaskSchema.shape);

/**
 * Validates the JSON of `.tasks/<stem>.json` and fills the defaults a dropped
 * file leaves out. The id is the file name: a different `id` inside is refused.
 */
export function taskFromFile(raw: unknown, stem: string, label: string, now: Date): ParsedTask {
  const badName = invalidIdReason(stem);
  if (badName !== undefined)
    return {
      ok: false,
      problems: [{ file: label, message: `file name is not a valid task id: ${badName}` }],
    };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, problems: [{ file: label, message: 'must be a JSON object' }] };
  }
  const fields = raw as Record<string, unknown>;
  if (fields.id !== undefined && fields.id !== stem) {
    return {
      ok: false,
      problems: [{ file: label, field: 'id', message: `must equal the file name "${stem}"` }],
    };
  }
  const parsed = parseWith(TaskSchema, withTimestamps({ ...fields, id: stem }, now), label);
  if (!parsed.ok) return { ok: false, problems: parsed.error };
  return { ok: true, task: parsed.value, complete: TASK_FIELDS.every((k) => k in fields) };
}

function withTimestamps(fields: Record<string, unknown>, now: Date): Record<string, unknown> {
  const createdAt = fields.createdAt ?? now.toISOString();
  return { ...fields, createdAt, updatedAt: fields.updatedAt ?? createdAt };
}
