import { existsSync, watch, type FSWatcher } from 'node:fs';
import { readSessionFrom } from '../observe/transcript-files.js';
import { basename, dirname } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import type { PriceOverrides } from '../model/pricing.js';
import { daemonLogPath, formatDaemonLogLine, parseDaemonLog } from '../observe/daemon-log.js';
import { eventLogPath } from '../observe/event-log.js';
import { eventSegments } from '../observe/event-history.js';
import { printEventLog } from './logs-events.js';
import {
  parseTranscriptText,
  sessionFiles,
  transcriptsRoot,
  TranscriptRenderer,
  type TranscriptLine,
} from '../observe/transcript-view.js';
import { listSegments, readSegmentText } from '../store/segments.js';
import { AgentNameSchema } from '../store/types.js';
import { fail } from './cli-error.js';
import { printJsonLine, printStyledLine } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';

export interface LogsOptions extends DirOption {
  follow?: boolean;
  task?: string;
  json?: boolean;
  daemon?: boolean;
  events?: boolean;
  since?: string;
  tail?: string;
  type?: string;
}

export function registerLogsCommand(program: Command): void {
  addDirOption(
    program
      .command('logs [agent]')
      .description(
        "an agent's transcripts readably (teammate name or lead), the daemon's log (--daemon), or the team events (--events)",
      ),
  )
    .option('-f, --follow', 'keep printing as it grows (Ctrl+C stops)')
    .option('--task <id>', "only the agent's sessions for this task")
    .option('--json', 'print the raw JSON lines')
    .option('--daemon', "the daemon's own log, .team/state/daemon.log")
    .option('--events', 'the team events, .team/state/events.jsonl (and its rotated segments)')
    .option('--since <when>', 'with --events: only events since a time (ISO) or an age (30s, 15m, 2h, 7d)')
    .option('--tail <n>', 'with --events: only the last n events (read backwards from the end)')
    .option('--type <types>', 'with --events: only these event types, comma-separated (task_completed,notice)')
    .action((agent: string | undefined, o: LogsOptions) => logs(agent, o));
}

const useColour = (): boolean => process.stdout.isTTY === true && !process.env.NO_COLOR;

/** Prints what each file gained since the last call; only complete lines, so a line being written waits. */
class FileTail {
  private readonly offsets = new Map<string, number>();

  constructor(private readonly onText: (file: string, text: string) => void) {}

  async poll(files: readonly string[]): Promise<void> {
    for (const file of files) {
      const from = this.offsets.get(file) ?? 0;
      const text = await readSessionFrom(file, from);
      const end = text.lastIndexOf('\n') + 1;
      if (!end) continue;
      this.offsets.set(file, from + Buffer.byteLength(text.slice(0, end)));
      this.onText(file, text.slice(0, end));
    }
  }
}


/** One transcript session being printed: its renderer, and whether it belongs to `--task` (unknown until a line says). */
interface SessionPrint {
  renderer: TranscriptRenderer;
  matches: boolean | null;
  held: TranscriptLine[];
}

function transcriptPrinter(
  options: LogsOptions,
  prices: PriceOverrides,
): (file: string, text: string) => void {
  const sessions = new Map<string, SessionPrint>();
  const print = (s: SessionPrint, line: TranscriptLine): void => {
    if (options.json) printJsonLine(line);
    else for (const l of s.renderer.render(line)) printStyledLine(l);
  };
  return (file, text) => {
    let s = sessions.get(file);
    if (!s)
      sessions.set(
        file,
        (s = {
          renderer: new TranscriptRenderer({ color: useColour(), prices }),
          matches: options.task ? null : true,
          held: [],
        }),
      );
    for (const line of parseTranscriptText(text)) {
      if (s.matches === null && 'parent_id' in line) {
        s.matches = line.parent_id === options.task;
        if (s.matches) for (const h of s.held.splice(0)) print(s, h);
      }
      if (s.matches === null) s.held.push(line);
      else if (s.matches) print(s, line);
    }
  };
}

function daemonPrinter(options: LogsOptions): (file: string, text: string) => void {
  return (_file, text) => {
    for (const line of parseDaemonLog(text))
      if (options.json) printJsonLine(line);
      else printStyledLine(formatDaemonLogLine(line, useColour()));
  };
}

/** Re-polls on every change under `folder` (when it exists) and every second, until SIGINT or SIGTERM. */
async function follow(folder: string, poll: () => Promise<void>): Promise<void> {
  let watcher: FSWatcher | null = null;
  let busy = Promise.resolve();
  const again = (): void => {
    busy = busy.then(poll);
  };
  const attach = (): void => {
    if (watcher || !existsSync(folder)) return;
    watcher = watch(folder, { recursive: true }, again);
    watcher.on('error', () => undefined);
  };
  attach();
  const tick = setInterval(() => {
    attach();
    again();
  }, 1000);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(tick);
  (watcher as FSWatcher | null)?.close();
  await busy;
}

async function eventLogs(repoRoot: string, options: LogsOptions): Promise<void> {
  const file = eventLogPath(repoRoot);
  if (!existsSync(file) && !options.follow && !(await eventSegments(repoRoot)).length)
    fail(`no event log yet: ${file}`);
  const poll = await printEventLog(repoRoot, options);
  if (options.follow) await follow(dirname(file), () => Promise.resolve(poll()));
}

export async function logs(agent: string | undefined, options: LogsOptions): Promise<void> {
  const repoRoot = resolveRepoDir(options);
  let files: () => string[];
  let onText: (file: string, text: string) => void;
  let folder: string;
  if (options.events) return eventLogs(repoRoot, options);
  if (options.daemon) {
    const file = daemonLogPath(repoRoot);
    if (!existsSync(file) && !options.follow) fail(`no daemon log yet: ${file}`);
    [files, onText, folder] = [() => [file], daemonPrinter(options), dirname(file)];
    for (const segment of await listSegments(folder, basename(file))) onText(segment.path, readSegmentText(segment));
  } else {
    if (!agent) fail('name an agent (a teammate or lead), or use --daemon or --events');
    if (!AgentNameSchema.safeParse(agent).success) fail(`invalid agent name "${agent}"`);
    if (!sessionFiles(repoRoot, agent).length && !options.follow)
      fail(`no transcripts for "${agent}" in ${transcriptsRoot(repoRoot)}`);
    const loaded = await loadConfig(repoRoot);
    [files, onText, folder] = [
      () => sessionFiles(repoRoot, agent),
      transcriptPrinter(options, loaded.ok ? loaded.config.prices : {}),
      transcriptsRoot(repoRoot),
    ];
  }
  const tail = new FileTail(onText);
  await tail.poll(files());
  if (options.follow) await follow(folder, () => tail.poll(files()));
}
