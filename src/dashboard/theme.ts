/**
 * Colours carry meaning only as an extra: every state is also written out, so
 * with NO_COLOR (https://no-color.org: set and not empty) the dashboard drops
 * colours and keeps bold, inverse and the words.
 */
import type { TeammateLook, Tone } from './types.js';

export const noColorRequested = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env.NO_COLOR !== undefined && env.NO_COLOR !== '';

const COLOURS: Record<Tone, string | undefined> = {
  ok: 'green',
  busy: 'cyan',
  warn: 'yellow',
  alert: 'magenta',
  bad: 'red',
  muted: 'gray',
  accent: 'blue',
  plain: undefined,
};

export interface Theme {
  /** The ink colour for a tone; undefined without colours. */
  colour(tone: Tone | undefined): string | undefined;
  /** Muted text is dimmed when there are no colours, so it still reads as secondary. */
  dim(tone: Tone | undefined): boolean;
}

export function makeTheme(noColor: boolean): Theme {
  return {
    colour: (tone) => (noColor || !tone ? undefined : COLOURS[tone]),
    dim: (tone) => noColor && tone === 'muted',
  };
}

export const LOOK_TONE: Record<TeammateLook, Tone> = {
  working: 'busy',
  idle: 'ok',
  waiting: 'warn',
  stalled: 'alert',
  dead: 'bad',
  starting: 'muted',
  stopping: 'muted',
  stopped: 'muted',
};
