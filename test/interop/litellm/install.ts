// LiteLLM's proxy for the compatible-endpoint interop test, installed with pip into a virtual
// environment under .cache/litellm/<version>/ (never into the project). Pinned. What the install
// cost (seconds, megabytes) is measured and returned, so the test can print it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runStep, settleStaging } from '../../support/cache-install.js';

export const LITELLM_VERSION = '1.76.1';

export type LiteLLM =
  | { ok: true; bin: string; version: string; installSeconds?: number; sizeMb?: number }
  | { ok: false; reason: string };

const projectRoot = resolve(import.meta.dirname, '../../..');
/** Above these the install is "too heavy" for a test (docs/MODELS.md says so with the numbers). */
export const HEAVY = { seconds: 240, megabytes: 1024 };

/** $TEAMD_LITELLM_CACHE, else .cache/litellm/ in the project. */
export function liteLLMCacheDir(version = LITELLM_VERSION): string {
  const base = process.env.TEAMD_LITELLM_CACHE ?? join(projectRoot, '.cache', 'litellm');
  return join(base, version);
}

const sizeMbOf = (dir: string): number => {
  const r = spawnSync('du', ['-sm', dir], { encoding: 'utf8' });
  return Number.parseInt(r.stdout ?? '', 10) || 0;
};

/** A venv with `litellm[proxy]==version` in a staging folder, moved into place when whole. */
function installInto(dir: string, version: string): string | null {
  const staging = `${dir}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const pip = join(staging, 'bin', 'pip');
  const pipArgs = ['install', '--disable-pip-version-check', '--timeout', '30', '--retries', '1'];
  const failed =
    runStep('python3', ['-m', 'venv', staging], undefined, 120_000) ??
    runStep(pip, [...pipArgs, `litellm[proxy]==${version}`], undefined, HEAVY.seconds * 1000 * 2);
  return settleStaging(staging, dir, failed);
}

/** The pinned proxy, installing it on first use; a reason (for a skip line) when that cannot be done. */
export function ensureLiteLLM(version = LITELLM_VERSION): LiteLLM {
  const dir = liteLLMCacheDir(version);
  const bin = join(dir, 'bin', 'litellm');
  const marker = join(dir, 'teamd-install.json');
  if (!existsSync(bin)) {
    mkdirSync(join(dir, '..'), { recursive: true });
    const started = performance.now();
    const failed = installInto(dir, version);
    if (failed)
      return {
        ok: false,
        reason: `could not install litellm[proxy]==${version} (no python3 venv, no pip, or no package registry?): ${failed}`,
      };
    const cost = { installSeconds: Math.round((performance.now() - started) / 1000), sizeMb: sizeMbOf(dir) };
    writeFileSync(marker, JSON.stringify(cost) + '\n');
  }
  if (!existsSync(bin)) return { ok: false, reason: `${bin} is missing after the install` };
  const cost = existsSync(marker)
    ? (JSON.parse(readFileSync(marker, 'utf8')) as { installSeconds: number; sizeMb: number })
    : {};
  return { ok: true, bin, version, ...cost };
}
