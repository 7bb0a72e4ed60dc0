/** Temp folders and run collection for runtime tests. */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent, ResultEvent } from '../../../src/agent/types.js';
import type { ConversationMessage, ToolResultBlock } from '../../../src/model/types.js';

export interface TempDir extends AsyncDisposable {
  path: string;
}

export async function tempDir(prefix = 'teamd-agent-'): Promise<TempDir> {
  const path = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return { path, [Symbol.asyncDispose]: () => rm(path, { recursive: true, force: true }) };
}

export interface CollectedRun {
  events: AgentEvent[];
  result: ResultEvent;
}

export async function collect(
  run: AsyncIterable<AgentEvent>,
  onEach?: (e: AgentEvent) => void,
): Promise<CollectedRun> {
  const events: AgentEvent[] = [];
  for await (const event of run) {
    events.push(event);
    onEach?.(event);
  }
  const results = events.filter((e): e is ResultEvent => e.type === 'result');
  if (results.length !== 1) throw new Error(`expected exactly one result event, got ${results.length}`);
  if (events.at(-1)?.type !== 'result') throw new Error('the result event was not the last one');
  return { events, result: results[0]! };
}

/** Every tool_result in a conversation, by tool_use id. */
export function toolResults(messages: readonly ConversationMessage[]): Map<string, ToolResultBlock> {
  const found = new Map<string, ToolResultBlock>();
  for (const m of messages) {
    if (typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'tool_result') found.set(b.tool_use_id, b);
  }
  return found;
}

export const resultText = (block: ToolResultBlock | undefined): string =>
  block === undefined
    ? ''
    : typeof block.content === 'string'
      ? block.content
      : block.content.map((b) => (b.type === 'text' ? b.text : '')).join('');

/** Polls `check` until it holds; fails with `what` after `timeoutMs`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
