/**
 * One short conversation of an idle teammate (mail to answer, a hook that
 * woke it): in the shared tree with no editing tools (edits happen only in a
 * task's worktree), mail arriving meanwhile joins it, and at its end the
 * asyncRewake results no turn took are handed on and the session is closed
 * (its transcript file, MCP servers and session tasks: one left open per
 * batch leaked a descriptor each, issue 24).
 */
import type { AgentEvent } from '../agent/types.js';
import { startEngine, type EngineSession } from './engines/index.js';
import type { ActiveRun, TeammateHost } from './host.js';
import { handOffRewakes } from './hook-wake.js';

export interface IdleTurn {
  /** The session's parent id in the transcript (`mail:<id>`, `hook:<event>`). */
  parentId: string;
  prompt: string;
  /** A session started by a hook result: its own hooks' rewakes are logged, never woken again. */
  hookWoken?: boolean;
  onEvent?: (event: AgentEvent) => void;
}

export function runIdleTurn(host: TeammateHost, turn: IdleTurn): ActiveRun {
  let session: EngineSession | null = null;
  const done = (async () => {
    session = startEngine(host, {
      cwd: host.deps.data.repoRoot,
      worktree: null,
      readOnly: true,
      ...(turn.hookWoken ? { hookWoken: true } : {}),
      parentId: turn.parentId,
      onEvent: turn.onEvent ?? (() => undefined),
    });
    host.desk.attach((text) => session?.enqueue(text));
    try {
      await session.submit(turn.prompt); // events go to the transcript; the result needs no action
    } finally {
      host.desk.detach();
      handOffRewakes(host, session, turn.hookWoken === true);
      void session.close();
    }
  })();
  return { interrupt: () => session?.interrupt(), done };
}
