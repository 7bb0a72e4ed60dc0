/**
 * `AgentRuntime`: one agent's conversation and the runs that extend it. A run
 * (`submitMessage`) is an async generator of events ending in one `result`;
 * `interrupt()` aborts it, leaving a history the API accepts; `enqueue()`
 * feeds input in at the next tool-result boundary.
 */
import { randomUUID } from 'node:crypto';
import type { ContentBlock, ConversationMessage, Usage } from '../model/types.js';
import { builtinTools, createFileStateTracker, createToolContext } from '../tools/index.js';
import { closeSessionTasks, setTaskNotifier } from '../tools/session-tasks.js';
import type { AnyTool, ToolContext } from '../tools/types.js';
import { projectRoots } from './context/git.js';
import { ContextManager } from './context/manager.js';
import { DEFAULT_CONTEXT_OPTIONS, resolveContextOptions } from './context/options.js';
import { loadRuntimeExtras, memoryDirOf, type RuntimeExtras } from './context/runtime-extensions.js';
import type { ProjectRoots } from './context/types.js';
import { memoryIndexFile } from './memory/store.js';
import { TASK_TOOL_NAME } from './subagents/types.js';
import { Conversation } from './conversation.js';
import { eventStamper, type StampEvent } from './events.js';
import { InputQueue, type QueuedInput } from './input-queue.js';
import { runLoop } from './loop.js';
import { parseRuntimeOptions, type AgentRuntimeOptions, type ResolvedRuntimeOptions } from './options.js';
import { buildRunContext } from './run-context.js';
import { RunStats } from './run-stats.js';
import { loadTranscript, sanitizeSessionName, TranscriptWriter } from './transcript.js';
import { hookSession, type HookSession } from '../hooks/session.js';
import { asyncReminder } from '../hooks/async-output.js';
import type { HookMcpAnswer, HookMcpCall } from '../hooks/types.js';
import { ClaudeTranscript } from './claude-transcript.js';
import type { AgentEvent, ResultEvent } from './types.js';

const MISUSE = 'AgentRuntime.submitMessage';

export class AgentRuntime {
  readonly sessionId: string;
  private conversation = new Conversation();
  private readonly queue = new InputQueue();
  private tools: AnyTool[];
  private readonly toolContext: Omit<ToolContext, 'signal' | 'onProgress'>;
  private readonly context: ContextManager;
  private rootsFound: Promise<ProjectRoots> | null = null;
  private extras: Promise<RuntimeExtras> | null = null;
  private notices: string[] = [];
  private readonly stamp: StampEvent;
  private active: AbortController | null = null;
  /** The stats of the run in progress (subagents add their spending to it). */
  private stats: RunStats | null = null;
  private readonly spentBetweenRuns: [string, Usage][] = [];
  private prepared: Promise<string | null> | null = null;
  private initSent = false;
  private transcript: TranscriptWriter | null = null;
  /** The Claude-Code-shaped transcript hooks read; written only when hooks are configured. */
  private hookTranscript: ClaudeTranscript | null = null;
  private closed = false;

  private readonly options: ResolvedRuntimeOptions;

