/**
 * The compaction pipeline (stages in types.ts): clear old tool results, then
 * summarise the older history, then, as a last resort, keep only the first
 * message, the summary and the last turn. Each stage runs only while the
 * context is still over its threshold; a `prompt_too_long` refusal forces
 * the first two (the estimate was evidently wrong).
 */
import type { ContentBlock, ConversationMessage } from '../../model/types.js';
import { clearOldToolResults } from './clear-results.js';
import { isSessionContext } from './session-context.js';
import { mechanicalSummary } from './summarise.js';
import { blocksOf, recentTurnsStart } from './turns.js';
import type { CompactStage, CompactTrigger, ContextOptions } from './types.js';

export const SUMMARY_OPEN = '<compact_summary>';
const SUMMARY_CLOSE = '</compact_summary>';

export interface CompactInput {
  messages: readonly ConversationMessage[];
  options: ContextOptions;
  trigger: CompactTrigger;
  /** Tokens of a request carrying these messages (system prompt and tools included). */
  measure: (messages: readonly ConversationMessage[]) => number;
  /** The model's summary of `older` (given the summary they continue), or null when the call failed. */
  summarise: (older: readonly ConversationMessage[], previous: string | null) => Promise<string | null>;
  /** A fresh `<session_context>` for the rebuilt first message; null when injection is off. */
  sessionContext: () => Promise<string | null>;
}

export interface CompactResult {
  messages: ConversationMessage[];
  stages: CompactStage[];
  tokensBefore: number;
  tokensAfter: number;
}

interface Head {
  /** The task as the user gave it: the first message without its context and summary blocks. */
  prompt: ContentBlock[];
  previousSummary: string | null;
}

const isSummary = (b: ContentBlock): boolean => b.type === 'text' && b.text.startsWith(SUMMARY_OPEN);

function headOf(first: ConversationMessage): Head {
  const blocks = blocksOf(first);
  const summary = blocks.find(isSummary);
  const previousSummary =
    summary?.type === 'text' ? summary.text.slice(SUMMARY_OPEN.length, -SUMMARY_CLOSE.length).trim() : null;
  const prompt = blocks.filter((b) => b.type !== 'tool_result' && !isSessionContext(b) && !isSummary(b));
  return { prompt, previousSummary };
}

const summaryBlock = (summary: string): ContentBlock => ({
  type: 'text',
  text: `${SUMMARY_OPEN}\nThe earlier part of this session was compacted; this summary replaces it. The most recent turns follow as they were.\n\n${summary}\n${SUMMARY_CLOSE}`,
});

async function rebuild(
  input: CompactInput,
  head: Head,
  summary: string,
  tail: readonly ConversationMessage[],
): Promise<ConversationMessage[]> {
  const context = await input.sessionContext();
  const first: ContentBlock[] = [
    ...(context === null ? [] : [{ type: 'text' as const, text: context }]),
    ...head.prompt,
    summaryBlock(summary),
  ];
  return [{ role: 'user', content: first }, ...tail];
}

const over = (input: CompactInput, messages: readonly ConversationMessage[], fraction: number): boolean =>
  input.measure(messages) >= fraction * input.options.windowTokens;

/** Stages 2 and 3 on a history that stage 1 could not bring under `summariseAt`. */
async function summariseOrTruncate(
  input: CompactInput,
  messages: readonly ConversationMessage[],
  stages: CompactStage[],
): Promise<readonly ConversationMessage[]> {
  const head = headOf(messages[0]!);
  const last = recentTurnsStart(messages, 1);
  let start = recentTurnsStart(messages, input.options.keepRecentTurns);
  if (start <= 1) start = last; // fewer turns than keepRecentTurns: keep the last one only
  if (start <= 1) return messages; // a single turn: nothing older to fold
  const summary = await input.summarise(messages.slice(1, start), head.previousSummary);
  if (summary !== null) {
    const summarised = await rebuild(input, head, summary, messages.slice(start));
    stages.push('summarise');
    if (!over(input, summarised, input.options.summariseAt) || start === last) return summarised;
  }
  const earlier =
    summary ??
    [head.previousSummary, mechanicalSummary(messages.slice(1, start))].filter(Boolean).join('\n\n');
  const dropped = start < last ? `\n\n${mechanicalSummary(messages.slice(start, last))}` : '';
  stages.push('truncate');
  return rebuild(input, head, earlier + dropped, messages.slice(last));
}

/** The compacted history, or null when no stage had anything to do. */
export async function compactHistory(input: CompactInput): Promise<CompactResult | null> {
  const { options } = input;
  const force = input.trigger === 'prompt_too_long';
  const tokensBefore = input.measure(input.messages);
  const stages: CompactStage[] = [];
  let current: readonly ConversationMessage[] = input.messages;
  if (force || tokensBefore >= options.clearToolResultsAt * options.windowTokens) {
    const cleared = clearOldToolResults(current, options.keepRecentTurns);
    if (cleared !== null) {
      current = cleared;
      stages.push('clear_tool_results');
    }
  }
  if (current.length > 0 && (force || over(input, current, options.summariseAt))) {
    current = await summariseOrTruncate(input, current, stages);
  }
  if (stages.length === 0) return null;
  return { messages: [...current], stages, tokensBefore, tokensAfter: input.measure(current) };
}
