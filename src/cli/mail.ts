import type { Command } from 'commander';
import { MailboxStore } from '../store/mailbox/store.js';
import type { Message } from '../store/types.js';
import { AgentNameSchema, MessageTypeSchema } from '../store/types.js';
import { fail } from './cli-error.js';
import { oneLine, printJson, printLine, printTable } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';
import { rosterFor } from './team-config.js';

interface SendOptions extends DirOption {
  from: string;
  type: string;
}
interface InboxOptions extends DirOption {
  json?: boolean;
  history?: boolean;
  limit?: string;
}

export function registerMailCommands(program: Command): void {
  addDirOption(
    program
      .command('send <to> <text>')
      .description('send a message to one member of the team; prints its id (to broadcast, send once per member)'),
  )
    .option('--from <name>', 'the sender', 'user')
    .option('--type <type>', `one of: ${MessageTypeSchema.options.join(', ')}`, 'message')
    .action(sendMessage);
  addDirOption(
    program
      .command('inbox <agent>')
      .description("show an agent's waiting messages (or, with --history, its delivered ones)"),
  )
    .option('--history', 'show delivered (archived) messages instead')
    .option('--limit <n>', 'with --history: only the last n')
    .option('--json', 'print JSON')
    .action(showInbox);
}

async function sendMessage(to: string, text: string, options: SendOptions): Promise<void> {
  const repo = resolveRepoDir(options);
  const type = MessageTypeSchema.safeParse(options.type);
  if (!type.success) fail(`--type: must be one of ${MessageTypeSchema.options.join(', ')}`);
  const roster = await rosterFor(repo);
  if (!roster.includes(to) && (!AgentNameSchema.safeParse(to).success || BROADCAST_WORDS.has(to.toLowerCase())))
    fail(broadcastHelp(to, roster));
  const mailbox = new MailboxStore(repo, { roster });
  const sent = await mailbox.send({ from: options.from, to, type: type.data, content: text });
  if (!sent.ok) fail(sent.error);
  printLine(sent.value.id);
}

/** Names people try for "everyone"; none is an agent (a broadcast is one message per recipient). */
const BROADCAST_WORDS = new Set(['*', 'all', 'everyone', 'team', 'broadcast']);

function broadcastHelp(to: string, roster: readonly string[]): string {
  const names = roster.filter((a) => a !== 'user').join(' ');
  return (
    `"${to}" is not one member of the team: teamd send writes to one inbox. ` +
    `To broadcast, send once per member: for a in ${names}; do teamd send "$a" '…'; done`
  );
}

async function showInbox(agent: string, options: InboxOptions): Promise<void> {
  const name = AgentNameSchema.safeParse(agent);
  if (!name.success) fail(`invalid agent name ${JSON.stringify(agent)}: ${name.error.issues[0]?.message}`);
  const limit = options.limit === undefined ? undefined : parseLimit(options.limit);
  const mailbox = new MailboxStore(resolveRepoDir(options));
  const messages = options.history ? await mailbox.history(agent, limit) : await mailbox.peek(agent);
  if (options.json) return printJson(messages);
  if (!messages.length)
    return printLine(
      options.history ? `no delivered messages for ${agent}` : `no waiting messages for ${agent}`,
    );
  printTable(
    ['TIME', 'FROM', 'TYPE', 'STATE', 'CONTENT'],
    messages.map((m) => messageRow(m, options.history)),
  );
}

function messageRow(m: Message, archived = false): string[] {
  const state = archived ? 'delivered' : m.deliveringSince ? 'delivering' : 'unread';
  return [m.ts, m.from, m.type, state, oneLine(m.content, 60)];
}

function parseLimit(text: string): number {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : fail(`--limit: must be a positive integer, got "${text}"`);
}
