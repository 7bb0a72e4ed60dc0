/**
 * An agent file's `skills`: each name is a `.claude/skills/<name>/SKILL.md`
 * of the project, else of the user (`~/.claude/skills/`), as Claude Code
 * finds them; its body (front matter left out) is preloaded into the role's
 * prompt, as Claude Code injects a subagent's skills at its start. A skill
 * that is not there is a warning naming the agent file, never fatal.
 */
import { join } from 'node:path';
import { homedir } from 'node:os';
import { readRepoFile, REPO_FILE_LIMITS } from '../../store/repo-file.js';
import { parseFrontMatter } from '../context/front-matter.js';

export interface LoadedSkills {
  /** The skills' text for the prompt; empty when none loaded. */
  text: string;
  warnings: string[];
}

export const userSkillsDir = (): string => join(homedir(), '.claude', 'skills');
const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

async function skillBody(name: string, dirs: string[]): Promise<string | undefined> {
  for (const dir of dirs) {
    const file = join(dir, name, 'SKILL.md');
    const read = await readRepoFile(file, dir, REPO_FILE_LIMITS.config);
    if (read.kind !== 'text') continue;
    const doc = parseFrontMatter(read.text, file);
    return (doc.ok ? doc.value.body : read.text).trim();
  }
  return undefined;
}

export async function loadSkills(
  names: readonly string[] | undefined,
  projectRoot: string,
  source: string,
  userDir: string | null = userSkillsDir(),
): Promise<LoadedSkills> {
  const dirs = [join(projectRoot, '.claude', 'skills'), ...(userDir === null ? [] : [userDir])];
  const parts: string[] = [];
  const warnings: string[] = [];
  for (const name of names ?? []) {
    const body = SKILL_NAME.test(name) ? await skillBody(name, dirs) : undefined;
    if (body === undefined) warnings.push(`${source}: skills: no skill "${name}" in .claude/skills/ (nor the user's); left out`);
    else parts.push(`<skill name="${name}">\n${body}\n</skill>`);
  }
  return { text: parts.length === 0 ? '' : `The skills of your role:\n\n${parts.join('\n\n')}`, warnings };
}

/** The role's prompt with its skills after it. */
export const withSkills = (prompt: string, skills: LoadedSkills): string =>
  skills.text === '' ? prompt : `${prompt}\n\n${skills.text}`;
