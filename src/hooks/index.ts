export {
  loadHookSettings,
  parseHookSettings,
  HOOK_EVENTS,
  type HookLoadOptions,
  type LoadedHooks,
  type LoadedHookSettings,
} from './settings.js';
export { createHookRunner, matcherFits } from './runner.js';
export { asyncReminder } from './async-output.js';
export { httpHookUrlAllowed } from './http-hook.js';
export { hookSession, defaultHookTranscriptDir, type HookSession } from './session.js';
export { recentHookFailures, recordHookFailure } from './failure-log.js';
export { loadPlugins, pluginFolders, type LoadedPlugin } from './plugins.js';
export type {
  HookAgent,
  HookAsyncOutput,
  HookCommand,
  HookHandler,
  HookHttp,
  HookMcpTool,
  HookPrompt,
  HookCommandResult,
  HookEventName,
  HookFailure,
  HookMatcher,
  HookOutcome,
  HookRunner,
  HookRunnerOptions,
  HookSettings,
} from './types.js';
