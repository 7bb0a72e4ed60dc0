import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread on a module. From compiled JS a plain Worker works;
 * from TypeScript (tests, `node --import tsx`) Node 20 cannot load a `.ts`
 * entry through execArgv, so a small eval shim loads tsx inside the worker and
 * imports the module through it.
 */
export function spawnWorker(moduleUrl: URL, workerData: unknown): Worker {
  if (!moduleUrl.pathname.endsWith('.ts')) return new Worker(moduleUrl, { workerData });
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const source = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) =>
    tsImport(${JSON.stringify(moduleUrl.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(source, { eval: true, workerData });
}

/** The teammate entry next to this file, in whichever form (.ts or .js) is running. */
export function teammateEntryUrl(): URL {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`../teammate/worker${ext}`, import.meta.url);
}
