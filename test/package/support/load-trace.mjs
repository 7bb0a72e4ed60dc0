// Preloaded (`node --import`) by start-loads.test.ts: prints to stderr one
// `ESM <bytes> <url>` line per module the ESM loader loads and, at exit, one
// `CJS <path>` line per CommonJS module in require's cache.
import { createRequire, register } from 'node:module';

const hook = `export async function load(url, context, next) {
  const result = await next(url, context);
  if (!url.startsWith('node:')) process._rawDebug('ESM ' + (result.source ? result.source.length : 0) + ' ' + url);
  return result;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
const Module = createRequire(import.meta.url)('node:module');
process.on('exit', () => {
  for (const path of Object.keys(Module._cache)) process._rawDebug(`CJS ${path}`);
});
