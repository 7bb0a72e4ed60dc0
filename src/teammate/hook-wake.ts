/**
 * An `asyncRewake` hook's result (exit 2) that arrives when the session it
 * belongs to has ended — the teammate idle between tasks, or already on the
 * next thing — wakes the teammate, as Claude Code wakes an idle session: the
 * teammate's loop takes it like mail (`HookWakes` → `answerHookWhileIdle`)
 * and runs one short read-only turn in the shared tree with the hook's text.
 * Bounded: each result wakes at most once, and a result from the hooks of
 * such a woken turn never wakes again (it is logged instead), so a hook that
 * always exits 2 cannot keep a teammate busy.
 */
import { asyncReminder } from '../hooks/async-output.js';
import type { HookAsyncOutput } from '../hooks/types.js';
import type { EngineSession } from './engines/index.js';
import type { ActiveRun, TeammateHost } from './host.js';
import { runIdleTurn } from './idle-session.js';

/** Hook results waiting for the teammate's next idle moment. */
export class HookWakes {
  private pending: HookAsyncOutput[] = [];

  add(output: HookAsyncOutput): void {
    this.pending.push(output);
  }

  get size(): number {
    return this.pending.length;
  }

  /** Everything waiting, once: one woken turn answers them all. */
  take(): HookAsyncOutput[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }
}

/**
 * What a teammate's hook runner does with an `asyncRewake` result: nothing
 * while its session runs (the session's queue takes it for the next turn);
 * otherwise a wake, unless the session was itself a woken one.
 */
export function rewakeRoute(host: TeammateHost, live: () => boolean, woken: boolean) {
  return (output: HookAsyncOutput): boolean => {
    if (live()) return false;
    if (woken) {
      const message = `hook: the background ${output.event} hook \`${output.command}\` exited 2 after a hook-woken turn; not woken again: ${output.text.slice(0, 300)}`;
      host.deps.log({ type: 'notice', agent: host.name, message });
      return true;
    }
    host.hookWake(output);
    return true;
  };
}

/**
 * A session's end: asyncRewake results that reached its queue but no run
 * took (one that came during the Stop hooks, after the last turn) wake the
 * teammate instead of staying in a conversation that will not run again.
 */
export function handOffRewakes(host: TeammateHost, session: EngineSession | null, woken = false): void {
  const left = session?.runtime?.takeQueued((i) => i.meta?.rewake !== undefined) ?? [];
  const route = rewakeRoute(host, () => false, woken);
  for (const item of left) route(item.meta!.rewake as HookAsyncOutput);
}

export const hookWakePrompt = (outputs: HookAsyncOutput[]): string =>
  `A background hook reported while you were idle. Act on it if needed (team); you are not on a task now.\n\n${outputs.map(asyncReminder).join('\n\n')}`;

export function answerHookWhileIdle(host: TeammateHost, outputs: HookAsyncOutput[]): ActiveRun {
  host.deps.log({ type: 'notice', agent: host.name, message: `woken by ${outputs.length} background hook result(s)` });
  return runIdleTurn(host, { parentId: `hook:${outputs[0]?.event ?? 'none'}`, prompt: hookWakePrompt(outputs), hookWoken: true });
}
