/**
 * `teamd doctor` for teammates on the Claude Code engine: the CLI starts
 * (its version), and it can reach a model — logged in, or given a key by the
 * team's endpoint or the environment. Only `claude auth status` fields that
 * hold no secret are shown (how it authenticates, where a key came from).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { z } from 'zod';
import type { TeamConfig } from '../../config/schema.js';
import { claudeBin, claudeEnv } from '../../teammate/engines/claude-code/env.js';
import { failed, ok, type Check } from './types.js';

const run = promisify(execFile);

const AuthStatusSchema = z.looseObject({
  loggedIn: z.boolean(),
  authMethod: z.string().optional(),
  apiKeySource: z.string().optional(),
});

const usesClaudeCode = (config: TeamConfig) => config.teammates.filter((t) => (t.engine ?? config.engine) === 'claude-code');

async function authStatus(bin: string, env: NodeJS.ProcessEnv): Promise<z.infer<typeof AuthStatusSchema> | string> {
  // `auth status` exits 1 when logged out; its JSON still says so.
  const out = await run(bin, ['auth', 'status', '--json'], { env, timeout: 30_000 }).catch((e: { stdout?: string; message: string }) => e.stdout ?? e.message);
  const text = typeof out === 'string' ? out : out.stdout;
  try {
    const parsed = AuthStatusSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : 'claude auth status printed an unexpected shape';
  } catch {
    return 'claude auth status printed no JSON';
  }
}

/** One check per team that has Claude Code teammates; none otherwise. */
export async function checkClaudeCode(config: TeamConfig): Promise<Check[]> {
  const mates = usesClaudeCode(config);
  if (mates.length === 0) return [];
  const name = `claude-code (${mates.map((t) => t.name).join(', ')})`;
  const bin = claudeBin(config.claudeCode?.bin);
  const version = await run(bin, ['--version'], { timeout: 30_000 }).then((r) => r.stdout.trim(), () => null);
  if (version === null)
    return [failed(name, `cannot run ${bin}`, 'install Claude Code (npm i -g @anthropic-ai/claude-code), or set claudeCode.bin or TEAMD_CLAUDE_BIN')];
  const env = claudeEnv(mates[0]!.endpoint ?? config.endpoint, config.claudeCode?.env);
  const auth = await authStatus(bin, env);
  if (typeof auth === 'string') return [failed(name, `${version}; ${auth}`, 'run `claude auth status` to see why')];
  if (!auth.loggedIn)
    return [failed(name, `${version}; not logged in and no API key`, 'run `claude auth login`, or give the team an endpoint key (endpoint.apiKeyEnv) or ANTHROPIC_API_KEY')];
  const how = [auth.authMethod, auth.apiKeySource ? `from ${auth.apiKeySource}` : ''].filter(Boolean).join(' ');
  return [ok(name, `${version}; logged in${how ? ` (${how})` : ''}`)];
}
