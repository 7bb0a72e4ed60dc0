/**
 * `teamd mcp` under generated hostile input at full size (FAULTS=full, `npm
 * run test:faults`); inside `npm test` test/mcp-server/adversarial.test.ts
 * runs the same suite small, so this file only says so.
 */
import { it } from 'vitest';
import { adversarialSuite } from '../mcp-server/adversarial-suite.js';
import { FULL, SEED } from './support/scale.js';

if (FULL) adversarialSuite(400, SEED);
else it.skip('runs only under npm run test:faults (small: test/mcp-server/adversarial.test.ts)', () => {});
