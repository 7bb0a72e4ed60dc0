/**
 * Where a model client's endpoint and credential come from. The Anthropic API
 * takes `ANTHROPIC_API_KEY`; compatible endpoints (Ollama, llama.cpp's server,
 * vLLM, LiteLLM, hosted gateways) document `ANTHROPIC_AUTH_TOKEN`, sent as
 * `Authorization: Bearer`. A teammate may name its own base URL and the
 * variable holding its token, so one teammate runs on a local model and
 * another on Claude. The variable's *name* travels in config; its value is
 * read only in the process that calls the model (the lead).
 */
import type { ModelError } from './types.js';

/** A teammate's (or the team's) endpoint settings, as in `.team/config.json`. */
export interface EndpointSettings {
  /** The Messages API's base URL, e.g. `http://localhost:11434` (default: `ANTHROPIC_BASE_URL`, else Anthropic). */
  baseURL?: string;
  /** The environment variable holding a token, sent as `Authorization: Bearer`. */
  tokenEnv?: string;
  /** The environment variable holding an API key (as `ANTHROPIC_API_KEY`). */
  apiKeyEnv?: string;
}

export interface ResolvedEndpoint {
  baseURL?: string;
  apiKey?: string;
  authToken?: string;
  /** What to fix when the credential is refused or missing, e.g. `ANTHROPIC_API_KEY`. */
  credentialSource: string;
}

const present = (value: string | undefined): string | undefined => (value ? value : undefined);

/** The endpoint and credential for `settings`, read from `env` now. */
export function resolveEndpoint(
  settings: EndpointSettings | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedEndpoint {
  const baseURL = present(settings?.baseURL) ?? present(env['ANTHROPIC_BASE_URL']);
  const at = baseURL === undefined ? {} : { baseURL };
  if (settings?.tokenEnv) {
    const authToken = present(env[settings.tokenEnv]);
    return {
      ...at,
      ...(authToken ? { authToken } : {}),
      credentialSource: `${settings.tokenEnv} (endpoint.tokenEnv)`,
    };
  }
  if (settings?.apiKeyEnv) {
    const apiKey = present(env[settings.apiKeyEnv]);
    return {
      ...at,
      ...(apiKey ? { apiKey } : {}),
      credentialSource: `${settings.apiKeyEnv} (endpoint.apiKeyEnv)`,
    };
  }
  const apiKey = present(env['ANTHROPIC_API_KEY']);
  if (apiKey) return { ...at, apiKey, credentialSource: 'ANTHROPIC_API_KEY' };
  const authToken = present(env['ANTHROPIC_AUTH_TOKEN']);
  if (authToken) return { ...at, authToken, credentialSource: 'ANTHROPIC_AUTH_TOKEN' };
  return { ...at, credentialSource: 'ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN' };
}

/** Explicit options win; else the environment's endpoint and credential. */
export function endpointOfOptions(options: {
  baseURL?: string;
  apiKey?: string;
  authToken?: string;
  credentialSource?: string;
}): ResolvedEndpoint {
  const fromEnv = resolveEndpoint(undefined);
  const baseURL = options.baseURL ?? fromEnv.baseURL;
  const at = baseURL === undefined ? {} : { baseURL };
  if (options.authToken !== undefined) {
    return {
      ...at,
      authToken: options.authToken,
      credentialSource: options.credentialSource ?? 'the authToken option',
    };
  }
  if (options.apiKey !== undefined) {
    return {
      ...at,
      apiKey: options.apiKey,
      credentialSource: options.credentialSource ?? 'the apiKey option',
    };
  }
  return { ...fromEnv, ...at, credentialSource: options.credentialSource ?? fromEnv.credentialSource };
}

/**
 * The SDK's credential option for a resolved endpoint. When the settings name
 * a variable that is unset, an empty token goes: never the key the SDK would
 * find in the environment, which belongs to another endpoint.
 */
export function sdkCredential(
  settings: EndpointSettings | undefined,
  resolved: ResolvedEndpoint,
): { apiKey?: string } | { authToken: string } {
  if (resolved.authToken !== undefined) return { authToken: resolved.authToken };
  if (resolved.apiKey !== undefined) return { apiKey: resolved.apiKey };
  return settings?.tokenEnv || settings?.apiKeyEnv ? { authToken: '' } : {};
}

/** An auth failure (401/403) with the setting to fix in its message; other errors unchanged. */
export function withCredentialHint(
  error: ModelError,
  endpoint: { baseURL?: string; credentialSource: string; hasCredential: boolean },
): ModelError {
  if (error.kind !== 'auth') return error;
  const where = endpoint.baseURL ?? 'https://api.anthropic.com';
  const variable = endpoint.credentialSource.replace(/ \(.*\)$/, '');
  const hint = endpoint.hasCredential
    ? `${where} refused the credential from ${endpoint.credentialSource}: set ${variable} to a key this endpoint accepts`
    : `no credential: ${endpoint.credentialSource} is not set (export ${variable.split(' or ')[0]}=<key>)`;
  return { ...error, message: `${error.message} — ${hint}` };
}
