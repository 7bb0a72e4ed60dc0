/**
 * The fake Messages API on 127.0.0.1 as the process's endpoint: `start` runs
 * one and points ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY at it (the CLI and the
 * lead's client read them); after each test the server is closed and both
 * variables are put back as they were.
 */
import { afterEach } from 'vitest';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';

type ServerOptions = Parameters<typeof startFakeAnthropicServer>[0];

export function useFakeEndpoint(): { start: (options: ServerOptions) => Promise<FakeAnthropicServer> } {
  const saved = {
    ANTHROPIC_BASE_URL: process.env.ANTHROPIC_BASE_URL,
    ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY,
  };
  let server: FakeAnthropicServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  return {
    start: async (options) => {
      server = await startFakeAnthropicServer(options);
      process.env.ANTHROPIC_BASE_URL = server.url;
      process.env.ANTHROPIC_API_KEY = 'test-key';
      return server;
    },
  };
}
