/**
 * The converter from teamd's runtime events to Claude Code's print-mode
 * events (the mapping is in ./types.ts). Stateful per run: the result carries
 * the stop reason of the last model call.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { claudeToolInput, claudeToolResponse } from '../../hooks/tool-shapes.js';
import type { ContentBlock, ToolResultBlock, Usage } from '../../model/types.js';
import { claudeCodeToolName } from '../../tools/claude-names.js';
import type { AgentEvent, ResultEvent } from '../types.js';
import { claudeResult } from './claude-result.js';
import { RawStream } from './raw-stream.js';
import type { ClaudeEvent, PrintOptions } from './types.js';

type Of<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

const TEAMD_ONLY = new Set(['progress', 'tool_use_summary']);

export class ClaudeEventPrinter {
  private stopReason: string | null = null;
  private replaying: string | ContentBlock[] | null = null;
  /** The `system/init` printed, printed again (a new uuid) before each later run, as Claude Code does per stdin message. */
  private lastInit: ClaudeEvent | null = null;
  private initAgain = false;
  private cwd = process.cwd();
  private model = '';
  private readonly raw: RawStream;
  /** The calls of this run by id, so a result's `tool_use_result` takes its tool's shape. */
  private readonly calls = new Map<string, { name: string; input: unknown }>();

  constructor(private readonly options: PrintOptions) {
    const line = (event: AgentEvent, id: string, block: ContentBlock, usage: Usage) =>
      this.assistant(event, id, [block], usage);
    this.raw = new RawStream(() => this.model, line, options.includePartialMessages);
  }

  /**
   * A run is about to start: its prompt is printed back with its first event
   * (after `system/init`) when replaying; a later run's events start with
   * `system/init` again.
   */
  replay(prompt: string | ContentBlock[]): void {
    if (this.options.replayUserMessages === true) this.replaying = prompt;
    this.initAgain = this.lastInit !== null;
  }

  /** The Claude Code event(s) for one teamd event; none for events Claude Code has no counterpart for. */
  convert(event: AgentEvent): ClaudeEvent[] {
    if (event.type !== 'stream_event' && event.type !== 'assistant') this.raw.mark();
    const shaped = this.shape(event);
    if (this.initAgain && this.lastInit !== null && shaped.length > 0) {
      this.initAgain = false;
      return [{ ...this.lastInit, uuid: randomUUID() }, ...this.withReplay(event, shaped)];
    }
    return this.withReplay(event, shaped);
  }

  /** The prompt printed back before the run's first event (the init aside) when replaying. */
  private withReplay(event: AgentEvent, shaped: ClaudeEvent[]): ClaudeEvent[] {
    if (this.replaying === null || shaped.length === 0 || (event.type === 'system' && event.subtype === 'init'))
      return shaped;
    const replayed = {
      type: 'user',
      message: { role: 'user', content: this.replaying },
      session_id: event.session_id,
      parent_tool_use_id: null,
      uuid: randomUUID(),
      timestamp: new Date().toISOString(),
      isReplay: true,
    };
    this.replaying = null;
    return [replayed, ...shaped];
  }

  private shape(event: AgentEvent): ClaudeEvent[] {
    if (TEAMD_ONLY.has(event.type)) return [];
    switch (event.type) {
      case 'system':
        if (event.subtype === 'init') {
          this.lastInit = this.init(event);
          return [this.lastInit];
        }
        if (event.subtype !== 'api_retry') return [asIs(event)];
        this.raw.abandon(event);
        return [apiRetry(event)];
      case 'assistant':
        return this.withFrame(event);
      case 'user':
        return this.user(event);
      case 'stream_event': {
        // followed even when not printed: the per-block assistant events carry message_start's usage
        const lines = this.raw.delta(event);
        return this.options.includePartialMessages ? lines : [];
      }
      case 'result':
        return [this.result(event)];
      default:
        return [asIs(event)];
    }
  }

  result(event: ResultEvent): ClaudeEvent {
    this.raw.reset();
    return claudeResult(event, event.subtype === 'success' ? this.stopReason : null);
  }

  private init(event: Extract<Of<'system'>, { subtype: 'init' }>): ClaudeEvent {
    this.cwd = event.cwd;
    this.model = event.model;
    const tools = event.tools.map(claudeCodeToolName);
    const mcp_servers = this.options.mcpServers.map((name) => ({
      name,
      status: tools.some((t) => t.startsWith(`mcp__${name}__`)) ? 'connected' : 'failed',
    }));
    return {
      type: 'system',
      subtype: 'init',
      cwd: event.cwd,
      session_id: event.session_id,
      tools,
      mcp_servers,
      model: event.model,
      permissionMode: this.options.permissionMode,
      slash_commands: [],
      apiKeySource: this.options.apiKeySource,
      output_style: 'default',
      agents: this.options.agents,
      skills: [],
      plugins: [],
      uuid: event.uuid,
      original_cwd: event.cwd,
      additional_directories: [],
    };
  }

  /**
   * One `assistant` event per content block, as Claude Code prints them (the
   * blocks a streamed message's earlier boundaries printed left out), then
   * (when streamed) the last block's stop, `message_delta` and `message_stop`.
   */
  private withFrame(event: Of<'assistant'>): ClaudeEvent[] {
    this.stopReason = event.stop_reason ?? null;
    const open = this.raw.take(event);
    const blocks = typeof event.message.content === 'string' ? [] : event.message.content;
    for (const block of blocks)
      if (block.type === 'tool_use') this.calls.set(block.id, { name: block.name, input: block.input });
    const id = open?.id ?? `msg_${randomBytes(12).toString('hex')}`;
    const usage = open?.usage ?? event.usage;
    const rest = blocks.slice(open?.printed ?? 0);
    const lines =
      typeof event.message.content === 'string' || blocks.length === 0
        ? [this.assistant(event, id, event.message.content, usage)]
        : rest.map((block) => this.assistant(event, id, [block], usage));
    const shown = this.options.includePartialMessages && open !== undefined;
    return [...lines, ...(shown ? this.raw.finish(event, open) : [])];
  }

  /** Claude Code's `assistant` line: the API message with one block, no stop reason yet, the usage of `message_start`. */
  private assistant(event: AgentEvent, id: string, content: string | ContentBlock[], usage: Usage): ClaudeEvent {
    const message = {
      id,
      type: 'message',
      role: 'assistant',
      model: event.type === 'assistant' ? event.model : this.model,
      content: withClaudeNames(content),
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage },
      context_management: null,
    };
    return { type: 'assistant', message, ...common(event) };
  }

  private user(event: Of<'user'>): ClaudeEvent[] {
    const { content } = event.message;
    const results = typeof content === 'string' ? [] : content.filter((b) => b.type === 'tool_result');
    if (results.length === 0) return [];
    const first = results[0]!;
    const tool_use_result = toolUseResult(first, this.calls.get(first.tool_use_id), this.cwd);
    return [{ type: 'user', message: event.message, ...common(event), tool_use_result }];
  }
}

