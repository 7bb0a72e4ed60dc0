/**
 * The loop's context steps: compaction before a model call, and recovery
 * after one (a prompt the API found too long is compacted and retried once;
 * an answer cut by `max_tokens` is continued, a bounded number of times).
 * Each yields the events it causes.
 */
import type { ContentBlock } from '../../model/types.js';
import { sessionStartContext } from '../loop-steps.js';
import type { RunContext } from '../run-context.js';
import type { TurnOutcome } from '../turn.js';
import type { AgentEvent } from '../types.js';
import type { CompactResult } from './compact.js';
import type { CompactTrigger } from './types.js';

export const CONTINUE_PROMPT =
  '<continuation>Your previous answer was cut off by the output token limit. Continue exactly where it stopped, without repeating anything already written.</continuation>';

/** Per-run recovery state (kept in the RunContext). */
export interface RecoveryState {
  /** Text of answers cut by max_tokens, in order: the final answer continues it. */
  continuedText: string;
  continuations: number;
  /** A prompt_too_long was already answered by a compaction since the last successful call. */
  retriedTooLong: boolean;
}

export const newRecoveryState = (): RecoveryState => ({
  continuedText: '',
  continuations: 0,
  retriedTooLong: false,
});

function compactMessage(result: CompactResult, trigger: CompactTrigger): string {
  const why =
    trigger === 'prompt_too_long'
      ? 'the API refused the prompt as too long'
      : 'the context neared the window';
  return `compacted the context (${result.stages.join(', ')}) because ${why}: about ${result.tokensBefore} → ${result.tokensAfter} tokens`;
}

/** Compacts the conversation when it is over a threshold (always after prompt_too_long). True when it changed. */
export async function* compactContext(
  run: RunContext,
  trigger: CompactTrigger,
): AsyncGenerator<AgentEvent, boolean> {
  const { turn } = run;
  const result = await run.context.compact(
    run.conversation.messages,
    {
      model: turn.model,
      agent: turn.agent,
      system: turn.system,
      tools: turn.tools,
      signal: run.signal,
      onSummary: (answer) => run.stats.addUsage(answer.model, answer.usage),
      beforeSummary: () => preCompact(run),
    },
    trigger,
  );
  if (result === null || run.signal.aborted) return false;
  run.conversation.replace(result.messages);
  yield run.stamp({
    type: 'system',
    subtype: 'compact',
    message: compactMessage(result, trigger),
    trigger,
    stages: result.stages,
    tokens_before: result.tokensBefore,
    tokens_after: result.tokensAfter,
    messages: result.messages,
  });
  const context = await sessionStartContext(run, 'compact');
  if (context.length > 0) run.conversation.addUser(context);
  return true;
}

/** PreCompact hooks (they cannot stop a compaction); teamd compacts only by itself, so the trigger is `auto`. */
async function preCompact(run: RunContext): Promise<void> {
  if (!run.hooks?.has('PreCompact')) return;
  const payload = { ...run.hookBase, trigger: 'auto', custom_instructions: '' };
  await run.hooks.run('PreCompact', payload, { matchValue: 'auto', signal: run.signal });
}

const textOf = (blocks: ContentBlock[]): string =>
  blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');

function* continueAnswer(run: RunContext, turn: TurnOutcome): Generator<AgentEvent, boolean> {
  const state = run.recovery;
  const max = run.context.options.maxContinuations;
  if (state.continuations >= max || run.signal.aborted) return false;
  state.continuations += 1;
  state.continuedText += textOf(turn.done.message.content);
  const message = `the answer was cut off by max_tokens: asking the model to continue (${state.continuations}/${max})`;
  yield run.stamp({ type: 'system', subtype: 'notice', message });
  const added = run.conversation.addUser([{ type: 'text', text: CONTINUE_PROMPT }]);
  if (added) yield run.stamp(added);
  return true;
}

/** After a model call: whether the loop should call the model again at once (recovered), instead of ending. */
export async function* recoverAfterTurn(
  run: RunContext,
  turn: TurnOutcome,
): AsyncGenerator<AgentEvent, boolean> {
  const state = run.recovery;
  const { done } = turn;
  if (turn.results.length > 0) {
    state.continuedText = '';
    state.continuations = 0;
  }
  if (done.stopReason !== 'error') state.retriedTooLong = false;
  if (done.error?.kind === 'prompt_too_long' && !state.retriedTooLong && !run.signal.aborted) {
    state.retriedTooLong = true;
    return yield* compactContext(run, 'prompt_too_long');
  }
  if (done.stopReason === 'max_tokens' && turn.results.length === 0) return yield* continueAnswer(run, turn);
  return false;
}
