/**
 * `bash`: one shell command in the agent's directory. The shell's final
 * directory is carried to the next call (a `cd` persists), but never outside
 * the root. Output streams to `onProgress` and is capped head+tail.
 * With `run_in_background` the command is handed to the session's
 * background-shell registry (bash-background.ts) and its id returns at once.
 */
import { existsSync, realpathSync } from 'node:fs';
import { z } from 'zod';
import { changesDirectory, classifyCommand } from './bash-classify.js';
import { backgroundShells } from './bash-background.js';
import { safeGitEnv } from './bash-read-only.js';
import { runShell, type ShellResult } from './bash-process.js';
import { currentCwd, setCurrentCwd } from './context.js';
import { createCappedOutput } from './output-cap.js';
import { containingRoot } from './paths.js';
import { defineTool, type ToolContext, type ToolOutput } from './types.js';

export const BASH_LIMITS = {
  defaultTimeoutMs: 120_000,
  maxTimeoutMs: 600_000,
  /** Characters of output kept (half from the start, half from the end). */
  maxOutputChars: 30_000,
} as const;

const BashInput = z.strictObject({
  command: z.string().min(1).describe('Run with bash -c'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(BASH_LIMITS.maxTimeoutMs)
    .optional()
    .describe(
      'ms',
    ),
  description: z.string().optional().describe('A few words'),
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      'For servers, watchers, long builds',
    ),
});
type BashInput = z.infer<typeof BashInput>;

export const bashTool = defineTool({
  name: 'bash',
  description: [
    `Run a shell command (no stdin; timeout ${BASH_LIMITS.defaultTimeoutMs / 1000} s); a \`cd\` carries over. In the background:`,
    'bash_output reads, bash_kill stops, a <task_notification> tells the end. Prefer read/grep/glob/edit for files.',
  ].join('\n'),
  inputSchema: BashInput,
  isReadOnly: (input) => classifyCommand(input.command).readOnly,
  // A `cd` is read-only but moves the directory the next call starts in: such calls keep their order.
  isConcurrencySafe: (input) => classifyCommand(input.command).readOnly && !changesDirectory(input.command),
  rehearsalInput: { command: 'echo warm' },
  run: async (input, ctx) =>
    input.run_in_background ? runInBackground(input, ctx) : runForeground(input, ctx),
});

/** Background commands get no timeout unless one is asked for: they are stopped by bash_kill or when the agent stops. */
const BACKGROUND_DEFAULT_TIMEOUT_MS = 24 * 60 * 60 * 1000;

async function runInBackground(input: BashInput, ctx: ToolContext): Promise<ToolOutput> {
  const root = realpathSync(ctx.root);
  const start = startingDirectory(ctx, root);
  const shell = backgroundShells(ctx).start({
    command: input.command,
    ...(input.description === undefined ? {} : { description: input.description }),
    script: BACKGROUND_SCRIPT,
    cwd: start.dir,
    env: shellEnv(input.command),
    timeoutMs: input.timeout ?? BACKGROUND_DEFAULT_TIMEOUT_MS,
  });
  const lines = [
    `Started in the background with id ${shell.id} (output log: ${shell.log.file}).`,
    `Read its output with bash_output {"bash_id": "${shell.id}"}; stop it with bash_kill. A <task_notification> arrives when it ends.`,
    start.note,
  ];
  return {
    content: lines.filter((l) => l !== null).join('\n'),
    summary: `$ ${oneLine(input.description ?? input.command)} → ${shell.id} (background)`,
  };
}

async function runForeground(input: BashInput, ctx: ToolContext): Promise<ToolOutput> {
  const root = realpathSync(ctx.root);
  const start = startingDirectory(ctx, root);
  const output = createCappedOutput(BASH_LIMITS.maxOutputChars);
  const lines = lineSplitter(ctx.onProgress);
  let reported = '';
  const result = await runShell({
    script: SCRIPT,
    cwd: start.dir,
    env: shellEnv(input.command),
    timeoutMs: input.timeout ?? BASH_LIMITS.defaultTimeoutMs,
    signal: ctx.signal,
    onOutput: (chunk) => (output.append(chunk), lines.push(chunk)),
    onFd3: (chunk) => (reported += chunk),
  });
  lines.flush();
  const cwdNote = carryDirectory(ctx, root, reported);
  return render(input, result, output.text(), [start.note, cwdNote]);
}

