/**
 * The daemon's own log: `.team/state/daemon.log`, JSON lines written by pino
 * through a synchronous destination (a crash loses no line, and nothing is
 * left in a worker thread to flush). Every team event goes in with its level;
 * `teamd logs --daemon` prints the file readably.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { readStateTextSync } from '../store/state-file.js';
import { join } from 'node:path';
import type { Level, Logger } from 'pino';
import { formatEvent } from './format-event.js';
import { terminalSafeLine } from './terminal-safe.js';
import type { LoggedEvent, TeamEvent } from './types.js';

/**
 * pino, loaded by the first logger made: `teamd logs` and `status` read the
 * file without it, and its ~30 modules were ~12 ms of their start.
 */
const loadPino = (): typeof import('pino').pino => (createRequire(import.meta.url)('pino') as typeof import('pino')).pino;

export const daemonLogPath = (repoRoot: string): string => join(repoRoot, '.team', 'state', 'daemon.log');

/** Field names whose values never reach the log, wherever they appear. */
const SECRET_PATHS = ['apiKey', 'authorization', 'webhook', 'token', 'password'].flatMap((k) => [
  k,
  `*.${k}`,
  `*.*.${k}`,
]);

export interface DaemonLogger {
  /** The pino logger itself, for the lead's own messages (`log.pino.warn({ err }, 'merge failed')`). */
  readonly pino: Logger;
  /** Logs one team event at its level, with the event's fields under `event`. */
  event(e: TeamEvent | LoggedEvent): void;
  /** Opens the file by its name again (after a rotation moved the old one away). */
  reopen(): void;
  close(): void;
}

/** Failures are warnings, crashes errors, chatty bookkeeping debug; the rest info. */
export function levelOf(e: TeamEvent): Level {
  switch (e.type) {
    case 'teammate_crashed':
      return 'error';
    case 'task_failed':
    case 'worktree_failed':
    case 'merge_refused':
    case 'task_problem':
    case 'approval_expired':
      return 'warn';
    case 'message_delivered':
    case 'teammate_state':
    case 'cron_event':
      return 'debug';
    case 'task_reclaimed':
      return e.failed ? 'warn' : 'info';
    default:
      return 'info';
  }
}

/** A logger appending to `.team/state/daemon.log` (the folder is created). */
export function createDaemonLogger(repoRoot: string, options: { level?: Level } = {}): DaemonLogger {
  const pino = loadPino();
  const destination = pino.destination({ dest: daemonLogPath(repoRoot), sync: true, mkdir: true });
  const logger = pino(
    {
      level: options.level ?? 'debug',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: SECRET_PATHS, censor: '[redacted]' },
    },
    destination,
  );
  let closed = false;
  return {
    pino: logger,
    event(e) {
      if (closed) return;
      const { ts: _ts, ...fields } = e as LoggedEvent;
      logger[levelOf(e)]({ event: fields }, formatEvent(e as LoggedEvent) ?? e.type);
    },
    reopen() {
      if (closed) return;
      destination.flushSync();
      destination.reopen();
    },
    close() {
      if (closed) return;
      closed = true;
      destination.flushSync();
      destination.end();
    },
  };
}

/** A parsed daemon log line; unknown fields are kept. */
export interface DaemonLogLine {
  level: number;
  time: string;
  msg: string;
  event?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Every parseable line of the daemon log, oldest first. */
export function readDaemonLog(repoRoot: string): DaemonLogLine[] {
  const file = daemonLogPath(repoRoot);
  if (!existsSync(file)) return [];
  return parseDaemonLog(readStateTextSync(file));
}

export function parseDaemonLog(text: string): DaemonLogLine[] {
  const out: DaemonLogLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const parsed = JSON.parse(line) as Partial<DaemonLogLine>;
      if (typeof parsed.level === 'number' && typeof parsed.msg === 'string')
        out.push({ time: '', ...parsed } as DaemonLogLine);
    } catch {
      // a foreign or torn line
    }
  }
  return out;
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const LEVEL_COLOURS: Record<number, number> = { 20: 2, 40: 33, 50: 31, 60: 31 };
const OMITTED = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'event']);

/**
 * `2026-11-29 22:21:14.509  WARN  ✘ parser failed (worker-1): …  key=value`;
 * colour marks warnings and errors, added once the line is terminal-safe.
 */
export function formatDaemonLogLine(line: DaemonLogLine, color = false): string {
  const level = (LEVEL_NAMES[line.level] ?? String(line.level)).padEnd(5);
  const extra = Object.entries(line)
    .filter(([k]) => !OMITTED.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const text = terminalSafeLine(`${line.time.replace('T', ' ')}  ${level}  ${line.msg}${extra ? `  ${extra}` : ''}`);
  const code = LEVEL_COLOURS[line.level];
  return color && code ? `\x1b[${code}m${text}\x1b[${code === 2 ? 22 : 39}m` : text;
}
