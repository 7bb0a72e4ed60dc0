/**
 * `teamd mcp` under generated hostile input at full size: 400 runs per
 * property (`npm run test:faults`; test/faults/full/ is outside `npm test`,
 * where test/mcp-server/adversarial.test.ts runs the same suite small).
 */
import { adversarialSuite } from '../../mcp-server/adversarial-suite.js';
import { SEED } from '../support/scale.js';

adversarialSuite(400, SEED);
