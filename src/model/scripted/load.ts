import { readFile } from 'node:fs/promises';
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
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return { ok: false, error: `${file}: cannot read the script: ${(err as Error).message}` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `${file}: invalid JSON: ${(err as Error).message}` };
  }
  return parseScript(raw, file);
}
