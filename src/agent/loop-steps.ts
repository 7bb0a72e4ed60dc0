/**
 * The steps of the loop that add to the conversation: the prompt, tool
 * results (with any queued input), queued input at the end of a turn, a Stop
 * hook's objection, and the final result. Each yields the events it causes.
 */
import type { ContentBlock, ModelError, ToolResultBlock } from '../model/types.js';
import type { EventBody } from './events.js';
import { finalText, textBlocks } from './history.js';
import { queuedBlocks, queuedNotice } from './input-queue.js';
import type { RunContext } from './run-context.js';
import type { AgentEvent, ResultEvent, ResultSubtype } from './types.js';

type Steps<R> = AsyncGenerator<AgentEvent, R>;

function* emit(run: RunContext, ...bodies: (EventBody | null)[]): Generator<AgentEvent> {
  for (const body of bodies) if (body) yield run.stamp(body);
}

/** Adds `blocks` plus whatever input was queued, and says so when the queue had something. */
function* addWithQueued(run: RunContext, blocks: ContentBlock[]): Generator<AgentEvent, boolean> {
  const queued = run.signal.aborted ? [] : run.queue.drain();
  yield* emit(run, run.conversation.addUser([...blocks, ...queuedBlocks(queued)]));
  if (queued.length === 0) return false;
  yield* emit(run, { type: 'system', subtype: 'queued_input', ...queuedNotice(queued) });
  return true;
}

const promptText = (blocks: ContentBlock[]): string =>
  blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');

/**
 * UserPromptSubmit hooks, then the prompt (after any results owed from an
 * earlier run, and after `preamble`: the session context). Null, or why it was refused.
 */
export async function* submitPrompt(
  run: RunContext,
  input: string | ContentBlock[],
  preamble: ContentBlock[] = [],
): Steps<string | null> {
  const prompt = textBlocks(input);
  const hook = run.hooks
    ? await run.hooks.run(
        'UserPromptSubmit',
        { ...run.hookBase, prompt: promptText(prompt) },
        { signal: run.signal },
      )
    : null;
  if (hook?.blocked || hook?.continue === false) {
    return `the prompt was blocked by a UserPromptSubmit hook: ${hook.reason ?? hook.stopReason ?? 'no reason given'}`;
  }
  const context: ContentBlock[] = hook?.additionalContext
    ? [{ type: 'text', text: hook.additionalContext }]
    : [];
  yield* addWithQueued(run, [...run.conversation.owedResults(), ...preamble, ...prompt, ...context]);
  return run.conversation.endsWithUser ? null : 'nothing to send: the prompt is empty';
}

export function* addToolResults(run: RunContext, results: ToolResultBlock[]): Generator<AgentEvent> {
  yield* addWithQueued(run, results);
}

/** Input queued while the model was answering: the conversation goes on instead of ending. */
export function* addQueuedInput(run: RunContext): Generator<AgentEvent, boolean> {
  if (run.queue.size === 0 || run.signal.aborted) return false;
  return yield* addWithQueued(run, []);
}

/** Notices hooks left (a hook that could not start, a `systemMessage`), as `system/hook` events. */
export function* hookNotices(run: RunContext): Generator<AgentEvent> {
  for (const message of run.hookNotices.splice(0)) yield* emit(run, { type: 'system', subtype: 'hook', message });
}

/**
 * SessionStart hooks on a session's first run (`startup`, or `resume`) and
 * after a compaction (`compact`): what they say is context for the model.
 */
export async function sessionStartContext(run: RunContext, source: 'startup' | 'resume' | 'compact'): Promise<ContentBlock[]> {
  if (!run.hooks?.has('SessionStart') || run.isSubagent) return [];
  const payload = { ...run.hookBase, source }; // as Claude Code 2.1.332 sends it: no model (test/interop)
  const outcome = await run.hooks.run('SessionStart', payload, { matchValue: source, signal: run.signal });
  if (!outcome.continue) run.stopRequest.reason ??= outcome.stopReason ?? 'a SessionStart hook stopped the session';
  return outcome.additionalContext ? [{ type: 'text', text: outcome.additionalContext }] : [];
}

/** Stop (or a subagent's SubagentStop) payload: Claude Code's fields. */
function stopPayload(run: RunContext, timesBlocked: number): Record<string, unknown> {
  const payload = {
    ...run.hookBase,
    stop_hook_active: timesBlocked > 0,
    last_assistant_message: run.recovery.continuedText + finalText(run.conversation.messages),
  };
  return run.isSubagent ? { ...payload, agent_transcript_path: run.hookTranscriptPath } : payload;
}

/** A blocking Stop hook sends the agent back to work with its reason, a bounded number of times. */
export async function* stopHookObjects(run: RunContext, timesBlocked: number): Steps<boolean> {
  if (!run.hooks || timesBlocked >= run.maxStopHookBlocks) return false;
  const event = run.isSubagent ? 'SubagentStop' : 'Stop';
  const matchValue = run.isSubagent ? run.agentType : undefined;
  const outcome = await run.hooks.run(event, stopPayload(run, timesBlocked), {
    signal: run.signal,
    ...(matchValue === undefined ? {} : { matchValue }),
  });
  yield* hookNotices(run);
  if (!outcome.blocked || !outcome.continue || run.signal.aborted) return false;
  const reason = outcome.reason ?? `a ${event} hook asked to continue`;
  yield* emit(run, { type: 'system', subtype: 'hook', message: `${event} hook: ${reason}` });
  yield* emit(run, run.conversation.addUser([{ type: 'text', text: reason }]));
  return true;
}

export interface Ending {
  subtype: ResultSubtype;
  error?: string;
  modelError?: ModelError;
}

export function* finish(run: RunContext, ending: Ending): Generator<AgentEvent, ResultEvent> {
  yield* hookNotices(run);
  // an answer continued after max_tokens is the pieces before plus the last one
  const text = run.recovery.continuedText + finalText(run.conversation.messages);
  const event = run.stamp(
    run.stats.result(ending.subtype, text, ending.error, ending.modelError),
  ) as ResultEvent;
  yield event;
  return event;
}
