/**
 * The roles a `task` call may name: the built-in `general-purpose`, the role
 * files of `.claude/agents/`, then the embedding's roles (a later definition
 * of a name replaces an earlier one). A bad file is reported and left out.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { readRepoFile, REPO_FILE_LIMITS } from '../../store/repo-file.js';
import { join } from 'node:path';
import { z } from 'zod';
import { parseRoleFile } from './role-file.js';
import { GENERAL_PURPOSE, SubagentRoleSchema, type SubagentRole, type SubagentRoleInput } from './types.js';

export const GENERAL_PURPOSE_ROLE: SubagentRole = {
  name: GENERAL_PURPOSE,
  description:
    'A general agent for research, searching the code, and multi-step side tasks; it has the same tools as you (except task).',
  prompt: [
    'You are a subagent: another agent gave you one task. Do it with the tools you have,',
    'then answer with a concise, complete report of what you found or did: it is all the other agent will see.',
    'Name files with their paths; quote exact errors.',
  ].join(' '),
  source: 'built-in',
};

export interface LoadedRoles {
  roles: Map<string, SubagentRole>;
  problems: string[];
}

type RoleFile = { file: string; text: string } | { file: string; problem: string };

async function roleFiles(projectRoot: string): Promise<RoleFile[]> {
  const dir = join(projectRoot, '.claude', 'agents');
  if (!existsSync(dir)) return []; // the usual case, without an exception
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort();
  } catch {
    return [];
  }
  return Promise.all(names.map((n) => roleFile(join(dir, n), projectRoot)));
}

/**
 * A role file's text, or why it was refused: a teammate can write here, and a FIFO, /dev/zero,
 * a huge file or a link out of the repository must be a problem of that file, never a hang.
 */
async function roleFile(file: string, root: string): Promise<RoleFile> {
  const read = await readRepoFile(file, root, REPO_FILE_LIMITS.config);
  if (read.kind === 'text') return { file, text: read.text };
  return {
    file,
    problem: `${read.kind === 'missing' ? file : read.problem.file}: ${read.kind === 'missing' ? 'gone' : read.problem.message}`,
  };
}

export async function loadRoles(
  projectRoot: string,
  given: SubagentRoleInput[] = [],
  readFiles = true,
): Promise<LoadedRoles> {
  const roles = new Map([[GENERAL_PURPOSE, GENERAL_PURPOSE_ROLE]]);
  const problems: string[] = [];
  for (const found of readFiles ? await roleFiles(projectRoot) : []) {
    if ('problem' in found) {
      problems.push(found.problem);
      continue;
    }
    const role = parseRoleFile(found.text, found.file);
    if (role.ok) roles.set(role.value.name, role.value);
    else problems.push(role.error);
  }
  given.forEach((input, i) => {
    const parsed = SubagentRoleSchema.safeParse(input);
    if (parsed.success) roles.set(parsed.data.name, { ...parsed.data, source: 'options' });
    else problems.push(`subagents.roles[${i}]: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
  });
  return { roles, problems };
}
