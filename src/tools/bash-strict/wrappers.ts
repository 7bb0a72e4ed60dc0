/**
 * Commands that run another command: `timeout`, `nice`, `env`, `command`
 * and `xargs`. Each is read-only when its own options are known and the
 * command it runs is. `xargs` adds arguments read from its input, which
 * could be anything (`-o/tmp/x`), so it may only run a pure command.
 * Refused wrappers: `exec`, `eval`, `nohup` (writes nohup.out), `time -o`,
 * `stdbuf`, `sudo`, `su`, `doas`, shells (`sh -c`), `watch`, `setsid`.
 */
import { parseFlags, refuse, type FlagSpec } from './flags.js';
import type { Word } from './types.js';

export interface Unwrapped {
  /** The words of the command that really runs (empty: the wrapper alone, e.g. `env`). */
  inner: Word[];
  /** Names set by `env NAME=value`. */
  assignments: string[];
  /** The inner command gets arguments nobody has seen (xargs). */
  extraArgs: boolean;
}

export type UnwrapResult = { ok: true; value: Unwrapped } | { ok: false; reason: string };

const SPECS: Record<string, FlagSpec> = {
  timeout: {
    short: 'v',
    shortArg: 'sk',
    long: ['preserve-status', 'foreground', 'verbose'],
    longArg: ['signal', 'kill-after'],
    optionsFirst: true,
  },
  nice: { shortArg: 'n', longArg: ['adjustment'], optionsFirst: true },
  env: {
    short: 'i0',
    shortArg: 'u',
    long: ['ignore-environment', 'null'],
    longArg: ['unset'],
    optionsFirst: true,
  },
  command: { short: 'vV', optionsFirst: true },
  xargs: {
    short: '0rtx',
    shortArg: 'dnLIsEaP',
    long: ['null', 'no-run-if-empty', 'verbose', 'exit'],
    longArg: ['delimiter', 'max-args', 'max-lines', 'max-chars', 'eof', 'arg-file', 'max-procs'],
    longOpt: ['replace'],
    optionsFirst: true,
  },
};

export const WRAPPERS = new Set(Object.keys(SPECS));

export function unwrap(name: string, args: Word[]): UnwrapResult {
  const spec = SPECS[name] as FlagSpec;
  const parsed = parseFlags(spec, args, false);
  if (!parsed.ok) return parsed;
  const { operands, options } = parsed.args;
  if (name === 'timeout') {
    const duration = operands[0];
    if (duration === undefined || duration.dynamic) return refuse('timeout needs a plain duration');
    return { ok: true, value: { inner: operands.slice(1), assignments: [], extraArgs: false } };
  }
  if (name === 'command' && options.length > 0) return lookupOnly(operands);
  if (name === 'env') return envAssignments(operands);
  return { ok: true, value: { inner: operands, assignments: [], extraArgs: name === 'xargs' } };
}

/** `command -v ls`: prints where ls is; runs nothing. */
function lookupOnly(operands: Word[]): UnwrapResult {
  void operands;
  return { ok: true, value: { inner: [], assignments: [], extraArgs: false } };
}

function envAssignments(operands: Word[]): UnwrapResult {
  const assignments: string[] = [];
  let k = 0;
  for (; k < operands.length; k++) {
    const word = operands[k] as Word;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(word.text);
    if (match === null) break;
    if (word.splits) return refuse('an env assignment split by the shell');
    assignments.push(match[1] as string);
  }
  return { ok: true, value: { inner: operands.slice(k), assignments, extraArgs: false } };
}
