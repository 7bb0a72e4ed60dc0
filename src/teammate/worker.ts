/** The entry of a teammate's worker thread (the `thread` host): the teammate on `parentPort`. */
import { parentPort, workerData } from 'node:worker_threads';
import { runTeammate } from './run.js';

if (!parentPort) throw new Error('teammate/worker.ts must run in a worker thread');
void runTeammate(parentPort, workerData);
