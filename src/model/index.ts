/** The model layer: one `ModelClient` interface, the Anthropic client, the scripted model, pricing, test server. */
export * from './types.js';
export {
  MODELS,
  UNKNOWN_MODEL,
  describeModel,
  modelInfo,
  warnUnknownModel,
  type ModelInfo,
  type ModelSpec,
} from './models.js';
export { thinkingOptionsOf, thinkingParams } from './thinking.js';
export { AnthropicModel, type AnthropicModelOptions } from './anthropic.js';
export { classifyError } from './classify.js';
export { isRetryableKind, kindOfErrorType, kindOfStatus, modelError } from './errors.js';
export {
  DEFAULT_BACKOFF,
  DEFAULT_RETRY_POLICY,
  backoffDelay,
  retryAfterMs,
  type BackoffOptions,
  type RetryPolicy,
} from './retry.js';
export { resolveEndpoint, type EndpointSettings, type ResolvedEndpoint } from './credentials.js';
export {
  PRICES,
  UsageLedger,
  costOf,
  priceOf,
  type LedgerSnapshot,
  type ModelPrice,
  type PriceOverride,
  type PriceOverrides,
} from './pricing.js';
export { addUsage, usageOf } from './usage.js';
export { RecordingModel, type RecordingOptions } from './recording.js';
export { SCRIPTED_PREFIX, createModelClient, ModelClientOptionsSchema, type ModelClientOptions } from './factory.js';
export { ScriptedModel, type ScriptedModelOptions } from './scripted/scripted-model.js';
export {
  ScriptPlayer,
  describeReport,
  type ScriptReport,
  type ScriptTake,
  type EntryUse,
} from './scripted/player.js';
export {
  ScriptSchema,
  ScriptRuleSchema,
  ScriptStepSchema,
  scriptJsonSchema,
  type Script,
  type ScriptInput,
  type ScriptRule,
  type ScriptStep,
} from './scripted/schema.js';
export { loadScript, parseScript } from './scripted/load.js';
export { factsOf, type CallFacts, type ScriptCall } from './scripted/conversation.js';
export { startFakeAnthropicServer } from './fake-server/server.js';
export type {
  FakeAnthropicServer,
  FakeServerOptions,
  Fault,
  FaultMatch,
  RecordedRequest,
} from './fake-server/types.js';
