// The real Claude Code CLI for interoperability tests and benchmarks, installed from the npm
// registry into a cache folder (never into the project's node_modules). Pinned: newer releases
// declare Node 22 in `engines`, but the program is a native binary and runs next to Node 20.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runStep, settleStaging } from '../cache-install.js';

export const CLAUDE_CODE_VERSION = '2.1.332';

export type ClaudeCode = { ok: true; bin: string; version: string } | { ok: false; reason: string };

const projectRoot = resolve(import.meta.dirname, '../../..');

/** Where the pinned CLI lives: $TEAMD_CLAUDE_CODE_CACHE, else .cache/claude-code/ in the project. */
export function claudeCodeCacheDir(version = CLAUDE_CODE_VERSION): string {
  const base = process.env.TEAMD_CLAUDE_CODE_CACHE ?? join(projectRoot, '.cache', 'claude-code');
  return join(base, version);
}

const binIn = (dir: string) => join(dir, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');

/** npm install into a fresh folder, link the native binary (install scripts are off), then move into place. */
function installInto(dir: string, version: string): string | null {
  const staging = mkdtempSync(`${dir}.staging-`);
  writeFileSync(join(staging, 'package.json'), '{"name":"claude-code-cache","private":true}\n');
  const pkg = `@anthropic-ai/claude-code@${version}`;
  const failed =
    runStep('npm', ['install', '-E', '--no-audit', '--no-fund', '--ignore-scripts', pkg], staging, 300_000) ??
    runStep('node', ['install.cjs'], join(staging, 'node_modules', '@anthropic-ai', 'claude-code'), 60_000);
  return settleStaging(staging, dir, failed);
}

function versionOf(bin: string): string | null {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0 ? (r.stdout.trim().split(' ')[0] ?? null) : null;
}

/** The pinned CLI, installing it on first use; a reason (for a skip line) when that cannot be done. */
export function ensureClaudeCode(version = CLAUDE_CODE_VERSION): ClaudeCode {
  const dir = claudeCodeCacheDir(version);
  if (!existsSync(binIn(dir))) {
    mkdirSync(join(dir, '..'), { recursive: true });
    const failed = installInto(dir, version);
    if (failed) return { ok: false, reason: `Claude Code ${version} could not be installed: ${failed}` };
  }
  const seen = versionOf(binIn(dir));
  if (seen !== version)
    return {
      ok: false,
      reason: `Claude Code at ${binIn(dir)} reports ${seen ?? 'nothing'}, expected ${version}`,
    };
  return { ok: true, bin: binIn(dir), version };
}

/** The environment that runs Claude Code offline against a local server, with its own HOME. */
export function claudeCodeEnv(
  baseURL: string,
  home: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_BASE_URL: baseURL,
    ANTHROPIC_API_KEY: 'sk-ant-test-offline',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    IS_SANDBOX: '1', // as root, --dangerously-skip-permissions needs it
    ...extra,
  };
}