  /** Throws an `OptionsError` (a TypeError naming the option and what it accepts) for a bad option. */
  constructor(input: AgentRuntimeOptions) {
    const options = parseRuntimeOptions(input);
    this.options = options;
    // Background hooks' output joins the conversation at the next boundary (Claude Code: the next turn).
    // An asyncRewake result keeps its output in `meta.rewake`: one no run took can be handed on (`takeQueued`).
    options.hooks?.onAsyncOutput?.((output) =>
      this.queue.add({ text: asyncReminder(output), meta: { hook: output.event, ...(output.rewake ? { rewake: output } : {}) } }),
    );
    const forked = options.forkSession === true && options.resume !== undefined;
    const name = sanitizeSessionName(forked ? (options.sessionId ?? randomUUID()) : (options.resume ?? options.sessionId ?? randomUUID()));
    this.sessionId = name.ok ? name.value : randomUUID();
    if (!name.ok) this.prepared = Promise.resolve(name.error);
    // a subagent never gets the task tool: subagents cannot start subagents
    const given = options.tools ?? builtinTools();
    this.tools = (options.depth ?? 0) > 0 ? given.filter((t) => t.name !== TASK_TOOL_NAME) : [...given];
    const session = new Map<string, unknown>();
    setTaskNotifier(session, (n) =>
      this.queue.add({ text: n.text, meta: { kind: 'task_notification', task_id: n.taskId } }),
    );
    const {
      signal: _s,
      onProgress: _p,
      ...context
    } = createToolContext({
      root: options.cwd,
      ...extraRootsOf(options),
      agentName: this.agentName,
      fileState: createFileStateTracker(),
      services: options.services ?? {},
      session,
    });
    this.toolContext = context;
    // the model's window (models.ts) unless the caller set one; 200k for clients that do not say
    const window = options.model.contextWindow;
    const contextOptions = resolveContextOptions({ ...(window ? { windowTokens: window } : {}), ...options.context });
    if (!contextOptions.ok) this.prepared ??= Promise.resolve(contextOptions.error);
    this.context = new ContextManager({
      options: contextOptions.ok ? contextOptions.value : DEFAULT_CONTEXT_OPTIONS,
      identity: { agentName: this.agentName, ...(options.role === undefined ? {} : { role: options.role }) },
      cwd: context.root,
      ...(context.extraRoots === undefined ? {} : { additionalDirectories: context.extraRoots }),
      sessionId: this.sessionId,
      roots: () => this.roots(),
      ...(options.memory === undefined
        ? {}
        : { memoryIndexFile: async () => memoryIndexFile(memoryDirOf(options, await this.roots())) }),
    });
    this.stamp = eventStamper({
      session_id: this.sessionId,
      parent_id: options.parentId ?? null,
      depth: options.depth ?? 0,
    });
  }

  /** The conversation so far (what the next model call will be sent). */
  get messages(): readonly ConversationMessage[] {
    return this.conversation.messages;
  }

  /** `session_id` and `transcript_path` as hooks (and agent -p's `system/init`) see them. */
  get hookSession(): HookSession {
    return hookSession({
      sessionId: this.sessionId,
      ...(this.options.transcriptDir === undefined ? {} : { transcriptDir: this.options.transcriptDir }),
    });
  }

  get isRunning(): boolean {
    return this.active !== null;
  }

  private get agentName(): string {
    return this.options.agentName ?? 'agent';
  }

  /** Input for the agent: joins the running conversation at the next tool-result boundary, or waits for the next run. */
  enqueue(message: string | QueuedInput): void {
    this.queue.add(message);
  }

  /** Queued input no run has taken yet that `select` picks, removed (a teammate hands an ended session's hook results on). */
  takeQueued(select: (input: QueuedInput) => boolean): QueuedInput[] {
    return this.queue.take(select);
  }

  /** Aborts the current run (model call and every tool); the run still ends with a `result` (`aborted`). */
  interrupt(): void {
    this.active?.abort(new Error('interrupted'));
  }

