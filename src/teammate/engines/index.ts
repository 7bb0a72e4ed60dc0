/** Which engine runs a teammate's sessions: its own `engine`, else the team's. */
import type { TeammateHost } from '../host.js';
import type { RuntimeSpec } from '../runtime-factory.js';
import { startClaudeCodeEngine } from './claude-code/index.js';
import { startTeamdEngine } from './teamd.js';
import type { EngineName, EngineSession } from './types.js';

export { EngineCrash, type EngineSession } from './types.js';

export const engineOf = (host: TeammateHost): EngineName => host.deps.data.teammate.engine ?? host.deps.data.team.engine;

export function startEngine(host: TeammateHost, spec: RuntimeSpec): EngineSession {
  return engineOf(host) === 'claude-code' ? startClaudeCodeEngine(host, spec) : startTeamdEngine(host, spec);
}
