/** The model a role asks for: its own, an alias of a current Anthropic model, or the parent's. */
import { createModelClient, SCRIPTED_PREFIX } from '../../model/factory.js';
import type { ModelClient } from '../../model/types.js';

/** Claude Code's role files name models by family. */
export const MODEL_ALIASES: Readonly<Record<string, string>> = {
  sonnet: 'claude-sonnet-5-5',
  opus: 'claude-opus-5-5',
  haiku: 'claude-haiku-5-5',
};

/**
 * `inherit` or no model: the parent's client. A scripted parent keeps its
 * script for every role (an offline run must stay offline). Otherwise a new
 * client for the named (or aliased) model.
 */
export async function defaultModelFor(parent: ModelClient, model: string | undefined): Promise<ModelClient> {
  if (model === undefined || model === 'inherit' || parent.model.startsWith(SCRIPTED_PREFIX)) return parent;
  const name = MODEL_ALIASES[model] ?? model;
  return name === parent.model ? parent : createModelClient(name);
}
