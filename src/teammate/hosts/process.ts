/**
 * The `process` host: the teammate in a child process (`stdio-main`), the
 * protocol as JSON lines on its stdin and stdout, its stderr copied to the
 * lead's stderr (the daemon log) line by line under the teammate's name.
 *
 * The child gets the lead's environment without keys and tokens (SECRET_ENV):
 * its model calls go through the lead. It leads its own process group, so
 * `terminate` ends it and anything it started that stayed in the group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { modulePath, packageRoot } from '../../config/package-root.js';
import { terminalSafeLine } from '../../observe/terminal-safe.js';
import { messageProblem, readJsonLines, writeJsonLine } from './json-lines.js';
import { SECRET_ENV, type StartedTeammate, type TeammateChannel, type TeammateHost } from './types.js';
import { FromWorkerSchema, type ToWorker, type WorkerData } from '../types.js';

/** A command line: what to run and its arguments. */
export interface Command {
  file: string;
  args: string[];
}

/** The lead's environment without its secrets, for a teammate out of its process. */
export function teammateEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !SECRET_ENV.test(key)));
}

/**
 * The teammate's child process: from source, `node --import tsx stdio-main.ts`;
 * built, `node dist/cli/main.js teammate --stdio` — the CLI's own bundled
 * entry, also when this code runs from a bundle chunk of dist/cli/.
 */
export function stdioTeammateCommand(from = modulePath(import.meta.url)): Command {
  const root = packageRoot(from);
  if (!from.endsWith('.ts')) return { file: process.execPath, args: [join(root, 'dist', 'cli', 'main.js'), 'teammate', '--stdio'] };
  const entry = join(root, 'src', 'teammate', 'hosts', 'stdio-main.ts');
  return { file: process.execPath, args: ['--import', import.meta.resolve('tsx'), entry] };
}

export interface ProcessHostOptions {
  /**
   * The environment of the command started (default: `teammateEnv()`). A
   * host whose command is not the teammate itself (ssh, which needs the
   * agent's SSH_AUTH_SOCK) passes its own, and keeps the secrets from the far side.
   */
  env?: NodeJS.ProcessEnv;
}

export class ProcessHost implements TeammateHost {
  readonly kind = 'process' as const;
  constructor(
    private readonly command: (data: WorkerData) => Command = () => stdioTeammateCommand(),
    private readonly options: ProcessHostOptions = {},
  ) {}

  start(data: WorkerData): StartedTeammate {
    data = { ...data, writesViaLead: true };
    const { file, args } = this.command(data);
    const env = this.options.env ?? teammateEnv();
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], env, detached: true, cwd: data.repoRoot });
    return { channel: new ChildChannel(child, data), kind: this.kind, writesViaLead: true, sharesProcessGroups: true };
  }
}

/** One child process as a `TeammateChannel`. */
export class ChildChannel extends EventEmitter implements TeammateChannel {
  private readonly exited: Promise<void>;

  constructor(
    private readonly child: ChildProcess,
    data: WorkerData,
  ) {
    super();
    this.exited = new Promise((resolve) => child.once('close', () => resolve()));
    child.once('error', (error) => this.emit('error', error));
    child.once('close', (code, signal) => this.emit('exit', code ?? (signal ? 128 : 1)));
    child.stdin!.on('error', () => undefined); // a closed pipe: the exit tells the rest
    readJsonLines(child.stdout!, {
      value: (value, line) => {
        const problem = messageProblem(FromWorkerSchema, value, line);
        if (problem === undefined) this.emit('message', value);
        else this.broke(`the teammate's stdout: ${problem}`);
      },
      broken: (reason) => this.broke(`the teammate's stdout: ${reason}`),
    });
    copyLines(child.stderr!, `[${data.teammate.name}] `);
    writeJsonLine(child.stdin!, data);
  }

  postMessage(message: ToWorker): void {
    writeJsonLine(this.child.stdin!, message);
  }

  async terminate(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) killGroup(this.child);
    await this.exited;
  }

  private broke(reason: string): void {
    this.emit('error', new Error(reason));
    killGroup(this.child);
  }
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/**
 * Copies a stream to the lead's stderr, each line under `prefix` and
 * terminal-safe: the teammate's bash and model choose what it prints, and the
 * lead's stderr may be the user's terminal (`teamd start --foreground`).
 */
function copyLines(stream: NodeJS.ReadableStream, prefix: string): void {
  let rest = '';
  const copy = (line: string): void => void process.stderr.write(prefix + terminalSafeLine(line) + '\n');
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!.slice(-64 * 1024);
    for (const line of lines) copy(line);
  });
  stream.on('end', () => rest && copy(rest));
}
