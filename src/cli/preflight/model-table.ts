/**
 * What teamd assumes about each model the team uses (src/model/models.ts):
 * one `doctor` row per model. An id the table does not know (a local model)
 * is a warning that names the defaults assumed, never a failure.
 */
import type { TeamConfig } from '../../config/schema.js';
import { SCRIPTED_PREFIX } from '../../model/factory.js';
import { describeModel, modelInfo } from '../../model/models.js';
import { thinkingOptionsOf } from '../../model/thinking.js';
import { ok, warn, type Check } from './types.js';

export function modelTableChecks(config: TeamConfig, specs: string[]): Check[] {
  return specs.filter((s) => !s.startsWith(SCRIPTED_PREFIX)).map((spec) => tableCheck(config, spec));
}

function tableCheck(config: TeamConfig, spec: string): Check {
  const info = modelInfo(spec, config.prices);
  const detail = `${describeModel(info).slice(spec.length + 2)}${tuningOf(config, spec)}`;
  if (info.known) return ok(`model table ${spec}`, detail);
  return warn(
    `model table ${spec}`,
    detail,
    'set maxTokens (and prices) in .team/config.json if the endpoint allows more; thinking is not sent to it',
  );
}

/** The thinking and maxTokens the config asks for on this model (the team's, or the first teammate's using it). */
function tuningOf(config: TeamConfig, spec: string): string {
  const mate = config.teammates.find((t) => (t.model ?? config.model) === spec);
  const thinking = thinkingOptionsOf(mate, config);
  const maxTokens = mate?.maxTokens ?? config.maxTokens;
  const parts = [
    ...(maxTokens === undefined ? [] : [`maxTokens ${maxTokens}`]),
    ...(thinking?.thinking ? [`thinking: ${thinking.thinking}`] : []),
    ...(thinking?.effort ? [`effort: ${thinking.effort}`] : []),
  ];
  return parts.length ? `; configured: ${parts.join(', ')}` : '';
}
