/**
 * The agent loop: prompt → (model turn → tool results)* → result. Each step
 * lives in its own function; this file only decides what comes next.
 */
import type { ContentBlock } from '../model/types.js';
import { compactContext, recoverAfterTurn } from './context/steps.js';
import * as steps from './loop-steps.js';
import type { Ending } from './loop-steps.js';
import type { RunContext } from './run-context.js';
import { runTurn, type ModelDone } from './turn.js';
import type { AgentEvent, ResultEvent } from './types.js';

/** A limit that forbids another model call, checked before each one. */
function limitReached(run: RunContext): Ending | null {
  if (run.signal.aborted) return { subtype: 'aborted', error: 'interrupted' };
  if (run.stats.turns >= run.maxTurns) {
    return { subtype: 'error_max_turns', error: `reached the limit of ${run.maxTurns} turns` };
  }
  if (run.maxBudgetUsd !== undefined && run.stats.costUsd >= run.maxBudgetUsd) {
    const spent = run.stats.costUsd.toFixed(4);
    return { subtype: 'error_max_budget_usd', error: `spent $${spent} of a $${run.maxBudgetUsd} budget` };
  }
  return null;
}

function describeModelError(done: ModelDone): string {
  const error = done.error;
  if (!error) return 'the model call failed';
  return `model error (${error.kind}${error.status === undefined ? '' : ` ${error.status}`}): ${error.message}`;
}

/** Whether the turn just played ends the run, and how. */
function endingAfter(run: RunContext, done: ModelDone): Ending | null {
  if (run.signal.aborted || done.stopReason === 'aborted') {
    return { subtype: 'aborted', error: 'interrupted' };
  }
  if (done.stopReason === 'error') {
    const ending: Ending = { subtype: 'error_during_execution', error: describeModelError(done) };
    return done.error ? { ...ending, modelError: done.error } : ending;
  }
  if (run.stopRequest.reason !== null) {
    return { subtype: 'error_during_execution', error: run.stopRequest.reason };
  }
  return null;
}

/**
 * A run never ends in a silent empty success: a last answer with no content
 * is an error, unless the model ended its turn with nothing to say (end_turn,
 * which the model layer gives an empty answer only from a complete response).
 */
function emptyAnswer(done: ModelDone): Ending | null {
  if (done.message.content.length > 0 || done.stopReason === 'end_turn') return null;
  return {
    subtype: 'error_during_execution',
    error: `the model's last answer was empty (stop reason ${done.stopReason}): nothing to act on`,
  };
}

export async function* runLoop(
  run: RunContext,
  input: string | ContentBlock[],
): AsyncGenerator<AgentEvent, ResultEvent> {
  const started = run.sessionSource === null ? [] : await steps.sessionStartContext(run, run.sessionSource);
  const refused = yield* steps.submitPrompt(run, input, [
    ...(await run.context.preamble(run.conversation.messages)),
    ...started,
  ]);
  yield* steps.hookNotices(run);
  if (refused !== null) {
    return yield* steps.finish(run, { subtype: 'error_during_execution', error: refused });
  }
  let stopHookBlocks = 0;
  for (;;) {
    const limit = limitReached(run);
    if (limit) return yield* steps.finish(run, limit);

    yield* compactContext(run, 'auto');

    const turn = yield* runTurn(run.turn);
    run.stats.addModelCall(turn.done.model, turn.done.usage, turn.apiMs);
    run.context.observe(turn.done.usage, run.conversation.messages);
    if (turn.results.length > 0)
      yield* steps.addToolResults(run, await run.context.trimResults(turn.results));
    yield* steps.hookNotices(run);
    if (yield* recoverAfterTurn(run, turn)) continue;

    const ending = endingAfter(run, turn.done);
    if (ending) return yield* steps.finish(run, ending);
    if (turn.results.length > 0) continue;
    const empty = emptyAnswer(turn.done);
    if (empty) return yield* steps.finish(run, empty);
    if (yield* steps.addQueuedInput(run)) continue;
    if (yield* steps.stopHookObjects(run, stopHookBlocks)) {
      stopHookBlocks += 1;
      continue;
    }
    return yield* steps.finish(run, { subtype: 'success' });
  }
}
