/**
 * V8 settings for a one-shot command (`teamd agent`). Node's fetch parses
 * HTTP with llhttp compiled to WebAssembly; V8 runs it first as baseline
 * (Liftoff) code and, once it is hot (after a few responses), recompiles the
 * parser with TurboFan on a worker thread — a job of tens of MB of compiler
 * memory and 50–130 ms of CPU (strace: a V8 worker growing its malloc arena
 * in 32 KB mprotects from the second response to the end). On two cores that
 * job competes with the turn itself, and `process.exit` joins the worker, so
 * the exit waits for it to finish (docs/DECISIONS.md "Turns and exit of
 * `agent -p`"). `--liftoff-only` keeps the parser in baseline code: responses
 * are a few kB per second, which Liftoff parses in microseconds. The daemon
 * and the other commands keep V8's defaults.
 */
import { setFlagsFromString } from 'node:v8';

/** The V8 flags set at the start of a one-shot command, before its first request. */
export const ONE_SHOT_V8_FLAGS: readonly string[] = ['--liftoff-only'];

/** Sets `ONE_SHOT_V8_FLAGS` (through `set`, for tests). */
export function tuneV8ForOneShot(set: (flag: string) => void = setFlagsFromString): void {
  for (const flag of ONE_SHOT_V8_FLAGS) set(flag);
}