/**
 * `tool_use_result` as Claude Code prints it: the tool's own object (the
 * shape PostToolUse hooks get as `tool_response`), an MCP tool's content
 * blocks, `Error: …` text for a failed call.
 */
function toolUseResult(result: ToolResultBlock, call: { name: string; input: unknown } | undefined, cwd: string): unknown {
  const text =
    typeof result.content === 'string'
      ? result.content
      : result.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
  if (result.is_error === true) return text.startsWith('Error') ? text : `Error: ${text}`;
  if (call === undefined) return result.content;
  if (claudeCodeToolName(call.name).startsWith('mcp__') && typeof result.content !== 'string') return result.content;
  const input = claudeToolInput(call.input, cwd);
  return claudeToolResponse({
    tool: call.name,
    input: typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {},
    content: text,
    isError: false,
  });
}

/** Claude Code's field set: teamd's `parent_id` and `depth` left out. */
function apiRetry(event: Extract<Of<'system'>, { subtype: 'api_retry' }>): ClaudeEvent {
  const { parent_id: _p, depth: _d, ...fields } = event;
  return fields;
}

/** teamd's own events, printed as they are. */
const asIs = (event: AgentEvent): ClaudeEvent => ({ ...event });

/** A subagent's events name the tool_use that started it; the top level has null. */
const common = (event: AgentEvent) => ({
  parent_tool_use_id: event.depth > 0 ? event.parent_id : null,
  session_id: event.session_id,
  uuid: event.uuid,
  timestamp: new Date().toISOString(),
});

/** tool_use blocks name the tools as `system/init` lists them (Claude Code's names); the API saw teamd's. */
const withClaudeNames = (content: string | ContentBlock[]) =>
  typeof content === 'string'
    ? content
    : content.map((b) => (b.type === 'tool_use' ? { ...b, name: claudeCodeToolName(b.name) } : b));
