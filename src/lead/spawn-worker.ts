import { Worker, type ResourceLimits, type WorkerOptions } from 'node:worker_threads';

/**
 * The heap limits of a teammate thread. V8 lets a thread's young generation
 * grow to 3 × 16 MB semi-spaces and keeps it when the thread goes idle, which
 * is most of a teammate's life; capped, an idle teammate costs less without a
 * measurable slower turn (see bench/memory and bench/runtime).
 */
export const TEAMMATE_RESOURCE_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 8 };

/**
 * Starts a worker thread on a module. From compiled JS a plain Worker works;
 * from TypeScript (tests, `node --import tsx`) Node 20 cannot load a `.ts`
 * entry through execArgv, so a small eval shim loads tsx inside the worker and
 * imports the module through it.
 */
export function spawnWorker(moduleUrl: URL, workerData: unknown): Worker {
  const options: WorkerOptions = { workerData, resourceLimits: TEAMMATE_RESOURCE_LIMITS };
  if (!moduleUrl.pathname.endsWith('.ts')) return startCompiled(moduleUrl, options);
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const source = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) =>
    tsImport(${JSON.stringify(moduleUrl.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(source, { ...options, eval: true });
}

/** The teammate entry next to this file, in whichever form (.ts or .js) is running. */
export function teammateEntryUrl(): URL {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`../teammate/worker${ext}`, import.meta.url);
}

/**
 * A worker on compiled JS. A worker inherits the lead's execArgv, so a lead
 * run as `node --import tsx` (tests, benchmarks) would load tsx's hooks into
 * every teammate for nothing; such a lead passes its flags without tsx.
 */
function startCompiled(url: URL, options: WorkerOptions): Worker {
  const execArgv = withoutTsx(process.execArgv);
  if (execArgv.length === process.execArgv.length) return new Worker(url, options);
  try {
    return new Worker(url, { ...options, execArgv });
  } catch (error) {
    const refused = refusedFlags(error);
    if (refused === null) throw error;
    // V8 and process-wide flags (--expose-gc, --max-old-space-size) are refused in a
    // worker's own list, yet they hold for every thread of the process anyway.
    const kept = execArgv.filter((flag) => !refused.has(flag));
    try {
      return new Worker(url, { ...options, execArgv: kept });
    } catch {
      return new Worker(url, options); // the lead's flags as they are: slower, but the teammate starts
    }
  }
}

const LOADER_FLAGS = new Set(['--import', '--loader', '--experimental-loader', '--require', '-r']);

const isTsx = (specifier: string): boolean =>
  specifier === 'tsx' || specifier.startsWith('tsx/') || /[\\/]node_modules[\\/]tsx[\\/]/.test(specifier);

/** `execArgv` without the flags that load tsx (`--import tsx`, `--loader=tsx`, `-r tsx/cjs`, …). */
export function withoutTsx(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    const eq = flag.indexOf('=');
    if (eq > 0 && LOADER_FLAGS.has(flag.slice(0, eq)) && isTsx(flag.slice(eq + 1))) continue;
    if (LOADER_FLAGS.has(flag) && isTsx(execArgv[i + 1] ?? '')) {
      i++;
      continue;
    }
    kept.push(flag);
  }
  return kept;
}

/** The flags an ERR_WORKER_INVALID_EXEC_ARGV names (Node lists them after the colon), or null for another error. */
function refusedFlags(error: unknown): Set<string> | null {
  if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') return null;
  const list = /flags: (.*)$/s.exec((error as Error).message)?.[1];
  return list === undefined ? null : new Set(list.split(', '));
}
