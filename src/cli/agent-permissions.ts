/**
 * The `permissions` of Claude Code's settings files, which `claude -p` obeys:
 * `.claude/settings.json`, `.claude/settings.local.json`, then `--settings`.
 * Rules (`allow`, `deny`, `ask`) and `additionalDirectories` add up; the last `defaultMode` wins. A file
 * that cannot be read or a field of the wrong type is a warning naming the
 * file and the field, and that file's permissions are left out.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { readRepoFile, REPO_FILE_LIMITS } from '../store/repo-file.js';
import type { PermissionMode } from '../agent/permissions/types.js';

const PermissionsSchema = z.looseObject({
  allow: z.array(z.string().min(1)).optional(),
  deny: z.array(z.string().min(1)).optional(),
  ask: z.array(z.string().min(1)).optional(),
  defaultMode: z.enum(['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk']).optional(),
  additionalDirectories: z.array(z.string().min(1)).optional(),
});

export interface SettingsPermissions {
  allow: string[];
  deny: string[];
  ask: string[];
  defaultMode?: PermissionMode;
  /** `permissions.additionalDirectories`, each with the file that names it (for warnings). */
  additionalDirectories: { dir: string; source: string }[];
  problems: string[];
}

async function fileSettings(cwd: string, name: string): Promise<{ json?: unknown; problem?: string }> {
  const shown = join('.claude', name);
  const read = await readRepoFile(join(cwd, shown), cwd, REPO_FILE_LIMITS.config);
  if (read.kind === 'missing') return {};
  if (read.kind === 'invalid') return { problem: `${shown}: cannot be read: ${read.problem.message}` };
  try {
    return { json: JSON.parse(read.text) };
  } catch (error) {
    return { problem: `${shown}: not valid JSON: ${(error as Error).message}` };
  }
}

function add(into: SettingsPermissions, settings: unknown, shown: string): void {
  const value = (settings as { permissions?: unknown } | null)?.permissions;
  if (value === undefined) return;
  const parsed = PermissionsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    into.problems.push(`${shown}: permissions.${issue.path.join('.')}: ${issue.message}`);
    return;
  }
  into.allow.push(...(parsed.data.allow ?? []));
  into.deny.push(...(parsed.data.deny ?? []));
  into.ask.push(...(parsed.data.ask ?? []));
  for (const dir of parsed.data.additionalDirectories ?? []) into.additionalDirectories.push({ dir, source: shown });
  if (parsed.data.defaultMode) into.defaultMode = parsed.data.defaultMode;
}

/** `flagSettings` is the parsed `--settings` object, when given. */
export async function settingsPermissions(cwd: string, flagSettings?: unknown): Promise<SettingsPermissions> {
  const out: SettingsPermissions = { allow: [], deny: [], ask: [], additionalDirectories: [], problems: [] };
  for (const name of ['settings.json', 'settings.local.json']) {
    const { json, problem } = await fileSettings(cwd, name);
    if (problem) out.problems.push(problem);
    else add(out, json, join('.claude', name));
  }
  if (flagSettings !== undefined) add(out, flagSettings, '--settings');
  return out;
}
