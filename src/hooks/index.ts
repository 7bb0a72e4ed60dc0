export { loadHookSettings, parseHookSettings, HOOK_EVENTS, type LoadedHookSettings } from './settings.js';
export { createHookRunner, matcherFits } from './runner.js';
export type {
  HookCommand,
  HookCommandResult,
  HookEventName,
  HookMatcher,
  HookOutcome,
  HookRunner,
  HookRunnerOptions,
  HookSettings,
} from './types.js';
