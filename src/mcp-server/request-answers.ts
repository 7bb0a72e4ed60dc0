/**
 * The answers to this process's approval requests, seen in their files. A
 * teammate in the daemon hears its answer as mail; `teamd mcp --as` runs
 * beside the daemon (or without one), so it watches `.team/state/requests/`,
 * where `teamd approve`/`reject` and the lead's answer tool write the verdict
 * first. A watcher event is a hint: the file is re-read, and a slow poll
 * covers an event the watcher missed.
 */
import { folderWatcher } from '../teammate/request-folder.js';
import { loadRequest, requestsDir } from '../teammate/requests.js';
import type { Waiters } from '../teammate/waiters.js';

const POLL_MS = 1_000;

export interface AnswerWatch {
  /** Re-reads the files of the requests being waited for now. */
  check(): void;
  close(): void;
}

/** Settles `waiters` for every request in `ids()` whose file says approved or rejected. */
export function watchAnswers(repoRoot: string, waiters: Waiters, ids: () => readonly string[]): AnswerWatch {
  const check = (): void => {
    for (const id of ids()) {
      const request = loadRequest(repoRoot, id);
      if (!request || (request.status !== 'approved' && request.status !== 'rejected')) continue;
      waiters.settle(id, { approve: request.status === 'approved', reason: request.answer?.reason ?? '', by: request.answer?.by ?? 'user' });
    }
  };
  const watcher = folderWatcher(requestsDir(repoRoot), check);
  const poll = setInterval(check, POLL_MS);
  poll.unref();
  return {
    check,
    close: () => {
      clearInterval(poll);
      watcher?.close();
    },
  };
}
