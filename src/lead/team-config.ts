import { loadRoles } from '../agent/subagents/index.js';
import { loadConfig } from '../config/load.js';
import { z } from 'zod';
import { loadSkills } from '../agent/subagents/skills.js';
import { applyAgentRole } from './agent-role.js';
import { HostConfigSchema, TeamConfigSchema, TeammateConfigSchema, type HostConfig, type TeamConfig } from '../config/schema.js';

export interface ConfigOverrides {
  /** `--model`: every agent uses this model. */
  model?: string;
  /** `--teammates N`: exactly N teammates (the configured ones first, then worker-K). */
  teammates?: number;
  /** `--host KIND`: every teammate runs on this host kind (its other settings from the team's `host` when of that kind). */
  host?: HostConfig['kind'];
  /** Programmatic overrides (tests, embedding), merged over the file. */
  patch?: Partial<TeamConfig>;
}

/** The team as this run sees it: `.team/config.json`, then the command line. Errors name the file and field. */
export async function resolveTeamConfig(
  repoRoot: string,
  o: ConfigOverrides,
): Promise<{ ok: true; config: TeamConfig; warnings?: string[] } | { ok: false; error: string }> {
  const loaded = await loadConfig(repoRoot);
  if (!loaded.ok) return loaded;
  let config: TeamConfig = o.patch ? TeamConfigSchema.parse({ ...loaded.config, ...o.patch }) : loaded.config;
  if (o.model)
    config = {
      ...config,
      model: o.model,
      lead: { ...config.lead, model: undefined },
      teammates: config.teammates.map((t) => ({ ...t, model: undefined })),
    };
  if (o.host !== undefined) {
    const host = hostOverride(config, o.host);
    if (!host.ok) return host;
    // A teammate's own host of that kind stays (a pool of ssh machines, each with its target).
    config = { ...config, host: host.host, teammates: config.teammates.map((t) => ({ ...t, host: t.host?.kind === o.host ? t.host : undefined })) };
  }
  if (o.teammates !== undefined) config = { ...config, teammates: sized(config, o.teammates) };
  const roles = await resolveRoles(repoRoot, config);
  if (!roles.ok) return roles;
  config = roles.config;
  const names = config.teammates.map((t) => t.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) return { ok: false, error: `.team/config.json: teammates: the name "${dup}" is used twice` };
  const reserved = names.find((n) => n === 'lead' || n === 'user' || n === 'any');
  if (reserved) return { ok: false, error: `.team/config.json: teammates: "${reserved}" is a reserved name` };
  // What of the agent files of `agent:<name>` teammates was not used as written: shown at start.
  return { ok: true, config, warnings: roles.warnings };
}

function hostOverride(config: TeamConfig, kind: string): { ok: true; host: HostConfig | undefined } | { ok: false; error: string } {
  if (config.host?.kind === kind) return { ok: true, host: config.host };
  const parsed = HostConfigSchema.safeParse({ kind });
  if (parsed.success) return { ok: true, host: parsed.data };
  if (!HOST_KINDS.includes(kind)) return { ok: false, error: `--host: "${kind}" is not a host kind (${HOST_KINDS.join(', ')})` };
  // A kind with required settings (ssh: the target): every teammate must have its own then.
  const without = config.teammates.filter((t) => t.host?.kind !== kind).map((t) => t.name);
  if (config.teammates.length > 0 && without.length === 0) return { ok: true, host: undefined };
  return {
    ok: false,
    error: `--host ${kind}: the "${kind}" host needs settings — put "host": { "kind": "${kind}", … } in .team/config.json (the team's, or each teammate's; missing for ${without.join(', ') || 'the team'}): ${z.prettifyError(parsed.error)}`,
  };
}

const HOST_KINDS: string[] = HostConfigSchema.options.map((o) => o.shape.kind.value);

function sized(config: TeamConfig, n: number): TeamConfig['teammates'] {
  const out = config.teammates.slice(0, n);
  for (let k = 1; out.length < n; k++) {
    const name = `worker-${k}`;
    if (!out.some((t) => t.name === name)) out.push(TeammateConfigSchema.parse({ name }));
  }
  return out;
}

/**
 * `role: "agent:<name>"` takes the role from `.claude/agents/<name>.md` (the
 * files Claude Code users already have), as `applyAgentRole` says.
 */
async function resolveRoles(
  repoRoot: string,
  config: TeamConfig,
): Promise<{ ok: true; config: TeamConfig; warnings: string[] } | { ok: false; error: string }> {
  if (!config.teammates.some((t) => t.role.startsWith('agent:'))) return { ok: true, config, warnings: [] };
  const { roles } = await loadRoles(repoRoot);
  const teammates: TeamConfig['teammates'] = [];
  const warnings = new Set<string>();
  for (const [i, t] of config.teammates.entries()) {
    if (!t.role.startsWith('agent:')) {
      teammates.push(t);
      continue;
    }
    const name = t.role.slice('agent:'.length);
    const role = roles.get(name);
    if (!role)
      return {
        ok: false,
        error: `.team/config.json: teammates.${i}.role: no role "${name}" in .claude/agents/ (known: ${[...roles.keys()].join(', ')})`,
      };
    const skills = await loadSkills(role.skills, repoRoot, role.source);
    for (const w of [...(role.warnings ?? []), ...skills.warnings]) warnings.add(w);
    teammates.push(applyAgentRole(t, role, config.permissions, skills));
  }
  return { ok: true, config: { ...config, teammates }, warnings: [...warnings] };
}
