/**
 * Two hook runners as one: an agent file's own hooks beside the session's.
 * Both run for every event (in parallel) and their outcomes merge by the
 * rules one runner applies to its hooks (any block blocks; deny beats ask
 * beats allow; contexts are joined).
 */
import { mergeVerdicts } from './hook-output.js';
import { HOOK_EVENTS } from './parse.js';
import type { HookRunner, HookSettings } from './types.js';

function mergedSettings(a: HookSettings, b: HookSettings): HookSettings {
  const out: HookSettings = {};
  for (const event of HOOK_EVENTS) {
    const both = [...(a[event] ?? []), ...(b[event] ?? [])];
    if (both.length > 0) out[event] = both;
  }
  return out;
}

export function stackHookRunners(first: HookRunner | undefined, second: HookRunner): HookRunner {
  if (first === undefined) return second;
  const runners = [first, second];
  return {
    settings: mergedSettings(first.settings, second.settings),
    has: (event) => runners.some((r) => r.has(event)),
    run: async (event, payload, opts) => {
      const outcomes = await Promise.all(runners.filter((r) => r.has(event)).map((r) => r.run(event, payload, opts)));
      return mergeVerdicts(outcomes, outcomes.flatMap((o) => o.results));
    },
    useMcpTools: (caller) => runners.forEach((r) => r.useMcpTools?.(caller)),
    onAsyncOutput: (listener) => {
      const offs = runners.map((r) => r.onAsyncOutput?.(listener));
      return () => offs.forEach((off) => off?.());
    },
  };
}

/** A subagent's own `Stop` hooks are `SubagentStop` hooks (Claude Code's rule for agent files). */
export function asSubagentHooks(settings: HookSettings): HookSettings {
  const { Stop, ...rest } = settings;
  if (Stop === undefined) return settings;
  return { ...rest, SubagentStop: [...(rest.SubagentStop ?? []), ...Stop] };
}
