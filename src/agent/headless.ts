/**
 * One agent run without a person: the engine of `teamd agent -p`. Prints the
 * run in Claude Code's print-mode formats (`text`: the answer; `json`: the
 * result event; `stream-json`: every event, one JSON object per line) and
 * says which exit code the run deserves.
 */
import { AgentRuntime } from './runtime.js';
import type { AgentRuntimeOptions } from './options.js';
import type { AgentEvent, ResultEvent } from './types.js';

export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface HeadlessOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** What to print for one event in `format`, if anything (the result is printed by `printResult`). */
export function formatEvent(format: OutputFormat, event: AgentEvent): string | null {
  return format === 'stream-json' ? JSON.stringify(event) + '\n' : null;
}

export function printResult(format: OutputFormat, result: ResultEvent, out: HeadlessOutput): void {
  if (format === 'json') out.stdout(JSON.stringify(result) + '\n');
  if (format === 'text' && result.result !== '') {
    out.stdout(result.result.endsWith('\n') ? result.result : `${result.result}\n`);
  }
  if (format !== 'stream-json' && result.is_error) {
    out.stderr(`teamd agent: ${result.subtype}${result.error ? `: ${result.error}` : ''}\n`);
  }
}

export const exitCodeOf = (result: ResultEvent): number => (result.subtype === 'success' ? 0 : 1);

export interface HeadlessRun {
  result: Promise<ResultEvent>;
  /** Stops the run (Ctrl-C); it still ends with a result. */
  interrupt(): void;
}

/** Runs `prompt` once, printing as it goes. */
export function runHeadless(
  prompt: string,
  options: AgentRuntimeOptions,
  format: OutputFormat,
  out: HeadlessOutput,
): HeadlessRun {
  const runtime = new AgentRuntime(options);
  const result = (async () => {
    let last: ResultEvent | null = null;
    try {
      for await (const event of runtime.submitMessage(prompt)) {
        const line = formatEvent(format, event);
        if (line !== null) out.stdout(line);
        if (event.type === 'result') last = event;
      }
    } finally {
      await runtime.close();
    }
    // submitMessage always ends with a result; its absence is a bug in the runtime
    if (last === null) throw new Error('the agent run ended without a result event');
    printResult(format, last, out);
    return last;
  })();
  return { result, interrupt: () => runtime.interrupt() };
}
