/**
 * The roles a `task` call may name, in Claude Code's precedence (lowest
 * first, a later definition of a name replaces an earlier one): the built-in
 * `general-purpose`, the user's `~/.claude/agents/**.md`, the project's
 * `.claude/agents/**.md`, then the embedding's roles. Subfolders are read
 * too; within one folder tree the shallower file wins on equal names (the
 * other is a warning). A bad file is reported and left out.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { readRepoFile, REPO_FILE_LIMITS } from '../../store/repo-file.js';
import { parseRoleFile } from './role-file.js';
import { GENERAL_PURPOSE, SubagentRoleSchema, type SubagentRole, type SubagentRoleInput } from './types.js';

export const GENERAL_PURPOSE_ROLE: SubagentRole = {
  name: GENERAL_PURPOSE,
  description:
    'Research and side tasks, with your tools.',
  prompt: [
    'You are a subagent: another agent gave you one task. Do it with the tools you have,',
    'then answer with a concise, complete report of what you found or did: it is all the other agent will see.',
    'Name files with their paths; quote exact errors.',
  ].join(' '),
  source: 'built-in',
};

export interface LoadedRoles {
  roles: Map<string, SubagentRole>;
  /** Files that are no role (bad YAML, no description, unreadable): left out. */
  problems: string[];
  /** Roles that loaded with something ignored (unknown keys or tools, a shadowed duplicate). */
  warnings: string[];
}

export interface RoleSources {
  /** Read `.claude/agents/` of the project. Default true. */
  projectFiles?: boolean;
  /** The user's agents folder; default `~/.claude/agents`; null for none. */
  userDir?: string | null;
}

export const userAgentsDir = (): string => join(homedir(), '.claude', 'agents');
export const projectAgentsDir = (root: string): string => join(root, '.claude', 'agents');

type RoleFile = { file: string; text: string } | { file: string; problem: string };

const MAX_DEPTH = 6;
const MAX_FILES = 1_000;

/** Every `.md` under `dir`, shallower first, each level sorted; links to folders are not followed. */
export async function markdownFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  let level = [dir];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0 && found.length < MAX_FILES; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (e.isDirectory() && !e.name.startsWith('.')) next.push(join(folder, e.name));
        else if (!e.isDirectory() && e.name.endsWith('.md')) found.push(join(folder, e.name));
      }
    }
    level = next;
  }
  return found.slice(0, MAX_FILES);
}

/**
 * A role file's text, or why it was refused: a teammate can write here, and a FIFO, /dev/zero,
 * a huge file or a link out of the folder must be a problem of that file, never a hang.
 */
async function roleFile(file: string, root: string): Promise<RoleFile> {
  const read = await readRepoFile(file, root, REPO_FILE_LIMITS.config);
  if (read.kind === 'text') return { file, text: read.text };
  return {
    file,
    problem: `${read.kind === 'missing' ? file : read.problem.file}: ${read.kind === 'missing' ? 'gone' : read.problem.message}`,
  };
}

/**
 * The roles of one folder tree; the first definition of a name wins within it. Files are read
 * only inside `root` (links included): the project for its agents, `/` for the user's own.
 */
export async function rolesIn(
  dir: string,
  into: LoadedRoles,
  root = dir,
): Promise<Map<string, SubagentRole>> {
  const mine = new Map<string, SubagentRole>();
  if (!existsSync(dir)) return mine; // the usual case, without an exception
  for (const file of await markdownFiles(dir)) {
    const found = await roleFile(file, root);
    if ('problem' in found) {
      into.problems.push(found.problem);
      continue;
    }
    const role = parseRoleFile(found.text, found.file);
    if (!role.ok) into.problems.push(role.error);
    else if (mine.has(role.value.name))
      into.warnings.push(
        `${file}: name: "${role.value.name}" is also defined in ${relative(dir, mine.get(role.value.name)!.source)}; this file is ignored`,
      );
    else {
      mine.set(role.value.name, role.value);
      into.warnings.push(...(role.value.warnings ?? []));
    }
  }
  return mine;
}

export async function loadRoles(
  projectRoot: string,
  given: SubagentRoleInput[] = [],
  readFiles: boolean | RoleSources = true,
): Promise<LoadedRoles> {
  const sources: RoleSources = typeof readFiles === 'boolean' ? { projectFiles: readFiles } : readFiles;
  const loaded: LoadedRoles = {
    roles: new Map([[GENERAL_PURPOSE, GENERAL_PURPOSE_ROLE]]),
    problems: [],
    warnings: [],
  };
  const userDir = sources.userDir === undefined ? userAgentsDir() : sources.userDir;
  const trees: [string, string][] = [
    ...(userDir !== null && sources.projectFiles !== false ? [[userDir, '/'] as [string, string]] : []),
    ...(sources.projectFiles !== false
      ? [[projectAgentsDir(projectRoot), projectRoot] as [string, string]]
      : []),
  ];
  for (const [dir, root] of trees)
    for (const [name, role] of await rolesIn(dir, loaded, root)) loaded.roles.set(name, role);
  given.forEach((input, i) => {
    const parsed = SubagentRoleSchema.safeParse(input);
    if (parsed.success) loaded.roles.set(parsed.data.name, { ...parsed.data, source: 'options' });
    else loaded.problems.push(`subagents.roles[${i}]: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
  });
  return loaded;
}
