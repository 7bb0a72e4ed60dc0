/**
 * The `<session_context>` block: who the agent is, the date, where it works,
 * the git branch and status, the project instructions and the memory index.
 * It opens the first user message of a session, and of the conversation left
 * after a compaction, so the identity and role are never summarised away.
 */
import type { ContentBlock, TextBlock } from '../../model/types.js';
import { gitStatusSummary } from './git.js';
import { instructionChain, readIfPresent, type InstructionFile } from './instructions.js';
import type { ContextOptions, Identity, ProjectRoots } from './types.js';

export const SESSION_CONTEXT_OPEN = '<session_context>';
/** A project instruction file longer than this is cut (its start is kept). */
const MAX_INSTRUCTION_CHARS = 30_000;

export interface SessionFacts {
  identity: Identity;
  date: Date;
  cwd: string;
  /** More directories the agent may reach (`--add-dir`); none when absent. */
  additionalDirectories?: readonly string[];
  gitStatus: string | null;
  instructions: InstructionFile[];
  /** The text of `.memory/MEMORY.md`, when there is one. */
  memoryIndex: string | null;
}

export interface GatherInput {
  identity: Identity;
  cwd: string;
  additionalDirectories?: readonly string[];
  roots: ProjectRoots;
  options: ContextOptions;
  /** `.memory/MEMORY.md` to include, when memory is on. */
  memoryIndexFile?: string;
  now?: () => Date;
}

async function readOrNull(file: string | undefined): Promise<string | null> {
  const text = file === undefined ? null : (await readIfPresent(file))?.trim();
  return text ? text : null;
}

export async function gatherSessionFacts(input: GatherInput): Promise<SessionFacts> {
  const [gitStatus, instructions, memoryIndex] = await Promise.all([
    gitStatusSummary(input.cwd),
    instructionChain(
      input.roots.project,
      input.cwd,
      input.options.instructionFiles,
      input.options.userInstructions ? {} : { userDir: null },
    ),
    readOrNull(input.memoryIndexFile),
  ]);
  const date = (input.now ?? (() => new Date()))();
  const extra = input.additionalDirectories ?? [];
  return { identity: input.identity, date, cwd: input.cwd, additionalDirectories: extra, gitStatus, instructions, memoryIndex };
}

const clip = (text: string): string =>
  text.length <= MAX_INSTRUCTION_CHARS
    ? text
    : `${text.slice(0, MAX_INSTRUCTION_CHARS)}\n[… ${text.length - MAX_INSTRUCTION_CHARS} more characters not shown]`;

function identityLines(identity: Identity): string[] {
  const lines = [`You are "${identity.agentName}".`];
  if (identity.role !== undefined && identity.role.trim() !== '') {
    lines.push('Your role:', '<role>', identity.role.trim(), '</role>');
  }
  return lines;
}

export function renderSessionContext(facts: SessionFacts): string {
  const day = facts.date.toISOString().slice(0, 10);
  const lines = [
    SESSION_CONTEXT_OPEN,
    ...identityLines(facts.identity),
    `Today is ${day}. Working directory: ${facts.cwd}`,
  ];
  // Claude Code's environment block lists them the same way.
  const extra = facts.additionalDirectories ?? [];
  if (extra.length > 0) lines.push('Additional working directories:', ...extra.map((d) => `  - ${d}`));
  if (facts.gitStatus !== null)
    lines.push('Git branch and status (git status --short --branch):', facts.gitStatus);
  for (const file of facts.instructions) {
    lines.push(`<project_instructions path="${file.path}">`, clip(file.text), '</project_instructions>');
  }
  if (facts.memoryIndex !== null) {
    lines.push('<memory_index file=".memory/MEMORY.md">', facts.memoryIndex, '</memory_index>');
    lines.push('Use memory_search to read a memory in full.');
  }
  lines.push('</session_context>');
  return lines.join('\n');
}

export const isSessionContext = (block: ContentBlock): block is TextBlock =>
  block.type === 'text' && block.text.startsWith(SESSION_CONTEXT_OPEN);
