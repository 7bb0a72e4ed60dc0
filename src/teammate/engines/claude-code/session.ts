/**
 * A teammate's session on the Claude Code CLI. One process per session, fed
 * user turns on stdin; a turn ends with the first `result` after every
 * message written for it has been taken in (echoed back as a replay). Mail
 * written mid-turn is taken in at the CLI's next step — then the same result
 * ends the turn — or after it, and then the next result does.
 * Every stdout line goes to the transcript (results in teamd's shape), and
 * messages and results go to the teammate's `onEvent` as its own runtime's do.
 */
import { randomUUID } from 'node:crypto';
import type { AgentEvent, ResultEvent } from '../../../agent/types.js';
import { TranscriptWriter, type TranscriptOpener } from '../../../agent/transcript.js';
import { EngineCrash, type EngineSession } from '../types.js';
import { ClaudeProcess } from './process.js';
import { mapResult } from './result.js';
import { userMessageLine } from './stdin.js';
import { parseLine } from './stream.js';
import { CcResultSchema, CcUsageSchema, type CcLine, type CcMessage } from './types.js';

export interface SessionOptions {
  bin: string;
  /** The arguments, without `--session-id` / `--resume` (the session adds them). */
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  agent: string;
  model: string;
  parentId: string;
  transcriptDir: string;
  /** Out of the lead's process: the lead writes the transcript (hosts/transcript-client.ts). */
  openTranscript?: TranscriptOpener;
  onEvent: (e: AgentEvent) => void;
  /** A note for the event log (a process started, a line that was not an event). */
  notice: (message: string) => void;
}

interface Turn {
  resolve: (r: ResultEvent | null) => void;
  reject: (e: Error) => void;
}

const MAX_JUNK_NOTES = 5;

/**
 * A message line as teamd's event: the CLI's fields kept, plus what teamd's
 * readers look for — an assistant line's `model` and `usage` at the top (the
 * token ledger, `teamd logs`), `parent_id`, and `depth` 1 inside a subagent.
 */
