import { textDepthProblem } from '../../store/json-bounds.js';
import { readRepoFile, REPO_FILE_LIMITS } from '../../store/repo-file.js';
import type { Outcome } from '../../store/types.js';
import { ScriptSchema, type Script } from './schema.js';

/** Validates a script; the error names `source` and each bad field (`rules.2.match: …`). */
export function parseScript(raw: unknown, source: string): Outcome<Script> {
  const parsed = ScriptSchema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { ok: false, error: `${source}: invalid script: ${issues.join('; ')}` };
}

export async function loadScript(file: string): Promise<Outcome<Script>> {
  // Only a regular file within the cap (a FIFO or /dev/zero put here must not hang or fill the reader).
  const read = await readRepoFile(file, '/', REPO_FILE_LIMITS.script);
  if (read.kind !== 'text') {
    const why = read.kind === 'missing' ? 'no such file' : read.problem.message;
    return { ok: false, error: `${file}: cannot read the script: ${why}` };
  }
  const text = read.text;
  const deep = textDepthProblem(text);
  if (deep !== undefined) return { ok: false, error: `${file}: invalid JSON: ${deep}` };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `${file}: invalid JSON: ${(err as Error).message}` };
  }
  return parseScript(raw, file);
}
