/**
 * One runtime's context: it writes the session context, trims oversized tool
 * results, measures the conversation against the window and compacts it.
 * The loop calls it through the steps in steps.ts.
 */
import type {
  ContentBlock,
  ConversationMessage,
  ModelClient,
  ToolDefinition,
  ToolResultBlock,
  Usage,
} from '../../model/types.js';
import { compactHistory, type CompactResult } from './compact.js';
import { gitStatusSummary } from './git.js';
import { gatherSessionFacts, renderSessionContext } from './session-context.js';
import { summariseHistory, type SummaryAnswer } from './summarise.js';
import { ContextMeter, estimateRequest } from './tokens.js';
import { toolOutputDir, trimToolResults } from './tool-output.js';
import type { CompactTrigger, ContextOptions, Identity, ProjectRoots } from './types.js';

export interface ContextManagerConfig {
  options: ContextOptions;
  identity: Identity;
  cwd: string;
  /** The added directories (`--add-dir`), named in the session context. */
  additionalDirectories?: readonly string[];
  sessionId: string;
  /** Where the agent's repository is (resolved once, shared with the runtime). */
  roots: () => Promise<ProjectRoots>;
  /** `.memory/MEMORY.md`, when memory is on. */
  memoryIndexFile?: () => Promise<string | undefined>;
  now?: () => Date;
}

/** What a compaction's summarising call needs from the run. */
export interface CompactEnv {
  model: ModelClient;
  agent: string;
  system: string;
  tools: readonly ToolDefinition[];
  signal: AbortSignal;
  /** Told about the summarising call's usage (cost). */
  onSummary: (answer: SummaryAnswer) => void;
  /** Called once before the summarising call (PreCompact hooks). */
  beforeSummary?: () => Promise<void>;
}

export class ContextManager {
  private readonly meter = new ContextMeter();

  constructor(private readonly config: ContextManagerConfig) {}

  get options(): ContextOptions {
    return this.config.options;
  }

  /** The `<session_context>` text, freshly gathered. */
  async sessionContext(): Promise<string> {
    const roots = await this.config.roots();
    const memoryIndexFile = await this.config.memoryIndexFile?.();
    const facts = await gatherSessionFacts({
      identity: this.config.identity,
      cwd: this.config.cwd,
      additionalDirectories: this.config.additionalDirectories ?? [],
      roots,
      options: this.config.options,
      ...(memoryIndexFile === undefined ? {} : { memoryIndexFile }),
      ...(this.config.now === undefined ? {} : { now: this.config.now }),
    });
    return renderSessionContext(facts);
  }

  /**
   * Asks git for the status now, for the session context read later (it is
   * reused for a few seconds: git.ts), so that it runs beside the other git
   * process of a start (the repository's roots) instead of after it.
   */
  prefetch(): void {
    if (this.options.inject) void gitStatusSummary(this.config.cwd);
  }

  /** Blocks to put before the prompt: the session context when the conversation is new (and injection is on). */
  async preamble(messages: readonly ConversationMessage[]): Promise<ContentBlock[]> {
    if (messages.length > 0 || !this.options.inject) return [];
    return [{ type: 'text', text: await this.sessionContext() }];
  }

  observe(usage: Usage, messages: readonly ConversationMessage[]): void {
    this.meter.observe(usage, messages);
  }

  async trimResults(results: ToolResultBlock[]): Promise<ToolResultBlock[]> {
    const roots = await this.config.roots();
    return trimToolResults(results, {
      maxChars: this.options.toolResultMaxChars,
      saveDir: toolOutputDir(roots.state),
      prefix: this.config.sessionId,
    });
  }

  /** Compacts when the context is over a threshold (or unconditionally after `prompt_too_long`); null when nothing changed. */
  async compact(
    messages: readonly ConversationMessage[],
    env: CompactEnv,
    trigger: CompactTrigger,
  ): Promise<CompactResult | null> {
    // the last call's usage describes `messages` only; a rewritten candidate is estimated afresh
    const measure = (list: readonly ConversationMessage[]): number => {
      const request = { system: env.system, tools: env.tools, messages: list };
      return list === messages ? this.meter.measure(request) : estimateRequest(request);
    };
    const result = await compactHistory({
      messages,
      options: this.options,
      trigger,
      measure,
      summarise: (older, previous) => this.summarise(older, previous, env),
      sessionContext: async () => (this.options.inject ? this.sessionContext() : null),
    });
    if (result !== null) this.meter.reset();
    return result;
  }

  private async summarise(
    older: readonly ConversationMessage[],
    previous: string | null,
    env: CompactEnv,
  ): Promise<string | null> {
    if (env.signal.aborted) return null;
    await env.beforeSummary?.();
    const answer = await summariseHistory(older, previous, {
      model: env.model,
      agent: env.agent,
      signal: env.signal,
      maxTokens: this.options.summaryMaxTokens,
      // the summary request itself must fit: half the window, at about four characters a token
      maxInputChars: this.options.windowTokens * 2,
    });
    env.onSummary(answer);
    return answer.text;
  }
}
