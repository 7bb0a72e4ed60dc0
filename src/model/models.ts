/**
 * The model table: what teamd assumes about each model id — its context
 * window, its maximum output, how it thinks, whether it takes `effort` — next
 * to its price (pricing.ts). Keys are id prefixes, the longest wins, so dated
 * ids and provider prefixes (`us.anthropic.…`) match too. An id the table does
 * not know (a local model behind Ollama, llama.cpp, vLLM) gets safe defaults:
 * a modest window and output, no thinking, no effort. It is never refused.
 * Source: platform.claude.com models overview, as of 2026-10.
 */
import { claudeId, longestPrefix, priceOf, type ModelPrice, type PriceOverrides } from './pricing.js';

/** `adaptive`: takes `{type:'adaptive'}` (and a fixed budget); `enabled`: only a fixed budget; `none`: no thinking. */
export type ThinkingSupport = 'adaptive' | 'enabled' | 'none';

export interface ModelSpec {
  contextWindow: number;
  maxOutputTokens: number;
  thinking: ThinkingSupport;
  /** Takes `output_config.effort`. */
  effort: boolean;
}

export interface ModelInfo extends ModelSpec {
  id: string;
  /** False when the id is not in the table and the defaults were assumed. */
  known: boolean;
  price: ModelPrice | undefined;
}

const spec = (
  contextWindow: number,
  maxOutputTokens: number,
  thinking: ThinkingSupport,
  effort: boolean,
): ModelSpec => ({
  contextWindow,
  maxOutputTokens,
  thinking,
  effort,
});
const K = 1_000;
const M = 1_000_000;

export const MODELS: Readonly<Record<string, ModelSpec>> = {
  'claude-fable': spec(M, 128 * K, 'adaptive', true),
  'claude-mythos': spec(M, 128 * K, 'adaptive', true),
  'claude-opus-5': spec(M, 128 * K, 'adaptive', true),
  'claude-opus-4-8': spec(M, 128 * K, 'adaptive', true),
  'claude-opus-4-7': spec(M, 128 * K, 'adaptive', true),
  'claude-opus-4-6': spec(M, 128 * K, 'adaptive', true),
  'claude-opus-4-5': spec(200 * K, 64 * K, 'enabled', true),
  'claude-opus-4': spec(200 * K, 32 * K, 'enabled', false),
  'claude-sonnet-5': spec(M, 128 * K, 'adaptive', true),
  'claude-sonnet-4-6': spec(M, 64 * K, 'adaptive', true),
  'claude-sonnet-4': spec(200 * K, 64 * K, 'enabled', false),
  'claude-3-7-sonnet': spec(200 * K, 64 * K, 'enabled', false),
  'claude-3-5-sonnet': spec(200 * K, 8_192, 'none', false),
  'claude-haiku-5': spec(M, 128 * K, 'adaptive', true),
  'claude-haiku-4-5': spec(200 * K, 64 * K, 'enabled', false),
  'claude-3-5-haiku': spec(200 * K, 8_192, 'none', false),
  'claude-3-haiku': spec(200 * K, 4_096, 'none', false),
  'claude-fake': spec(200 * K, 64 * K, 'adaptive', true),
};

/** What an unknown (local or compatible-endpoint) model is assumed to be. */
export const UNKNOWN_MODEL: ModelSpec = spec(32_768, 8_192, 'none', false);

/** The table's entry for `model`, or the safe defaults (`known: false`). */
export function modelInfo(model: string, prices?: PriceOverrides): ModelInfo {
  const key = longestPrefix(Object.keys(MODELS), claudeId(model));
  const found = key === undefined ? undefined : MODELS[key];
  return {
    id: model,
    known: found !== undefined,
    ...(found ?? UNKNOWN_MODEL),
    price: priceOf(model, prices),
  };
}

/** One line saying what is assumed about a model, e.g. for `agent -p` and `doctor`. */
export function describeModel(info: ModelInfo): string {
  const facts =
    `context ${tokens(info.contextWindow)}, max output ${tokens(info.maxOutputTokens)}, ` +
    `thinking ${info.thinking}${info.effort ? ', effort' : ''}, ${info.price ? priceText(info.price) : 'no price (cost counts 0)'}`;
  return info.known ? `${info.id}: ${facts}` : `${info.id}: not in teamd's model table; assuming ${facts}`;
}

const tokens = (n: number): string =>
  n >= M ? `${n / M}M` : n >= K && n % K === 0 ? `${n / K}k` : String(n);
const priceText = (p: ModelPrice): string => `$${p.input}/$${p.output} per Mtok in/out`;

const warned = new Set<string>();

/** Warns once per process about an unknown model id (never more, never a refusal). */
export function warnUnknownModel(info: ModelInfo, warn: (line: string) => void): void {
  if (info.known || warned.has(info.id)) return;
  warned.add(info.id);
  warn(describeModel(info));
}
