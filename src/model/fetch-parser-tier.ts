/**
 * Keeps fetch's HTTP parser in V8's baseline WebAssembly code for a one-shot
 * command (`teamd agent`). Node's fetch (undici) parses HTTP with llhttp
 * compiled to WebAssembly; V8 runs it as baseline (Liftoff) code and, once it
 * is hot (after a few responses), recompiles it with TurboFan on a worker
 * thread: ~29 MB of compiler memory (strace: a V8 worker growing its malloc
 * arena in ~900 mprotects of 32 KB) and 50–130 ms of CPU. On two cores that
 * job competes with the turns, and `process.exit` joins the worker, so the
 * exit waits for it (docs/DECISIONS.md "Turns and exit of `agent -p`").
 * Model answers are a few kB per second, which Liftoff parses in microseconds,
 * so the tier-up budget (V8's estimate of the bytes a function runs before it
 * is recompiled; default 1.8 M) is raised a thousandfold: a session that
 * parses that much still gets TurboFan. `--liftoff-only` did as well for the
 * exit but cost the start more (eager baseline compile); `--no-wasm-tier-up`
 * set at run time changed nothing.
 *
 * And lazy compilation off: V8 compiles a WebAssembly function when it is
 * first called, so the first response's parse paid for compiling llhttp's
 * functions (~1.3 ms of CPU profiles, in the first tool turn's gap: answer
 * done → next request). Set here, llhttp is compiled whole (Liftoff) when
 * the first connection instantiates it; measured: the first tool turn's gap
 * 12.5 → 10.9 ms, start → first request unchanged (133 ms; 20 interleaved
 * rounds, docs/DECISIONS.md "The first tool turn: llhttp compiled whole").
 *
 * The flag is set once undici is loaded and before its first connection
 * compiles llhttp: changing a V8 flag changes V8's flag hash, and Node's
 * built-in modules compiled after that lose their embedded code cache
 * (undici itself: ~15–20 ms more before the first request when a flag is set
 * at the start). The daemon and the other commands keep V8's defaults.
 */
import { setFlagsFromString } from 'node:v8';

/** The V8 flags a one-shot command sets for fetch's parser. */
export const BASELINE_PARSER_FLAGS: readonly string[] = ['--wasm-tiering-budget=2000000000', '--no-wasm-lazy-compilation'];

let wanted = false;
let applied = false;

/** Asks for the baseline parser in this process (set by `fetchLoaded`). */
export function keepFetchParserInBaseline(): void {
  wanted = true;
}

/** Called once undici is loaded and before the first request: sets the flags if asked for (once). */
export function fetchLoaded(set: (flag: string) => void = setFlagsFromString): boolean {
  if (!wanted || applied) return false;
  applied = true;
  for (const flag of BASELINE_PARSER_FLAGS) set(flag);
  return true;
}

/** V8's defaults of BASELINE_PARSER_FLAGS (Node 20 and 22), in the same order. */
export const DEFAULT_PARSER_FLAGS: readonly string[] = ['--wasm-tiering-budget=1800000', '--wasm-lazy-compilation'];

/**
 * Puts V8's defaults back if `fetchLoaded` changed them: V8 keys a code cache
 * by its flags, so a cache made after the change would be refused by the next
 * run, which starts with the defaults (src/cli/code-cache.ts makes it at exit).
 */
export function restoreParserFlags(set: (flag: string) => void = setFlagsFromString): boolean {
  if (!applied) return false;
  applied = false;
  for (const flag of DEFAULT_PARSER_FLAGS) set(flag);
  return true;
}
