/**
 * The request's `thinking` and `output_config` parameters, from a teammate's
 * thinking options and what its model supports (models.ts). What a model
 * cannot do degrades instead of failing: `adaptive` on a budget-only model is
 * sent as `enabled` with the budget; thinking on a model without it, or effort
 * on a model that does not take it, is left out.
 */
import type { ModelInfo } from './models.js';
import type { ThinkingOptions } from './types.js';

export const DEFAULT_THINKING_BUDGET = 10_000;
/** The smallest budget the API accepts. */
export const MIN_THINKING_BUDGET = 1_024;

export type ThinkingParam = { type: 'adaptive' } | { type: 'enabled'; budget_tokens: number };
export interface ThinkingParams {
  thinking?: ThinkingParam;
  output_config?: { effort: NonNullable<ThinkingOptions['effort']> };
}

export function thinkingParams(info: ModelInfo, options: ThinkingOptions, maxTokens: number): ThinkingParams {
  const thinking = thinkingParam(info, options, maxTokens);
  const effort = info.effort && options.effort !== undefined ? { effort: options.effort } : undefined;
  return { ...(thinking ? { thinking } : {}), ...(effort ? { output_config: effort } : {}) };
}

function thinkingParam(
  info: ModelInfo,
  options: ThinkingOptions,
  maxTokens: number,
): ThinkingParam | undefined {
  const mode = options.thinking ?? 'off';
  if (mode === 'off' || info.thinking === 'none') return undefined;
  if (mode === 'adaptive' && info.thinking === 'adaptive') return { type: 'adaptive' };
  // the budget must stay below max_tokens, and at least the API's minimum
  const budget = Math.min(options.thinkingBudget ?? DEFAULT_THINKING_BUDGET, maxTokens - 1);
  return budget < MIN_THINKING_BUDGET ? undefined : { type: 'enabled', budget_tokens: budget };
}

/** The thinking settings of the first layer that has each one (a teammate's config, then the team's). */
export function thinkingOptionsOf(...layers: (ThinkingOptions | undefined)[]): ThinkingOptions | undefined {
  const pick = <K extends keyof ThinkingOptions>(key: K): ThinkingOptions[K] =>
    layers.find((layer) => layer?.[key] !== undefined)?.[key];
  const options: ThinkingOptions = {};
  for (const key of ['thinking', 'thinkingBudget', 'effort'] as const) {
    const value = pick(key);
    if (value !== undefined) Object.assign(options, { [key]: value });
  }
  return Object.keys(options).length === 0 ? undefined : options;
}
