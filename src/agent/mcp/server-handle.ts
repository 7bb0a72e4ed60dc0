/**
 * A started MCP server as its tools use it. When the server dies (its
 * process exits, its connection closes) the next tool call starts it again,
 * once; a second death leaves its tools answering with an error that names
 * the server and says why. A call that was running when it died is not
 * repeated (it may have had effects): it fails with that reason.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Outcome } from '../../store/types.js';
import { connectServer, type ConnectedServer } from './connect.js';
import type { ParsedMcpServer } from './types.js';

export const MAX_RESTARTS = 1;

export interface ServerStart {
  server: ParsedMcpServer;
  root: string;
  timeoutMs: number;
}

export class McpServerHandle {
  private client: Client;
  private stderr: { text: string };
  private dead = false;
  private closing = false;
  private restarts = 0;
  private lastFailure = '';

  constructor(
    readonly name: string,
    first: ConnectedServer,
    private readonly start: ServerStart,
  ) {
    this.client = first.client;
    this.stderr = first.stderr;
    this.watch(first.client);
  }

  private watch(client: Client): void {
    client.onclose = () => {
      if (this.closing || client !== this.client) return;
      this.dead = true;
      const tail = this.stderr.text.trim();
      this.lastFailure = tail === '' ? 'its connection closed' : `its connection closed (stderr: ${tail})`;
    };
  }

  /** Whether the server died since it started (or since its restart). */
  get isDead(): boolean {
    return this.dead;
  }

  /** The live client, restarting the server first when it died and may still be restarted. */
  async current(): Promise<Outcome<Client>> {
    if (!this.dead) return { ok: true, value: this.client };
    if (this.restarts >= MAX_RESTARTS)
      return {
        ok: false,
        error: `the MCP server "${this.name}" died again after ${MAX_RESTARTS} restart: ${this.lastFailure}; its tools are unavailable for this session`,
      };
    this.restarts++;
    const { server, root, timeoutMs } = this.start;
    const again = await connectServer(this.name, server, root, timeoutMs);
    if (!again.ok) {
      this.lastFailure = again.error;
      return {
        ok: false,
        error: `the MCP server "${this.name}" died and could not be restarted: ${again.error}`,
      };
    }
    this.client = again.value.client;
    this.stderr = again.value.stderr;
    this.dead = false;
    this.watch(this.client);
    return { ok: true, value: this.client };
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.client.close().catch(() => undefined);
  }
}
