/**
 * Can the team's models answer? A scripted model needs its script file to
 * load; a Claude model needs credentials the endpoint accepts, checked with
 * one cheap authenticated request (the models route, `GET /v1/models`) under
 * a short timeout. Nothing here spends tokens.
 */
import type { TeamConfig } from '../../config/schema.js';
import { classifyError } from '../../model/classify.js';
import { createModelClient, SCRIPTED_PREFIX } from '../../model/factory.js';
import { failed, ok, warn, type Check } from './types.js';

export interface ModelCheckOptions {
  /** Default 8 s. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** Every model the team will call (teammates, and the lead's own agent when it runs one). */
export function modelSpecs(config: TeamConfig, leadAgent: boolean): string[] {
  const specs = config.teammates.map((t) => t.model ?? config.model);
  if (leadAgent || config.lead.agent) specs.push(config.lead.model ?? config.model);
  return [...new Set(specs)];
}

export async function checkModels(
  repoRoot: string,
  specs: string[],
  options: ModelCheckOptions = {},
): Promise<Check[]> {
  const scripted = specs.filter((s) => s.startsWith(SCRIPTED_PREFIX));
  const checks = await Promise.all(scripted.map((s) => checkScript(repoRoot, s)));
  // One request answers for every Claude model: the credentials and the endpoint are the team's.
  const claude = specs.filter((s) => !s.startsWith(SCRIPTED_PREFIX));
  if (claude.length) checks.push(await checkEndpoint(claude, options));
  return checks;
}

async function checkScript(repoRoot: string, spec: string): Promise<Check> {
  try {
    await createModelClient(spec, { cwd: repoRoot });
    return ok(`model ${spec}`, 'script loads (no key needed)');
  } catch (err) {
    return failed(
      `model ${spec}`,
      (err as Error).message,
      'fix the script file named above, or pass --model with another model',
    );
  }
}

async function checkEndpoint(models: string[], options: ModelCheckOptions): Promise<Check> {
  const env = options.env ?? process.env;
  const name = `model ${models.join(', ')}`;
  const baseURL = env['ANTHROPIC_BASE_URL'] || 'https://api.anthropic.com';
  const apiKey = env['ANTHROPIC_API_KEY'] || undefined;
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  try {
    const client = new Anthropic({ apiKey, baseURL, maxRetries: 1, timeout: options.timeoutMs ?? 8_000 });
    await client.models.list({ limit: 1 });
    return ok(name, `${baseURL} accepted the credentials`);
  } catch (err) {
    return endpointFailure(name, baseURL, apiKey !== undefined, err);
  }
}

function endpointFailure(name: string, baseURL: string, hasKey: boolean, err: unknown): Check {
  const e = classifyError(err);
  if (e.status === 404)
    return warn(name, `${baseURL} has no models route (404); the credentials were not checked`);
  if (e.kind === 'auth' && !hasKey)
    return failed(
      name,
      'no API key: ANTHROPIC_API_KEY is not set',
      'export ANTHROPIC_API_KEY=<your key> (or use --model scripted:<file> to run offline)',
    );
  if (e.kind === 'auth')
    return failed(
      name,
      `model authentication failed: ${baseURL} refused the key (${e.message})`,
      'set ANTHROPIC_API_KEY to a valid key for this endpoint',
    );
  if (e.kind === 'connection')
    return failed(name, `cannot reach ${baseURL}: ${e.message}`, 'check the network and ANTHROPIC_BASE_URL');
  return failed(
    name,
    `${baseURL} answered ${e.status ?? e.kind}: ${e.message}`,
    'the endpoint is failing; try again later, or check ANTHROPIC_BASE_URL',
  );
}
