/**
 * `teamd agent -p "<prompt>"`: one agent, headless, in the current directory.
 * Flags and output follow Claude Code's print mode, so scripts written for
 * `claude -p` carry over. Exit code 0 on `success`, 1 otherwise.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { OUTPUT_FORMATS, exitCodeOf, runHeadless, type HeadlessOutput } from '../agent/headless.js';
import type { AgentRuntimeOptions } from '../agent/options.js';
import type { PermissionPolicy } from '../agent/permissions/types.js';
import { loadConfig } from '../config/load.js';
import { createHookRunner, loadHookSettings } from '../hooks/index.js';
import { createModelClient } from '../model/factory.js';
import { CliError } from './cli-error.js';
import { printWarning } from './output.js';

const AgentFlagsSchema = z.strictObject({
  print: z.boolean().optional(),
  model: z.string().min(1).optional(),
  maxTurns: z.coerce.number().int().positive().optional(),
  maxBudgetUsd: z.coerce.number().positive().optional(),
  allowedTools: z.array(z.string()).default([]),
  disallowedTools: z.array(z.string()).default([]),
  permissionMode: z.enum(['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk']).optional(),
  outputFormat: z.enum(OUTPUT_FORMATS).default('text'),
  systemPrompt: z.string().optional(),
  appendSystemPrompt: z.string().optional(),
  record: z.string().min(1).optional(),
  cwd: z.string().min(1).optional(),
});
export type AgentFlags = z.infer<typeof AgentFlagsSchema>;

/** `Bash(npm test:*) Edit,Read` → three rules: split on commas and spaces outside parentheses. */
export function parseToolRules(values: string[]): string[] {
  const rules: string[] = [];
  for (const value of values) {
    let depth = 0;
    let current = '';
    for (const ch of value) {
      depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
      if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
        if (current) rules.push(current);
        current = '';
      } else current += ch;
    }
    if (current) rules.push(current);
  }
  return rules;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

function parseFlags(raw: unknown): AgentFlags {
  const parsed = AgentFlagsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const flag = `--${String(issue.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  throw new CliError(`teamd agent ${flag}: ${issue.message}`);
}

/** The runtime options for a headless run in `cwd`: model, limits, permissions and hooks from flags and `.team/config.json`. */
export async function headlessOptions(flags: AgentFlags, cwd: string): Promise<AgentRuntimeOptions> {
  const loaded = await loadConfig(cwd);
  if (!loaded.ok) throw new CliError(loaded.error);
  const config = loaded.config;
  const model = await createModelClient(flags.model ?? config.model, {
    cwd,
    maxTokens: config.maxTokens,
    fallbackModel: config.fallbackModel,
    prices: config.prices,
    record: flags.record,
    retry: config.retry,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
  }).catch((error: unknown) => {
    throw new CliError(`teamd agent --model: ${(error as Error).message}`);
  });
  const hooks = await loadHookSettings(cwd, config.hooks);
  for (const problem of hooks.problems) printWarning(problem);
  const policy: PermissionPolicy = {
    defaultMode: flags.permissionMode ?? config.permissions.defaultMode,
    allow: [...config.permissions.allow, ...parseToolRules(flags.allowedTools)],
    deny: [...config.permissions.deny, ...parseToolRules(flags.disallowedTools)],
    ask: config.permissions.ask,
  };
  return {
    model,
    cwd,
    maxTurns: flags.maxTurns,
    maxBudgetUsd: flags.maxBudgetUsd ?? config.maxBudgetUsd,
    maxTokens: config.maxTokens,
    permissionPolicy: policy,
    hooks: createHookRunner(hooks.settings, { cwd }),
    prices: config.prices,
    ...(flags.systemPrompt === undefined ? {} : { systemPrompt: flags.systemPrompt }),
    ...(flags.appendSystemPrompt === undefined ? {} : { appendSystemPrompt: flags.appendSystemPrompt }),
  };
}

const stdio: HeadlessOutput = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** The command's action: returns the exit code (also set on `process.exitCode`). */
export async function agentAction(promptWords: string[], rawFlags: unknown): Promise<number> {
  const flags = parseFlags(rawFlags);
  const cwd = resolve(flags.cwd ?? process.cwd());
  if (!existsSync(cwd)) throw new CliError(`teamd agent --cwd: ${cwd} does not exist`);
  const prompt = promptWords.join(' ').trim() || (await readStdin());
  if (prompt === '') throw new CliError('teamd agent: no prompt (give it after -p, or on stdin)');
  const run = runHeadless(prompt, await headlessOptions(flags, cwd), flags.outputFormat, stdio);
  const onSigint = (): void => run.interrupt();
  process.once('SIGINT', onSigint);
  try {
    const code = exitCodeOf(await run.result);
    process.exitCode = code;
    return code;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

export function registerAgentCommand(program: Command): void {
  program
    .command('agent')
    .description('run one agent headless in the current directory (like `claude -p`)')
    .argument('[prompt...]', 'the prompt (read from stdin when absent)')
    .option('-p, --print', 'print mode: run the prompt and exit (the only mode)')
    .option('--model <model>', 'a model name, or scripted:<path> (default: the config model)')
    .option('--max-turns <n>', 'model calls before the run stops (default 16)')
    .option('--max-budget-usd <usd>', 'spending before the run stops')
    .option(
      '--allowed-tools, --allowedTools <rules...>',
      'permission rules to allow, e.g. "Bash(npm test:*)" Edit',
    )
    .option('--disallowed-tools, --disallowedTools <rules...>', 'permission rules to deny')
    .option('--permission-mode <mode>', 'default | acceptEdits | bypassPermissions | plan | dontAsk')
    .option('--output-format <format>', 'text | json | stream-json', 'text')
    .option('--system-prompt <text>', 'replace the system prompt')
    .option('--append-system-prompt <text>', 'add to the system prompt')
    .option('--record <path>', 'also save every model answer to this script file')
    .option('--cwd <dir>', 'the directory to work in (default: the current directory)')
    .action(async (words: string[], flags: unknown) => {
      await agentAction(words, flags);
    });
}
