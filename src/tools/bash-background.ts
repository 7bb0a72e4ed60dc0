/**
 * Background shells of one agent session: `bash` with `run_in_background`
 * starts one and returns its id at once; `bash_output` reads what it wrote
 * since the last read; `bash_kill` stops it. When a command ends by itself,
 * the session's agent gets one `<task_notification>` (id, exit code, output
 * tail) at its next turn. Every shell still running is killed when the
 * session closes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BackgroundLog } from './bash-background-log.js';
import { runShell, type ShellResult } from './bash-process.js';
import { notifyTaskEnded, onSessionClose, taskNotificationText } from './session-tasks.js';
import type { ToolContext } from './types.js';

export type BackgroundStatus = 'running' | 'completed' | 'failed' | 'timed_out' | 'killed';

/** How a background command is started (the bash tool prepares script and environment). */
export interface BackgroundStart {
  command: string;
  description?: string;
  script: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

export interface BackgroundShell {
  readonly id: string;
  readonly command: string;
  readonly description: string | null;
  status: BackgroundStatus;
  exitCode: number | null;
  readonly log: BackgroundLog;
  /** Resolves when the command has ended and its status is set. */
  readonly ended: Promise<void>;
}

interface Entry extends BackgroundShell {
  ended: Promise<void>;
  controller: AbortController;
  killRequested: boolean;
}

/** Session key of the folder logs go to; the runtime sets it, else a temp folder is made (and removed at close). */
export const BACKGROUND_LOG_DIR_KEY = 'background_log_dir';
const REGISTRY_KEY = 'background_shells';

export class BackgroundShells {
  private readonly entries = new Map<string, Entry>();
  private next = 1;
  private closing = false;

  constructor(
    private readonly session: Map<string, unknown>,
    private readonly logDir: string,
    private readonly ownsLogDir: boolean,
  ) {}

  start(spec: BackgroundStart): BackgroundShell {
    const id = `bash-${this.next++}`;
    const log = BackgroundLog.create(this.logDir, id);
    const controller = new AbortController();
    const entry: Entry = {
      id,
      command: spec.command,
      description: spec.description ?? null,
      status: 'running',
      exitCode: null,
      log,
      controller,
      killRequested: false,
      ended: Promise.resolve(),
    };
    const run = runShell({
      script: spec.script,
      cwd: spec.cwd,
      env: spec.env,
      timeoutMs: spec.timeoutMs,
      signal: controller.signal,
      onOutput: (chunk) => log.append(chunk),
    });
    entry.ended = run.then((result) => this.settle(entry, result));
    this.entries.set(id, entry);
    return entry;
  }

  get(id: string): BackgroundShell | undefined {
    return this.entries.get(id);
  }

  get ids(): string[] {
    return [...this.entries.keys()];
  }

  /** Stops a running command (its whole process group); no notification follows. */
  async kill(id: string): Promise<BackgroundShell | undefined> {
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    if (entry.status === 'running') {
      entry.killRequested = true;
      entry.controller.abort(new Error('killed'));
    }
    await entry.ended;
    return entry;
  }

  /** Kills everything still running and closes the logs. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.ids.map((id) => this.kill(id)));
    for (const entry of this.entries.values()) entry.log.close();
    if (this.ownsLogDir) rmSync(this.logDir, { recursive: true, force: true });
  }

  private settle(entry: Entry, result: ShellResult): void {
    entry.exitCode = result.exitCode;
    entry.status = statusOf(result, entry.killRequested);
    if (entry.killRequested || this.closing) return;
    const fields = {
      task_id: entry.id,
      kind: 'bash',
      command: entry.command,
      ...(entry.description === null ? {} : { description: entry.description }),
      status: entry.status,
      exit_code: result.exitCode,
    };
    const tail = entry.log.tail() || '(no output)';
    notifyTaskEnded(this.session, {
      taskId: entry.id,
      text: taskNotificationText(fields, { tag: 'output_tail', text: tail }),
    });
  }
}

function statusOf(result: ShellResult, killRequested: boolean): BackgroundStatus {
  if (killRequested || result.aborted) return 'killed';
  if (result.timedOut) return 'timed_out';
  return result.exitCode === 0 ? 'completed' : 'failed';
}

/** The session's registry, created (and registered for closing) on first use. */
export function backgroundShells(ctx: Pick<ToolContext, 'session'>): BackgroundShells {
  const existing = ctx.session.get(REGISTRY_KEY);
  if (existing instanceof BackgroundShells) return existing;
  const given = ctx.session.get(BACKGROUND_LOG_DIR_KEY);
  const owned = typeof given !== 'string';
  const dir = owned ? mkdtempSync(join(tmpdir(), 'teamd-background-')) : given;
  const registry = new BackgroundShells(ctx.session, dir, owned);
  ctx.session.set(REGISTRY_KEY, registry);
  onSessionClose(ctx.session, async () => {
    ctx.session.delete(REGISTRY_KEY);
    await registry.close();
  });
  return registry;
}

/** One line describing a command's state, e.g. `running` or `exited with code 1`. */
export function describeStatus(shell: BackgroundShell): string {
  switch (shell.status) {
    case 'running':
      return 'running';
    case 'killed':
      return 'killed';
    case 'timed_out':
      return 'timed out (killed)';
    default:
      return shell.exitCode === null ? 'ended by a signal' : `exited with code ${shell.exitCode}`;
  }
}
