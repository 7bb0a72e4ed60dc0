/**
 * A Claude Code teammate asks for permission through `teamd mcp --as <name>`'s
 * `permission_prompt`, in another process: the ask is a request file in
 * `.team/state/requests/` filed in the teammate's name. While a turn runs,
 * the teammate watches those files and shows `waiting` while one of its own
 * is pending (and `working` again once none is), as teamd's own engine does
 * from `askAndWait`. A watcher event is a hint: the folder is re-read, and a
 * poll covers an event the watcher missed.
 */
import { folderWatcher } from '../../request-folder.js';
import { listRequests, requestsDir } from '../../requests.js';
import type { EngineSession } from '../types.js';

const POLL_MS = 500;

export interface AskWatchOptions {
  repoRoot: string;
  agent: string;
  /** Called on a change only: true when the first pending ask appears, false when the last one is answered. */
  onWaiting: (waiting: boolean) => void;
}

export interface AskWatch {
  check(): void;
  /** Stops watching; a `waiting` shown is taken back first. */
  close(): void;
}

/** Watches the requests of `agent`, telling `onWaiting` when having a pending one changes. */
export function watchOwnAsks(o: AskWatchOptions): AskWatch {
  let waiting = false;
  let closed = false;
  const show = (now: boolean): void => {
    if (now === waiting) return;
    waiting = now;
    o.onWaiting(now);
  };
  const check = (): void => {
    if (!closed) show(listRequests(o.repoRoot, 'pending').some((r) => r.agent === o.agent));
  };
  const watcher = folderWatcher(requestsDir(o.repoRoot), check);
  const poll = setInterval(check, POLL_MS);
  poll.unref();
  check();
  return {
    check,
    close: () => {
      clearInterval(poll);
      watcher?.close();
      show(false);
      closed = true;
    },
  };
}

/** `session`, with its teammate's asks watched while each of its turns runs. */
export function watchingAsks(session: EngineSession, o: AskWatchOptions): EngineSession {
  return {
    runtime: session.runtime,
    submit: async (text) => {
      const watch = watchOwnAsks(o);
      try {
        return await session.submit(text);
      } finally {
        watch.close();
      }
    },
    enqueue: (text) => session.enqueue(text),
    interrupt: () => session.interrupt(),
    close: () => session.close(),
  };
}
