/**
 * How a one-shot command ends. `teamd agent -p` returns from its action only
 * when everything it started has ended: the run's result, the runtime's close
 * (SessionEnd hooks, background shells, MCP servers) and every transcript line
 * (written synchronously). Waiting for the event loop to empty after that is
 * not free: before `beforeExit`, Node drains every task queued on V8's worker
 * threads (a concurrent optimising compile, GC work) — seen with strace as
 * the main thread in a futex wait while a worker compiles, tens of ms on an
 * idle machine and hundreds on a loaded one. So such a command exits once
 * stdout and stderr have taken what was written to them.
 */

/** The commands whose action awaits all their work (the process may end when it returns). */
export const ONE_SHOT_COMMANDS: ReadonlySet<string> = new Set(['agent']);

/** Resolves once `stream` has passed on what was written before (at once when it is gone). */
function written(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  return new Promise((resolve) => void stream.write('', () => resolve()));
}

/**
 * Exits with `code` once stdout and stderr are written out, in the check
 * phase of the event loop (what was queued for it runs first). The immediate
 * is unref'd: it holds nothing, so a run that left a handle open still shows
 * it, and should the loop end first, `beforeExit` exits as before.
 */
export async function exitWhenWritten(code: number): Promise<void> {
  await Promise.all([written(process.stdout), written(process.stderr)]);
  setImmediate(() => process.exit(code)).unref();
}
