// A LiteLLM proxy on 127.0.0.1 for one test: a config file the test writes (each model name routed
// to an `anthropic/` model whose api_base is the fake Messages API), started, waited for, stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../support/free-port.js';

export const MASTER_KEY = 'sk-teamd-litellm-master';
/** The key LiteLLM sends upstream (the fake server records it): proof a request went through the proxy. */
export const UPSTREAM_KEY = 'sk-teamd-upstream';

export interface LiteLLMProxy {
  url: string;
  /** What the proxy printed (for a failing test's message). */
  output: () => string;
  stop: () => Promise<void>;
}

/** The config: `model_name` → `anthropic/<model>` at `upstream`, a master key, nothing fetched from outside. */
export function liteLLMConfig(models: Record<string, string>, upstream: string): string {
  const entries = Object.entries(models).map(([name, model]) =>
    [
      `  - model_name: ${JSON.stringify(name)}`,
      `    litellm_params:`,
      `      model: ${JSON.stringify(`anthropic/${model}`)}`,
      `      api_base: ${JSON.stringify(upstream)}`,
      `      api_key: ${JSON.stringify(UPSTREAM_KEY)}`,
    ].join('\n'),
  );
  const settings = [
    'litellm_settings:',
    '  telemetry: false',
    'general_settings:',
    `  master_key: ${MASTER_KEY}`,
  ];
  return ['model_list:', ...entries, ...settings, ''].join('\n');
}

/** Resolves when the proxy says it listens (Uvicorn's startup line); rejects if it exits or takes over `timeoutMs`. */
function listening(child: ChildProcess, out: () => string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`LiteLLM did not start in ${timeoutMs} ms:\n${out()}`)),
      timeoutMs,
    );
    const check = () => {
      if (!/Uvicorn running on|Application startup complete/.test(out())) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`LiteLLM exited (${code}) before listening:\n${out()}`));
    });
  });
}

export async function startLiteLLM(bin: string, dir: string, config: string): Promise<LiteLLMProxy> {
  const file = join(dir, 'litellm-config.yaml');
  writeFileSync(file, config);
  const port = await freePort();
  const env = {
    ...process.env,
    LITELLM_LOCAL_MODEL_COST_MAP: 'True',
    LITELLM_TELEMETRY: 'False',
    NO_PROXY: '127.0.0.1',
  };
  const child = spawn(bin, ['--config', file, '--host', '127.0.0.1', '--port', String(port)], {
    cwd: dir,
    env,
  });
  let text = '';
  const keep = (d: Buffer) => (text = (text + d.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const output = () => text;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await listening(child, output, 120_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `http://127.0.0.1:${port}`, output, stop };
}
