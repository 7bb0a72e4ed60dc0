import { existsSync, readdirSync, readFileSync, statSync, watch } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { renderTranscriptLine } from '../observe/transcript-view.js';
import { AgentNameSchema } from '../store/types.js';
import { transcriptsDir } from '../teammate/runtime-factory.js';
import { fail } from './cli-error.js';
import { printLine } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';

interface LogsOptions extends DirOption {
  follow?: boolean;
  task?: string;
  json?: boolean;
}

export function registerLogsCommand(program: Command): void {
  addDirOption(
    program.command('logs <agent>').description("an agent's transcripts, readably (teammate name or lead)"),
  )
    .option('-f, --follow', 'keep printing as the agent works')
    .option('--task <id>', 'only the sessions of this task')
    .option('--json', 'print the raw JSON lines')
    .action(logs);
}

type Parsed = Record<string, unknown>;

function sessionFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

function parseLines(text: string): Parsed[] {
  const out: Parsed[] = [];
  for (const l of text.split('\n')) {
    if (!l.trim()) continue;
    try {
      out.push(JSON.parse(l) as Parsed);
    } catch {
      // a line being written right now
    }
  }
  return out;
}

/** A session belongs to a task when its runtime was started for it (events carry the task id as parent_id). */
const ofTask = (lines: Parsed[], task?: string): boolean => !task || lines.some((l) => l.parent_id === task);

function print(lines: Parsed[], json?: boolean): void {
  for (const l of lines) {
    if (json) printLine(JSON.stringify(l));
    else for (const r of renderTranscriptLine(l)) printLine(r);
  }
}

async function logs(agent: string, options: LogsOptions): Promise<void> {
  if (!AgentNameSchema.safeParse(agent).success) fail(`unknown agent name "${agent}"`);
  const dir = transcriptsDir(resolveRepoDir(options), agent);
  const offsets = new Map<string, number>();
  const flush = () => {
    for (const file of sessionFiles(dir)) {
      const text = readFileSync(file, 'utf8');
      const from = offsets.get(file) ?? 0;
      const end = text.lastIndexOf('\n') + 1;
      if (end <= from) continue;
      offsets.set(file, end);
      const lines = parseLines(text.slice(from, end));
      if (ofTask(parseLines(text.slice(0, end)), options.task)) print(lines, options.json);
    }
  };
  if (!existsSync(dir) && !options.follow) fail(`no transcripts for "${agent}" in ${dir}`);
  flush();
  if (!options.follow) return;
  await new Promise<void>((resolve) => {
    const watcher = watch(join(dir, '..'), { recursive: true }, () => flush());
    process.once('SIGINT', () => {
      watcher.close();
      resolve();
    });
  });
}
