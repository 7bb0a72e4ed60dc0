/**
 * Choosing a model client from a spec string (config `model`, CLI `--model`)
 * and options. Each kind of client is imported when it is chosen, so a
 * process (a teammate thread) loads only the one it uses.
 */
import { resolve } from 'node:path';
import { resolveEndpoint, sdkCredential, type EndpointSettings } from './credentials.js';
import { z } from 'zod';
import { objectOf, OptionsError, parseOptions } from '../config/options.js';
import type { PriceOverrides } from './pricing.js';
import type { ModelClient } from './types.js';

/** The options of `createModelClient`, validated: a bad one throws an `OptionsError` naming it. */
export const ModelClientOptionsSchema = z.strictObject({
  /** `--record <path>`: also save every answer to this script file. */
  record: z.string().min(1).optional(),
  recordMode: z.enum(['match', 'ordered']).optional(),
  apiKey: z.string().optional(),
  baseURL: z.url().optional(),
  /** Base URL and the variable holding the credential (read from the environment now); explicit apiKey/baseURL win. */
  endpoint: objectOf<EndpointSettings>('{ baseURL?, tokenEnv?, apiKeyEnv? }').optional(),
  /** The team's `retry` settings. */
  retry: z
    .strictObject({
      maxRetries: z.number().int().nonnegative().optional(),
      capMs: z.number().int().positive().optional(),
      baseDelayMs: z.number().int().nonnegative().optional(),
      maxDelayMs: z.number().int().nonnegative().optional(),
    })
    .optional(),
  /** An upper bound on max_tokens per call. */
  maxTokens: z.number().int().positive().optional(),
  fallbackModel: z.string().min(1).optional(),
  prices: objectOf<PriceOverrides>('model name → { input, output, cacheRead?, cacheWrite? }').optional(),
  /** Relative script and record paths resolve against this (default: the process cwd). */
  cwd: z.string().min(1).optional(),
});
export type ModelClientOptions = z.input<typeof ModelClientOptionsSchema>;

export const SCRIPTED_PREFIX = 'scripted:';

/**
 * `scripted:<path>` → a `ScriptedModel` playing that file; anything else is an
 * Anthropic model name. With `record`, the client is wrapped in a
 * `RecordingModel`. Rejects with a message naming the file for a bad script.
 */
export async function createModelClient(
  spec: string,
  given: ModelClientOptions = {},
): Promise<ModelClient> {
  if (typeof spec !== 'string' || spec === '')
    throw new OptionsError('createModelClient', ['spec: expected a model name or "scripted:<path>"']);
  const options = parseOptions('createModelClient options', ModelClientOptionsSchema, given);
  const cwd = options.cwd ?? process.cwd();
  const client = spec.startsWith(SCRIPTED_PREFIX)
    ? await scriptedClient(spec, cwd)
    : await anthropicClient(spec, options);
  if (options.record === undefined) return client;
  const { RecordingModel } = await import('./recording.js');
  const mode = options.recordMode ?? 'match';
  return new RecordingModel(client, { file: resolve(cwd, options.record), mode });
}

async function scriptedClient(spec: string, cwd: string): Promise<ModelClient> {
  const { ScriptedModel } = await import('./scripted/scripted-model.js');
  return ScriptedModel.fromFile(resolve(cwd, spec.slice(SCRIPTED_PREFIX.length)), { model: spec });
}

async function anthropicClient(spec: string, options: ModelClientOptions): Promise<ModelClient> {
  const { AnthropicModel } = await import('./anthropic.js');
  return new AnthropicModel({
    model: spec,
    ...endpointOptions(options.endpoint),
    ...retryOptions(options.retry),
    ...pick(options, ['apiKey', 'baseURL', 'maxTokens', 'fallbackModel', 'prices']),
  });
}

/** A configured endpoint as client options (nothing when none is configured: the client reads the environment). */
function endpointOptions(endpoint: EndpointSettings | undefined) {
  if (endpoint === undefined) return {};
  const resolved = resolveEndpoint(endpoint);
  const { baseURL, credentialSource } = resolved;
  const credential = sdkCredential(endpoint, resolved);
  return { ...(baseURL === undefined ? {} : { baseURL }), ...credential, credentialSource };
}

function retryOptions(retry: ModelClientOptions['retry']) {
  if (retry === undefined) return {};
  const backoff = pick(retry, ['baseDelayMs', 'maxDelayMs']);
  return {
    ...(retry.maxRetries === undefined ? {} : { maxRetries: retry.maxRetries }),
    ...(retry.capMs === undefined ? {} : { retryCapMs: retry.capMs }),
    backoff,
  };
}

function pick<T extends object, K extends keyof T>(from: T, keys: K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) if (from[key] !== undefined) picked[key] = from[key];
  return picked;
}
