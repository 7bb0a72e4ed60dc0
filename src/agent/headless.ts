/**
 * One agent run without a person: the engine of `teamd agent -p`. Prints the
 * run in Claude Code's print-mode formats (`text`: the answer; `json`: the
 * result event; `stream-json`: every event, one JSON object per line, in
 * Claude Code's shapes: src/agent/print/types.ts) and says which exit code
 * the run deserves. With several prompts (`--input-format stream-json`) each
 * is one run of the same conversation, with its own result.
 */
import type { ContentBlock } from '../model/types.js';
import { ClaudeEventPrinter } from './print/claude-events.js';
import type { PrintOptions } from './print/types.js';
import { AgentRuntime } from './runtime.js';
import type { AgentRuntimeOptions } from './options.js';
import type { AgentEvent, ResultEvent } from './types.js';

export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface HeadlessOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface HeadlessSettings {
  format: OutputFormat;
  print?: Partial<PrintOptions>;
}

const DEFAULT_PRINT: PrintOptions = {
  includePartialMessages: false,
  permissionMode: 'acceptEdits',
  apiKeySource: 'none',
  mcpServers: [],
  agents: [],
};

/** What to print for one event in `format`, if anything (the result is printed by `printResult`). */
export function formatEvent(
  format: OutputFormat,
  event: AgentEvent,
  printer?: ClaudeEventPrinter,
): string | null {
  if (event.type === 'result') return null;
  // converted in every format: the printer keeps the last stop reason for the result
  const shaped = (printer ?? new ClaudeEventPrinter(DEFAULT_PRINT)).convert(event);
  if (format !== 'stream-json' || shaped.length === 0) return null;
  return shaped.map((e) => JSON.stringify(e) + '\n').join('');
}

export function printResult(
  format: OutputFormat,
  result: ResultEvent,
  out: HeadlessOutput,
  printer: ClaudeEventPrinter = new ClaudeEventPrinter(DEFAULT_PRINT),
): void {
  if (format !== 'text') out.stdout(JSON.stringify(printer.result(result)) + '\n');
  if (format === 'text' && result.result !== '') {
    out.stdout(result.result.endsWith('\n') ? result.result : `${result.result}\n`);
  }
  if (format !== 'stream-json' && result.is_error) {
    out.stderr(`teamd agent: ${result.subtype}${result.error ? `: ${result.error}` : ''}\n`);
  }
}

export const exitCodeOf = (result: ResultEvent): number =>
  result.subtype === 'success' && !result.is_error ? 0 : 1;

export interface HeadlessRun {
  /** The first failed run's result, else the last one's. */
  result: Promise<ResultEvent>;
  /** Stops the run (Ctrl-C); it still ends with a result. */
  interrupt(): void;
}

type Prompt = string | ContentBlock[];

async function* promptsOf(input: Prompt | AsyncIterable<Prompt>): AsyncGenerator<Prompt> {
  if (typeof input === 'string' || Array.isArray(input)) yield input;
  else yield* input;
}

/** Runs `input` (one prompt, or a stream of them), printing as it goes. */
export function runHeadless(
  input: Prompt | AsyncIterable<Prompt>,
  options: AgentRuntimeOptions,
  settings: OutputFormat | HeadlessSettings,
  out: HeadlessOutput,
): HeadlessRun {
  const { format, print } = typeof settings === 'string' ? { format: settings, print: {} } : settings;
  const printer = new ClaudeEventPrinter({ ...DEFAULT_PRINT, ...print });
  const runtime = new AgentRuntime(options);
  const result = (async () => {
    let worst: ResultEvent | null = null;
    try {
      for await (const prompt of promptsOf(input)) {
        const last = await runOnce(runtime, prompt, format, printer, out);
        if (worst === null || !worst.is_error) worst = last;
      }
    } finally {
      await runtime.close();
    }
    if (worst === null) throw new Error('teamd agent: no prompt was given');
    return worst;
  })();
  return { result, interrupt: () => runtime.interrupt() };
}

async function runOnce(
  runtime: AgentRuntime,
  prompt: Prompt,
  format: OutputFormat,
  printer: ClaudeEventPrinter,
  out: HeadlessOutput,
): Promise<ResultEvent> {
  let last: ResultEvent | null = null;
  printer.replay(prompt);
  for await (const event of runtime.submitMessage(prompt)) {
    const line = formatEvent(format, event, printer);
    if (line !== null) out.stdout(line);
    if (event.type === 'result') last = event;
  }
  // submitMessage always ends with a result; its absence is a bug in the runtime
  if (last === null) throw new Error('the agent run ended without a result event');
  printResult(format, last, out, printer);
  return last;
}
