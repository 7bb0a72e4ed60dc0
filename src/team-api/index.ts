/** The team API: a team of agents on a repository, for a program (docs/LIBRARY.md). */
export { Team } from './team.js';
export { TeammateRunner } from './runner.js';
export { TeamError, TeamOpenOptionsSchema, TeammateOptionsSchema } from './types.js';
export type { AgentEventOf, TeamOpenOptions, TeammateOptions, TeamStreamEvent } from './types.js';