function asTeamdEvent(event: CcMessage, raw: Record<string, unknown>, model: string, parentId: string): AgentEvent {
  const depth = event.parent_tool_use_id ? 1 : 0;
  if (event.type !== 'assistant') return { ...raw, parent_id: parentId, depth } as unknown as AgentEvent;
  const usage = CcUsageSchema.safeParse(event.message['usage']);
  const u = usage.success ? usage.data : { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  const named = event.message['model'];
  return {
    ...raw,
    model: typeof named === 'string' ? named : model,
    usage: { input_tokens: u.input_tokens, output_tokens: u.output_tokens, cache_read_input_tokens: u.cache_read_input_tokens, cache_creation_input_tokens: u.cache_creation_input_tokens },
    parent_id: parentId,
    depth,
  } as unknown as AgentEvent;
}

export class ClaudeCodeSession implements EngineSession {
  readonly runtime = null;
  readonly sessionId = randomUUID();
  private proc: ClaudeProcess | null = null;
  private started = false;
  private turn: Turn | null = null;
  private written = 0;
  private replayed = 0;
  private costSoFar = 0;
  private stopping = false;
  private junk = 0;
  /** Mail queued while no turn runs: it goes in with the next turn. */
  private queued: string[] = [];
  private readonly transcript: TranscriptWriter | null;

  constructor(private readonly o: SessionOptions) {
    const opened = (o.openTranscript ?? TranscriptWriter.open)(o.transcriptDir, { session_id: this.sessionId, agent: o.agent, model: o.model, cwd: o.cwd, created: new Date().toISOString() });
    this.transcript = opened.ok ? opened.value : null;
    if (!opened.ok) o.notice(`claude-code: ${opened.error}`);
  }

  submit(text: string): Promise<ResultEvent | null> {
    if (this.stopping) return Promise.resolve(null);
    if (this.turn) return Promise.reject(new Error('claude-code session: a turn is already running'));
    const proc = this.proc ?? this.spawn();
    return new Promise((resolve, reject) => {
      this.turn = { resolve, reject };
      for (const t of [...this.queued.splice(0), text]) this.write(proc, t);
    });
  }

  enqueue(text: string): void {
    if (this.turn && this.proc) this.write(this.proc, text);
    else this.queued.push(text);
  }

  interrupt(): void {
    this.stopping = true;
    this.proc?.kill();
  }

  async close(): Promise<void> {
    const proc = this.proc;
    if (proc) {
      proc.endInput();
      const timer = setTimeout(() => proc.kill(), 5000);
      this.stopping = true;
      await proc.exit;
      clearTimeout(timer);
    }
    this.transcript?.close();
  }

  private spawn(): ClaudeProcess {
    const session = this.started ? ['--resume', this.sessionId] : ['--session-id', this.sessionId];
    this.started = true;
    const proc = new ClaudeProcess(this.o.bin, [...this.o.args, ...session], { cwd: this.o.cwd, env: this.o.env }, {
      onLine: (line) => this.onLine(parseLine(line)),
      onTooLong: (bytes) => this.onLine({ kind: 'junk', problem: `a line of ${bytes} bytes (dropped)` }),
      onExit: (how) => this.onExit(proc, how),
    });
    this.proc = proc;
    this.o.notice(`claude-code: pid ${proc.pid ?? '?'} started (session ${this.sessionId}) in ${this.o.cwd}`);
    return proc;
  }

  private write(proc: ClaudeProcess, text: string): void {
    this.written += 1;
    proc.write(userMessageLine(text));
  }

  private onLine(line: CcLine): void {
    if (line.kind === 'junk') return this.noteJunk(line.problem);
    if (line.kind === 'result') return this.onResult(line.event, line.raw);
    if (line.kind !== 'message') return this.transcript?.write(line.raw as unknown as AgentEvent);
    const event = asTeamdEvent(line.event, line.raw, this.o.model, this.o.parentId);
    this.transcript?.write(event);
    if (line.event.type === 'user' && line.event.isReplay) this.replayed += 1;
    this.o.onEvent(event);
  }

  private onResult(event: Parameters<typeof mapResult>[0], raw: Record<string, unknown>): void {
    const result = mapResult(event, { sessionId: this.sessionId, model: this.o.model, parentId: this.o.parentId, costBefore: this.costSoFar });
    this.costSoFar = Math.max(this.costSoFar, event.total_cost_usd);
    this.transcript?.write({ ...result, claude_code: { subtype: raw['subtype'], total_cost_usd: event.total_cost_usd } } as unknown as AgentEvent);
    this.o.onEvent(result);
    if (this.turn && this.replayed >= this.written) this.endTurn((t) => t.resolve(result));
  }

  private onExit(proc: ClaudeProcess, how: string): void {
    if (this.proc === proc) this.proc = null;
    this.written = this.replayed = 0;
    if (!this.turn) return;
    if (this.stopping) return this.endTurn((t) => t.resolve(null));
    // A program that cannot start is a setting to fix, not a crash to restart from: the task fails saying so.
    if (proc.spawnError !== null) return this.endTurn((t) => t.resolve(this.cannotStart(proc.spawnError!)));
    this.o.notice(`claude-code: the process died mid-turn (${how})`);
    this.endTurn((t) => t.reject(new EngineCrash('claude-code', how)));
  }

  private cannotStart(error: string): ResultEvent {
    const cc = CcResultSchema.parse({ type: 'result', subtype: 'error_during_execution', is_error: true, errors: [`cannot start ${this.o.bin} (claudeCode.bin, TEAMD_CLAUDE_BIN, or claude on PATH): ${error}`] });
    return mapResult(cc, { sessionId: this.sessionId, model: this.o.model, parentId: this.o.parentId, costBefore: this.costSoFar });
  }

  private endTurn(settle: (t: Turn) => void): void {
    const turn = this.turn!;
    this.turn = null;
    settle(turn);
  }

  private noteJunk(problem: string): void {
    this.junk += 1;
    if (this.junk <= MAX_JUNK_NOTES) this.o.notice(`claude-code: stdout line ignored: ${problem}${this.junk === MAX_JUNK_NOTES ? ' (no more of these notes)' : ''}`);
  }
}
