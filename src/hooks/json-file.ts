/** A JSON object file the user (or a teammate) can write, read with the repository's limits. */
import path from 'node:path';
import { textDepthProblem } from '../store/json-bounds.js';
import { readRepoFile, REPO_FILE_LIMITS } from '../store/repo-file.js';

export type JsonObjectRead =
  { ok: true; value: Record<string, unknown>; missing?: boolean } | { ok: false; problems: string[] };

/** A JSON object file inside `root`; a missing file is an empty object. */
export async function readJsonObject(file: string, root: string): Promise<JsonObjectRead> {
  const shown = path.relative(root, file) || file;
  // A teammate can write here: a FIFO, /dev/zero, a huge file or a link out of the repository is refused unread.
  const read = await readRepoFile(file, root, REPO_FILE_LIMITS.config);
  if (read.kind === 'missing') return { ok: true, value: {}, missing: true };
  if (read.kind === 'invalid')
    return { ok: false, problems: [`${shown}: cannot be read: ${read.problem.message}`] };
  const deep = textDepthProblem(read.text);
  if (deep !== undefined) return { ok: false, problems: [`${shown}: not valid JSON: ${deep}`] };
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch (error) {
    return { ok: false, problems: [`${shown}: not valid JSON: ${(error as Error).message}`] };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { ok: false, problems: [`${shown}: must hold a JSON object`] };
  return { ok: true, value: json as Record<string, unknown> };
}
