/**
 * Can the team's models answer? A scripted model needs its script file to
 * load; a Claude model needs credentials the endpoint accepts, checked with
 * one cheap authenticated request (the models route, `GET /v1/models`) under
 * a short timeout. Nothing here spends tokens.
 */
import type { EndpointConfig, TeamConfig } from '../../config/schema.js';
import { classifyError } from '../../model/classify.js';
import { resolveEndpoint, sdkCredential } from '../../model/credentials.js';
import { createModelClient, SCRIPTED_PREFIX } from '../../model/factory.js';
import { failed, ok, warn, type Check } from './types.js';

export interface ModelCheckOptions {
  /** Default 8 s. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** A model and the endpoint it is called on. */
export interface ModelUseSpec {
  spec: string;
  endpoint?: EndpointConfig | undefined;
}

/** Every model the team will call (teammates, and the lead's own agent when it runs one), on its endpoint. */
export function modelUses(config: TeamConfig, leadAgent: boolean): ModelUseSpec[] {
  // A Claude Code teammate's model is the CLI's to call (and its login to use): `checkClaudeCode` looks at that.
  const uses = config.teammates
    .filter((t) => (t.engine ?? config.engine) !== 'claude-code')
    .map((t) => ({ spec: t.model ?? config.model, endpoint: t.endpoint ?? config.endpoint }));
  if (leadAgent || config.lead.agent)
    uses.push({ spec: config.lead.model ?? config.model, endpoint: config.lead.endpoint ?? config.endpoint });
  return uses;
}

/** Every model name the team will call. */
export const modelSpecs = (config: TeamConfig, leadAgent: boolean): string[] => [
  ...new Set(modelUses(config, leadAgent).map((u) => u.spec)),
];

export async function checkModels(
  repoRoot: string,
  uses: (string | ModelUseSpec)[],
  options: ModelCheckOptions = {},
): Promise<Check[]> {
  const all = uses.map((u) => (typeof u === 'string' ? { spec: u } : u));
  const scripted = [...new Set(all.filter((u) => u.spec.startsWith(SCRIPTED_PREFIX)).map((u) => u.spec))];
  const checks = await Promise.all(scripted.map((s) => checkScript(repoRoot, s)));
  // One request per endpoint answers for every model on it: the credentials are the endpoint's.
  for (const [endpoint, models] of byEndpoint(all.filter((u) => !u.spec.startsWith(SCRIPTED_PREFIX))))
    checks.push(await checkEndpoint(models, endpoint, options));
  return checks;
}

function byEndpoint(uses: ModelUseSpec[]): Map<EndpointConfig | undefined, string[]> {
  const groups = new Map<string, { endpoint: EndpointConfig | undefined; models: Set<string> }>();
  for (const u of uses) {
    const key = JSON.stringify(u.endpoint ?? null);
    const group = groups.get(key) ?? { endpoint: u.endpoint, models: new Set<string>() };
    group.models.add(u.spec);
    groups.set(key, group);
  }
  return new Map([...groups.values()].map((g) => [g.endpoint, [...g.models]]));
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

async function checkEndpoint(
  models: string[],
  endpoint: EndpointConfig | undefined,
  options: ModelCheckOptions,
): Promise<Check> {
  const resolved = resolveEndpoint(endpoint, options.env ?? process.env);
  const name = `model ${models.join(', ')}`;
  const baseURL = resolved.baseURL ?? 'https://api.anthropic.com';
  const credential = sdkCredential(endpoint, resolved);
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  try {
    const client = new Anthropic({ ...credential, baseURL, maxRetries: 1, timeout: options.timeoutMs ?? 8_000 });
    await client.models.list({ limit: 1 });
    return ok(name, `${baseURL} accepted the credentials`);
  } catch (err) {
    const has = resolved.apiKey !== undefined || resolved.authToken !== undefined;
    return endpointFailure(name, baseURL, { has, source: resolved.credentialSource }, err);
  }
}

function endpointFailure(
  name: string,
  baseURL: string,
  credential: { has: boolean; source: string },
  err: unknown,
): Check {
  const e = classifyError(err);
  const variable = credential.source.replace(/ \(.*\)$/, '').split(' or ')[0]!;
  const hasKey = credential.has;
  if (e.status === 404)
    return warn(name, `${baseURL} has no models route (404); the credentials were not checked`);
  if (e.kind === 'auth' && !hasKey)
    return failed(
      name,
      `no API key: ${credential.source} is not set`,
      `export ${variable}=<your key> (or use --model scripted:<file> to run offline)`,
    );
  if (e.kind === 'auth')
    return failed(
      name,
      `model authentication failed: ${baseURL} refused the key from ${credential.source} (${e.message})`,
      `set ${variable} to a valid key for this endpoint`,
    );
  if (e.kind === 'connection')
    return failed(name, `cannot reach ${baseURL}: ${e.message}`, 'check the network and ANTHROPIC_BASE_URL');
  return failed(
    name,
    `${baseURL} answered ${e.status ?? e.kind}: ${e.message}`,
    'the endpoint is failing; try again later, or check ANTHROPIC_BASE_URL',
  );
}
