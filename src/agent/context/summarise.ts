/**
 * Compaction stage 2: the model writes a structured summary of the older
 * history (goal, decisions, files touched, open questions). The history is
 * sent as one rendered text, not as messages, so the request is valid
 * whatever tools the history used and however it was cut. When the call
 * fails, `mechanicalSummary` lists what can be known without a model.
 */
import type { ContentBlock, ConversationMessage, ModelClient } from '../../model/types.js';
import { emptyUsage, type Usage } from '../../model/types.js';
import { headAndTail } from './tool-output.js';
import { blocksOf } from './turns.js';
import { toolResultText } from '../../model/types.js';

export const SUMMARY_REQUEST_OPEN = '<compaction_request>';

const SUMMARY_SYSTEM = [
  "You compress the history of a coding agent's session so it can go on working with less context.",
  'Write only the summary, in Markdown, with exactly these sections:',
  '## Goal — what the user asked for, in their words where it matters.',
  '## Decisions — what was decided or done, and why.',
  '## Files touched — one line per file: path and what changed or was learned.',
  '## Open questions — what is unresolved or still to do.',
  'Keep names, paths, commands, error messages and numbers exact. No preamble.',
].join('\n');

const RESULT_CHARS = 1_500;

function renderBlock(block: ContentBlock): string {
  if (block.type === 'text') return block.text;
  if (block.type === 'tool_use') return `[tool call ${block.name} ${JSON.stringify(block.input)}]`;
  // the model's private reasoning is not part of what the summary keeps
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return '[thinking]';
  const text = toolResultText(block);
  const kept = headAndTail(text, RESULT_CHARS, (cut) => `[… ${cut} characters …]`);
  return `[tool result${block.is_error ? ' (error)' : ''}]\n${kept}`;
}

/** The history as plain text, clipped to `maxChars` (its start and end kept). */
export function renderHistory(messages: readonly ConversationMessage[], maxChars: number): string {
  const text = messages.map((m) => `### ${m.role}\n${blocksOf(m).map(renderBlock).join('\n')}`).join('\n\n');
  return headAndTail(text, maxChars, (cut) => `[… ${cut} characters of history not shown …]`);
}

export interface SummaryCall {
  model: ModelClient;
  agent: string;
  signal: AbortSignal;
  maxTokens: number;
  /** Characters of rendered history the request may carry. */
  maxInputChars: number;
}

export interface SummaryAnswer {
  text: string | null;
  usage: Usage;
  model: string;
}

export async function summariseHistory(
  older: readonly ConversationMessage[],
  previous: string | null,
  call: SummaryCall,
): Promise<SummaryAnswer> {
  const earlier = previous === null ? '' : `A summary of what came before this history:\n${previous}\n\n`;
  const request = `${SUMMARY_REQUEST_OPEN}\n${earlier}Summarise this session history:\n\n${renderHistory(older, call.maxInputChars)}\n</compaction_request>`;
  const stream = call.model.stream({
    system: SUMMARY_SYSTEM,
    messages: [{ role: 'user', content: request }],
    tools: [],
    maxTokens: call.maxTokens,
    signal: call.signal,
    agent: call.agent,
  });
  try {
    for await (const event of stream) {
      if (event.type !== 'done') continue;
      const text = event.message.content
        .flatMap((b) => (b.type === 'text' ? [b.text] : []))
        .join('')
        .trim();
      const ok = event.stopReason !== 'error' && event.stopReason !== 'aborted' && text !== '';
      return { text: ok ? text : null, usage: event.usage, model: event.model };
    }
  } catch {
    // a client that throws is treated like a failed call: the mechanical summary takes over
  }
  return { text: null, usage: emptyUsage(), model: call.model.model };
}

const FILE_FIELDS = ['file_path', 'path', 'notebook_path'];

/** Files named by the calls of a history (the `file_path`/`path` inputs). */
export function filesTouched(messages: readonly ConversationMessage[]): string[] {
  const files = new Set<string>();
  for (const block of messages.flatMap(blocksOf)) {
    if (block.type !== 'tool_use' || typeof block.input !== 'object' || block.input === null) continue;
    const input = block.input as Record<string, unknown>;
    for (const field of FILE_FIELDS)
      if (typeof input[field] === 'string') files.add(`${input[field]} (${block.name})`);
  }
  return [...files];
}

/** What can be said of dropped turns without a model: the calls made and the files they named. */
export function mechanicalSummary(messages: readonly ConversationMessage[]): string {
  const calls = messages.flatMap(blocksOf).flatMap((b) => (b.type === 'tool_use' ? [b.name] : []));
  const counts = [...new Set(calls)].map((name) => `${name} ×${calls.filter((c) => c === name).length}`);
  const files = filesTouched(messages);
  return [
    '## Goal\nSee the task above.',
    `## Decisions\n(not summarised: ${messages.length} messages were dropped to fit the context window)`,
    `## Files touched\n${files.length > 0 ? files.map((f) => `- ${f}`).join('\n') : '(none named)'}`,
    `## Open questions\nTool calls made in the dropped part: ${counts.length > 0 ? counts.join(', ') : 'none'}. Re-read files before you rely on what you remember of them.`,
  ].join('\n');
}