  /**
   * No more runs. A run in progress is interrupted and still ends with its
   * `result` for whoever reads it (close never waits for that reader).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.interrupt();
    if (this.initSent) await this.sessionEnd();
    if (!this.active) this.closeTranscripts();
    // background shells and subagents, then the MCP servers they might still be using
    await closeSessionTasks(this.toolContext.session);
    await (await this.extras?.catch(() => null))?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** One run: the events of the agent's work on `input`, ending with exactly one `result`. */
  async *submitMessage(input: string | ContentBlock[]): AsyncGenerator<AgentEvent, void> {
    if (this.closed) throw new Error(`${MISUSE}: the runtime is closed`);
    if (this.active) throw new Error(`${MISUSE}: a run is in progress (interrupt() it or wait)`);
    const controller = new AbortController();
    this.active = controller;
    const stats = new RunStats(this.options.prices);
    this.stats = stats;
    for (const [model, usage] of this.spentBetweenRuns.splice(0)) stats.addUsage(model, usage);
    let resultSent = false;
    try {
      const problem = await (this.prepared ??= this.prepare());
      const events = problem === null ? this.events(controller, stats, input) : this.failure(stats, problem);
      for await (const event of events) {
        resultSent ||= event.type === 'result';
        yield this.publish(event);
      }
    } catch (error) {
      // a bug below the loop: the run still ends with its one result
      const body = stats.result('error_during_execution', '', `internal error: ${String(error)}`);
      if (!resultSent) yield this.publish(this.stamp(body));
    } finally {
      this.active = null;
      this.stats = null;
      if (this.closed) this.closeTranscripts();
    }
  }

  private closeTranscripts(): void {
    this.transcript?.close();
    this.hookTranscript?.close();
  }

  /** SessionEnd hooks (they cannot block); `other` is Claude Code's reason for a headless session's end. */
  private async sessionEnd(): Promise<void> {
    const hooks = this.options.hooks;
    if (hooks === undefined || !hooks.has('SessionEnd')) return;
    const { session_id, transcript_path } = this.hookSession;
    await hooks.run('SessionEnd', { session_id, transcript_path, reason: 'other' }, { matchValue: 'other' });
  }

  /**
   * A subagent's spending (its `result`'s usage per model) belongs to this
   * agent's run: the run that is going, else the next one (a background
   * subagent may end between runs). So budgets and `teamd cost` see it.
   */
  private addSubagentSpending(result: ResultEvent): void {
    for (const [model, usage] of Object.entries(result.usage)) {
      if (this.stats) this.stats.addUsage(model, usage);
      else this.spentBetweenRuns.push([model, usage]);
    }
  }

  private async *events(controller: AbortController, stats: RunStats, input: string | ContentBlock[]) {
    const first = !this.initSent;
    if (!this.initSent) {
      this.initSent = true;
      yield this.stamp({
        type: 'system',
        subtype: 'init',
        model: this.options.model.model,
        tools: this.tools.filter((t) => t.unlisted !== true).map((t) => t.name),
        cwd: this.toolContext.root,
        agent: this.agentName,
      });
      for (const message of this.notices.splice(0))
        yield this.stamp({ type: 'system', subtype: 'notice', message });
    }
    yield* runLoop(
      buildRunContext({
        options: this.options,
        conversation: this.conversation,
        queue: this.queue,
        stamp: this.stamp,
        tools: this.tools,
        toolContext: this.toolContext,
        sessionId: this.sessionId,
        transcriptPath: this.hookSession.transcript_path,
        sessionSource: first ? (this.options.resume === undefined ? 'startup' : 'resume') : null,
        controller,
        stats,
        context: this.context,
      }),
      input,
    );
  }

  private async *failure(stats: RunStats, problem: string) {
    yield this.stamp(stats.result('error_during_execution', '', problem));
  }

  /** Where the repository is, found once. */
  private roots(): Promise<ProjectRoots> {
    return (this.rootsFound ??= projectRoots(this.toolContext.root));
  }

  /** Adds the tools the options ask for (memory, MCP, task); their problems become notices. */
  private async extend(): Promise<void> {
    this.extras = loadRuntimeExtras({
      options: this.options,
      roots: await this.roots(),
      sessionId: this.sessionId,
      session: this.toolContext.session,
      tools: () => this.tools,
      createRuntime: (options) => new AgentRuntime(options),
      addSubagentSpending: (result) => this.addSubagentSpending(result),
    });
    const extras = await this.extras;
    const taken = new Set(this.tools.map((t) => t.name));
    for (const tool of extras.tools) {
      if (taken.has(tool.name))
        this.notices.push(`tool ${tool.name} is already defined: the added one is left out`);
      else this.tools.push(tool);
    }
    this.notices.push(...extras.notices);
    // mcp_tool hooks call this session's MCP tools; a subagent shares its parent's runner and leaves it be
    if ((this.options.depth ?? 0) === 0) this.options.hooks?.useMcpTools?.((call) => this.callMcpForHook(call));
  }

