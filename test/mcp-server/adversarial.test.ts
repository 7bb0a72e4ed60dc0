/** The adversarial suite at the size of `npm test` (adversarial-suite.ts; large: test/faults/full/mcp-hostile-input.test.ts). */
import { adversarialSuite } from './adversarial-suite.js';

adversarialSuite(25);
