/**
 * `teamd/testing`: what a program's own tests need to run teamd offline —
 * the scripted model, the fake Anthropic Messages server (for the real SDK
 * on 127.0.0.1), the in-memory stores and a manual clock for cron.
 * Nothing here is for production: the in-memory stores are not crash-safe.
 */
export { ScriptedModel, ScriptedModelOptionsSchema, type ScriptedModelOptions } from './model/scripted/scripted-model.js';
export { loadScript, parseScript } from './model/scripted/load.js';
export { ScriptSchema, scriptJsonSchema, type Script, type ScriptInput, type ScriptRule, type ScriptStep } from './model/scripted/schema.js';
export { describeReport, type ScriptReport } from './model/scripted/player.js';
export { startFakeAnthropicServer } from './model/fake-server/server.js';
export type { FakeAnthropicServer, FakeServerOptions, Fault, FaultMatch, RecordedRequest } from './model/fake-server/types.js';
export { FAULT_KINDS, FakeServerOptionsSchema, FaultSchema } from './model/fake-server/options.js';
export { MemoryMailbox, type Mailbox } from './store/mailbox/index.js';
export { TaskStore } from './store/tasks/index.js';
export { CronStore } from './store/cron/index.js';
export { ManualClock } from './cron/clock.js';