  /** One MCP tool call for an `mcp_tool` hook, outside the model's turn (no permission gate: the user configured the hook). */
  private async callMcpForHook(call: HookMcpCall): Promise<HookMcpAnswer> {
    const name = `mcp__${call.server}__${call.tool}`;
    const tool = this.tools.find((t) => t.name === name);
    if (tool === undefined) throw new Error(`no MCP tool ${name} is connected`);
    const input = tool.inputSchema.safeParse(call.input);
    if (!input.success) return { text: `the hook's input does not fit ${name}: ${input.error.message}`, isError: true };
    const out = await tool.run(input.data, { ...this.toolContext, signal: call.signal, onProgress: () => undefined });
    return { text: out.content, isError: out.isError === true };
  }

  /**
   * Starts what the first model call waits for, beside the git processes of
   * the start: the model client's modules, and the session context's git
   * status when nothing can change the tree before it is read (a new session
   * with no SessionStart hooks and no MCP servers to start first).
   */
  private warmUp(): void {
    void this.options.model.warm?.();
    const fresh = this.options.resume === undefined && this.options.mcp === undefined;
    if (fresh && this.options.hooks?.has('SessionStart') !== true) this.context.prefetch();
  }

  /** Loads a resumed conversation, opens the transcript, adds the optional tools; an error text when one fails. */
  private async prepare(): Promise<string | null> {
    this.warmUp();
    await this.extend();
    this.openHookTranscript();
    const dir = this.options.transcriptDir;
    if (this.options.resume !== undefined) {
      if (dir === undefined) return 'resume needs a transcriptDir';
      const from = sanitizeSessionName(this.options.resume);
      if (!from.ok) return from.error;
      const loaded = await loadTranscript(dir, from.value);
      if (!loaded.ok) return loaded.error;
      this.conversation = new Conversation(loaded.value.messages);
    }
    if (dir === undefined) return null;
    const header = {
      session_id: this.sessionId,
      agent: this.agentName,
      model: this.options.model.model,
      cwd: this.toolContext.root,
      created: new Date().toISOString(),
    };
    const writer = (this.options.openTranscript ?? TranscriptWriter.open)(dir, header);
    if (!writer.ok) return writer.error;
    this.transcript = writer.value;
    if (this.options.forkSession === true && this.options.resume !== undefined)
      writer.value.seed(this.conversation.messages, this.options.resume);
    return null;
  }

  private openHookTranscript(): void {
    const hooks = this.options.hooks;
    if (hooks === undefined || Object.keys(hooks.settings).length === 0) return;
    const opened = ClaudeTranscript.open(this.hookSession.transcript_path, {
      sessionId: this.options.parentHookSession?.session_id ?? this.sessionId,
      cwd: this.toolContext.root,
      sidechain: (this.options.depth ?? 0) > 0,
    });
    if (typeof opened === 'string') this.notices.push(opened);
    else this.hookTranscript = opened;
  }

  private publish(event: AgentEvent): AgentEvent {
    this.transcript?.write(event);
    this.hookTranscript?.write(event);
    try {
      this.options.onEvent?.(event);
    } catch {
      // an observer's bug must not end the agent's run
    }
    return event;
  }
}

/** The directories beyond `cwd` the tools may reach: the option, else the policy's (Claude Code's settings key). */
function extraRootsOf(options: AgentRuntimeOptions): { extraRoots?: readonly string[] } {
  const dirs = options.additionalDirectories ?? options.permissionPolicy?.additionalDirectories;
  return dirs === undefined ? {} : { extraRoots: dirs };
}
