/**
 * `runAgent`: one prompt, one fresh runtime, the final result: for callers
 * that want only the answer (scripts, subagents, tests).
 */
import type { ContentBlock } from '../model/types.js';
import type { AgentRuntimeOptions } from './options.js';
import { AgentRuntime } from './runtime.js';
import type { ResultEvent } from './types.js';

export interface RunAgentOptions extends AgentRuntimeOptions {
  /** Aborting it interrupts the run (which still resolves, with an `aborted` result). */
  signal?: AbortSignal;
}

export async function runAgent(
  prompt: string | ContentBlock[],
  options: RunAgentOptions,
): Promise<ResultEvent> {
  const { signal, ...runtimeOptions } = options;
  const runtime = new AgentRuntime(runtimeOptions);
  const interrupt = (): void => runtime.interrupt();
  signal?.addEventListener('abort', interrupt, { once: true });
  let result: ResultEvent | null = null;
  try {
    for await (const event of runtime.submitMessage(prompt)) {
      if (event.type === 'result') result = event;
      // also covers a signal that was aborted before the run began (no 'abort' event then)
      if (signal?.aborted) runtime.interrupt();
    }
  } finally {
    signal?.removeEventListener('abort', interrupt);
    await runtime.close();
  }
  // submitMessage always ends with a result; its absence is a bug in the runtime
  if (result === null) throw new Error('runAgent: the run ended without a result event');
  return result;
}
