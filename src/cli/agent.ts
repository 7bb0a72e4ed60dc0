/**
 * `teamd agent -p "<prompt>"`: one agent, headless, in the current directory.
 * Flags and output follow Claude Code's print mode, so scripts written for
 * `claude -p` carry over. Exit code 0 on `success`, 1 otherwise.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { RUN_DEPTH, noteRunDepth } from './cache-depth.js';
import { OUTPUT_FORMATS, exitCodeOf, runHeadless, type HeadlessOutput } from '../agent/headless.js';
import type { AgentRuntimeOptions } from '../agent/options.js';
import type { ContentBlock } from '../model/types.js';
import { streamJsonPrompts } from './agent-input.js';
import { headlessSetup } from './agent-setup.js';
import { CliError } from './cli-error.js';

const AgentFlagsSchema = z.strictObject({
  print: z.boolean().optional(),
  verbose: z.boolean().optional(),
  includePartialMessages: z.boolean().optional(),
  dangerouslySkipPermissions: z.boolean().optional(),
  inputFormat: z.enum(['text', 'stream-json']).default('text'),
  mcpConfig: z.array(z.string()).default([]),
  addDir: z.array(z.string()).default([]),
  strictMcpConfig: z.boolean().optional(),
  settings: z.string().min(1).optional(),
  resume: z.string().min(1).optional(),
  continue: z.boolean().optional(),
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
  fallbackModel: z.string().min(1).optional(),
  forkSession: z.boolean().optional(),
  agents: z.string().min(1).optional(),
  replayUserMessages: z.boolean().optional(),
  permissionPromptTool: z.string().min(1).optional(),
});
export type AgentFlags = z.infer<typeof AgentFlagsSchema>;

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** The prompt words, else stdin: text, or Claude Code's stream-json user lines. */
async function promptOf(
  words: string[],
  flags: AgentFlags,
): Promise<string | AsyncIterable<string | ContentBlock[]>> {
  if (flags.inputFormat === 'stream-json') {
    if (words.length > 0)
      throw new CliError(
        'teamd agent --input-format stream-json: the prompts come on stdin, not as arguments',
      );
    return streamJsonPrompts(process.stdin);
  }
  const prompt = words.join(' ').trim() || (await readStdin());
  if (prompt === '') throw new CliError('teamd agent: no prompt (give it after -p, or on stdin)');
  return prompt;
}

function parseFlags(raw: unknown): AgentFlags {
  const parsed = AgentFlagsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const flag = `--${String(issue.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  throw new CliError(`teamd agent ${flag}: ${issue.message}`);
}

/** The runtime options alone (tests, embedders). */
export { agentTranscriptDir, headlessSetup, parseToolRules } from './agent-setup.js';

export async function headlessOptions(
  flags: z.input<typeof AgentFlagsSchema>,
  cwd: string,
): Promise<AgentRuntimeOptions> {
  return (await headlessSetup(parseFlags(flags), cwd)).options;
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
  if (flags.replayUserMessages && (flags.inputFormat !== 'stream-json' || flags.outputFormat !== 'stream-json'))
    throw new CliError('teamd agent --replay-user-messages: needs --input-format stream-json and --output-format stream-json');
  const prompt = await promptOf(promptWords, flags);
  const setup = await headlessSetup(flags, cwd);
  const run = runHeadless(prompt, setup.options, { format: flags.outputFormat, print: setup.print }, stdio);
  const onSigint = (): void => run.interrupt();
  process.once('SIGINT', onSigint);
  try {
    const result = await run.result;
    noteRunDepth(result.num_turns > 1 ? RUN_DEPTH.usedTools : RUN_DEPTH.answered);
    const code = exitCodeOf(result);
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
    .option('--max-turns <n>', 'model calls before the run stops (default 40)')
    .option('--max-budget-usd <usd>', 'spending before the run stops')
    .option(
      '--allowed-tools, --allowedTools <rules...>',
      'permission rules to allow, e.g. "Bash(npm test:*)" Edit',
    )
    .option('--disallowed-tools, --disallowedTools <rules...>', 'permission rules to deny')
    .option('--permission-mode <mode>', 'default | acceptEdits | bypassPermissions | plan | dontAsk')
    .option('--output-format <format>', 'text | json | stream-json', 'text')
    .option(
      '--input-format <format>',
      'text | stream-json (Claude Code user messages, one per line, on stdin)',
      'text',
    )
    .option('--verbose', 'accepted for Claude Code compatibility (stream-json is always complete)')
    .option('--include-partial-messages', 'stream-json: also print the answer as it streams, as stream_event lines carrying the raw API events (message_start … message_stop)')
    .option('--dangerously-skip-permissions', 'the same as --permission-mode bypassPermissions')
    .option('--add-dir <directories...>', 'more directories the file tools may reach (repeatable)')
    .option('--mcp-config <configs...>', 'MCP server files or JSON strings, added to .mcp.json')
    .option('--strict-mcp-config', 'use only the --mcp-config servers, not .mcp.json')
    .option('--settings <file-or-json>', 'a settings file or JSON string whose hooks are added')
    .option('-r, --resume <session>', 'go on with an earlier session by its id')
    .option('-c, --continue', 'go on with the most recent session in this directory')
    .option('--system-prompt <text>', 'replace the system prompt')
    .option('--append-system-prompt <text>', 'add to the system prompt')
    .option('--record <path>', 'also save every model answer to this script file')
    .option('--fallback-model <model>', 'the model to use when the main one is overloaded (default: the config fallbackModel)')
    .option('--fork-session', 'with --resume or --continue: go on under a new session id, the old session left as it was')
    .option('--permission-prompt-tool <tool>', 'an MCP tool (mcp__server__tool) that answers the permission asks')
    .option('--replay-user-messages', 'stream-json in and out: print each user message from stdin back (isReplay: true)')
    .option('--agents <json>', 'subagents as JSON: {"name": {"description", "prompt", "tools", "model", …}}')
    .option('--cwd <dir>', 'the directory to work in (default: the current directory)')
    .action(async (words: string[], flags: unknown) => {
      await agentAction(words, flags);
    });
}