/** The kept directory, unless it vanished or is no longer inside root. */
function startingDirectory(ctx: ToolContext, root: string): { dir: string; note: string | null } {
  const kept = currentCwd(ctx);
  if (existsSync(kept) && inReach(ctx, root, realpathSync(kept))) return { dir: kept, note: null };
  setCurrentCwd(ctx, root);
  return { dir: root, note: `[${kept} no longer exists: ran in ${root}]` };
}

/**
 * The command runs through `eval` so a syntax error in it is an ordinary
 * failure, and the EXIT trap reports the final directory on descriptor 3 even
 * after `exit N`. No temp file: nothing is left behind, whatever kills the shell.
 */
const SCRIPT = [
  "trap 'pwd -P >&3 2>/dev/null' EXIT",
  '__teamd_cmd=$TEAMD_BASH_COMMAND',
  'unset TEAMD_BASH_COMMAND',
  'eval "$__teamd_cmd"',
].join('\n');

/** No directory report in the background: a background `cd` does not carry over. */
const BACKGROUND_SCRIPT = [
  '__teamd_cmd=$TEAMD_BASH_COMMAND',
  'unset TEAMD_BASH_COMMAND',
  'eval "$__teamd_cmd"',
].join('\n');

function shellEnv(command: string): NodeJS.ProcessEnv {
  // No terminal to answer prompts or page output: make tools fail or print instead of waiting forever.
  return {
    ...process.env,
    TEAMD_BASH_COMMAND: command,
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: 'true',
    ...safeGitEnv(process.env),
  };
}

/** Inside the root or an added directory (`--add-dir`): where a `cd` may leave the shell. */
const inReach = (ctx: ToolContext, root: string, dir: string): boolean =>
  containingRoot([root, ...(ctx.extraRoots ?? [])], dir) !== null;

function carryDirectory(ctx: ToolContext, root: string, reported: string): string | null {
  const written = reported.trim().split('\n').at(-1) ?? '';
  if (written === '' || !existsSync(written)) return null; // killed, or the trap was replaced: keep the old directory
  const finalDir = realpathSync(written);
  if (inReach(ctx, root, finalDir)) {
    setCurrentCwd(ctx, finalDir);
    return null;
  }
  setCurrentCwd(ctx, root);
  return `[the shell ended in ${finalDir}, outside the working directory${ctx.extraRoots?.length ? ' and the added directories' : ''}: the current directory was reset to ${root}]`;
}

function render(input: BashInput, result: ShellResult, text: string, notes: (string | null)[]): ToolOutput {
  const status = statusLine(input, result);
  const body = text.trimEnd() === '' ? '(no output)' : text.trimEnd();
  const failed =
    result.exitCode !== 0 || result.timedOut || result.aborted || result.spawnError !== undefined;
  const content = [body, status, ...notes].filter((part) => part !== null && part !== '').join('\n');
  const exit = result.exitCode === null ? (result.killedBy ?? 'killed') : `exit ${result.exitCode}`;
  return { content, isError: failed, summary: `$ ${oneLine(input.description ?? input.command)} → ${exit}` };
}

function statusLine(input: BashInput, result: ShellResult): string | null {
  if (result.spawnError !== undefined) return `[the shell could not start: ${result.spawnError}]`;
  if (result.timedOut)
    return `[timed out after ${(input.timeout ?? BASH_LIMITS.defaultTimeoutMs) / 1000} s: the command and its child processes were killed]`;
  if (result.aborted) return '[interrupted: the command and its child processes were killed]';
  if (result.exitCode === null) return `[killed by ${result.killedBy ?? 'a signal'}]`;
  return result.exitCode === 0 ? null : `[exit code ${result.exitCode}]`;
}

function oneLine(text: string): string {
  const first = text.split('\n')[0] ?? '';
  return first.length > 80 ? `${first.slice(0, 77)}…` : first;
}

/** Turns output chunks into whole lines for progress events. */
function lineSplitter(emit: (line: string) => void): { push(chunk: string): void; flush(): void } {
  let partial = '';
  return {
    push: (chunk) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) emit(line);
    },
    flush: () => {
      if (partial !== '') emit(partial);
      partial = '';
    },
  };
}
