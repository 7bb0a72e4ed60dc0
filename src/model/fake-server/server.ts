/**
 * `startFakeAnthropicServer`: a Messages API on 127.0.0.1 (port 0) that the
 * real SDK talks to. Per request: record it, check the key, validate the body,
 * apply the first queued fault that matches, else answer from the script.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { ResolvedAnswer } from '../scripted/player.js';
import { parseOptions } from '../../config/options.js';
import { ScriptedModel } from '../scripted/scripted-model.js';
import type { ScriptInput } from '../scripted/schema.js';
import { estimateTokens } from '../usage.js';
import { apiErrorOf, sendApiError } from './api-errors.js';
import { bearerOnly, compatibleUsage, sendModelList, withoutThinking } from './compatible.js';
import { applyFault, FaultQueue, type Spoil } from './faults.js';
import { FakeServerOptionsSchema, FaultsSchema, type ParsedFakeServerOptions } from './options.js';
import { PromptCache } from './prompt-cache.js';
import { sendJson, sendStream, type WireAnswer } from './respond.js';
import type {
  FakeAnthropicServer,
  FakeServerOptions,
  Fault,
  MessagesRequestBody,
  RecordedRequest,
} from './types.js';
import { validateRequest } from './validate.js';

export async function startFakeAnthropicServer(
  options: FakeServerOptions = {},
): Promise<FakeAnthropicServer> {
  const fake = new FakeServer(parseOptions('startFakeAnthropicServer options', FakeServerOptionsSchema, options));
  await fake.listen();
  return fake;
}

class FakeServer implements FakeAnthropicServer {
  readonly requests: RecordedRequest[] = [];
  url = '';
  #script: ScriptedModel | undefined;
  readonly #faults = new FaultQueue();
  readonly #cache = new PromptCache();
  readonly #apiKey: string;
  readonly #compatible: boolean;
  readonly #server: Server;

  constructor(options: ParsedFakeServerOptions) {
    this.#apiKey = options.apiKey ?? 'test-key';
    this.#compatible = options.compatible ?? false;
    if (options.script) this.setScript(options.script);
    this.#faults.push(options.faults ?? []);
    this.#server = createServer((req, res) => void this.#handle(req, res).catch(() => res.destroy()));
  }

  get script(): ScriptedModel | undefined {
    return this.#script;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  inject(fault: Fault | Fault[]): void {
    this.#faults.push(parseOptions('inject(fault)', FaultsSchema, Array.isArray(fault) ? fault : [fault]));
  }

  setScript(script: ScriptInput | ScriptedModel): void {
    this.#script =
      script instanceof ScriptedModel ? script : new ScriptedModel(script, { source: 'fake server script' });
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const record: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: undefined,
      agent: undefined,
      outcome: '',
    };
    this.requests.push(record);
    const json = parseJson(raw);
    if (json !== undefined) record.body = json as MessagesRequestBody;
    const agentHeader = req.headers['x-teamd-agent'];
    record.agent =
      typeof agentHeader === 'string' ? agentHeader : (record.body?.metadata?.user_id ?? undefined);
    record.outcome = await this.#respond(req, res, json, record.agent);
  }

  async #respond(
    req: IncomingMessage,
    res: ServerResponse,
    json: unknown,
    agent: string | undefined,
  ): Promise<string> {
    const pathname = new URL(req.url ?? '/', this.url).pathname;
    if (req.method === 'GET' && pathname === '/v1/models') return this.#models(req, res);
    if (req.method !== 'POST' || pathname !== '/v1/messages') {
      sendApiError(res, {
        status: 404,
        type: 'not_found_error',
        message: `Not found: ${req.method} ${req.url}`,
      });
      return 'not_found';
    }
    if (!this.#authorized(req)) {
      sendApiError(res, apiErrorOf('auth'));
      return 'unauthorized';
    }
    const valid = validateRequest(json);
    if (!valid.ok) {
      sendApiError(res, apiErrorOf('invalid_request', valid.message));
      return 'invalid';
    }
    const fault = this.#faults.take(valid.body, agent);
    const spoil = fault ? await applyFault(fault, req, res, valid.body) : undefined;
    if (spoil === 'done') return `fault:${fault!.kind}`;
    const outcome = await this.#answer(res, valid.body, agent, spoil);
    return fault ? `fault:${fault.kind}` : outcome;
  }

  /** `GET /v1/models`: the cheap authenticated request `teamd start` checks credentials with. */
  #models(req: IncomingMessage, res: ServerResponse): string {
    if (!this.#authorized(req)) {
      sendApiError(res, apiErrorOf('auth'));
      return 'unauthorized';
    }
    if (this.#compatible) {
      sendModelList(res, ['local-model']);
      return 'models';
    }
    const model = { type: 'model', id: 'claude-fake', display_name: 'Fake', created_at: '2026-01-01T00:00:00Z' };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: [model], has_more: false, first_id: model.id, last_id: model.id }));
    return 'models';
  }

  #authorized(req: IncomingMessage): boolean {
    if (this.#compatible) return bearerOnly(req, this.#apiKey);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    return bearer === this.#apiKey || req.headers['x-api-key'] === this.#apiKey;
  }

  async #answer(
    res: ServerResponse,
    body: MessagesRequestBody,
    agent: string | undefined,
    spoil: Spoil,
  ): Promise<string> {
    const take = this.#script?.player.take({ agent, messages: body.messages });
    if (!take?.ok) {
      const message = take?.error.message ?? 'the fake server has no script';
      sendApiError(res, apiErrorOf('invalid_request', message));
      return 'unmatched';
    }
    const { answer } = take;
    if (answer.delayMs > 0) await delay(answer.delayMs);
    if (answer.error?.kind === 'connection') {
      res.socket?.resetAndDestroy();
      return 'answered';
    }
    if (answer.error) {
      sendApiError(res, apiErrorOf(answer.error.kind, answer.error.message, answer.error.status));
      return 'answered';
    }
    const wire = this.#wireAnswer(body, answer);
    if (body.stream) await sendStream(res, wire, spoil);
    else sendJson(res, wire);
    return 'answered';
  }

  #wireAnswer(body: MessagesRequestBody, answer: ResolvedAnswer): WireAnswer {
    const usage = {
      ...this.#cache.usageFor(body),
      output_tokens: estimateTokens(JSON.stringify(answer.content)),
      ...answer.usage,
    };
    const id = `msg_fake_${randomBytes(8).toString('hex')}`;
    if (this.#compatible) {
      const content = withoutThinking(answer.content);
      return { id, model: body.model, content, stopReason: answer.stopReason, usage: compatibleUsage(usage) };
    }
    return { id, model: body.model, content: answer.content, stopReason: answer.stopReason, usage };
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
