import type { ScriptInput } from '../../../../src/model/scripted/schema.js';

/**
 * Task `slow`: the first attempt leaves `marker` and hangs in bash (a teammate
 * to kill mid-task); the retry sees the marker and finishes.
 */
export function slowTaskScript(marker: string): ScriptInput {
  const command = `if [ -f ${marker} ]; then echo second-attempt; else touch ${marker}; sleep 60; fi`;
  return {
    rules: [
      { conversation: 'Task slow:', turn: 0, times: 'always', content: [{ type: 'tool_use', name: 'bash', input: { command } }] },
      { conversation: 'Task slow:', turn: 1, match: 'second-attempt', content: [{ type: 'text', text: 'finished on the second attempt' }] },
    ],
  };
}
