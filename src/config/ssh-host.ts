/**
 * The settings of the `ssh` teammate host (teammate/hosts/ssh, docs/HOSTS.md):
 * where the teammate runs and how the OpenSSH client reaches it. Every value
 * that ends up in an ssh command line or a remote shell script is checked
 * here, so a config can never smuggle in an option or a second command.
 */
import { z } from 'zod';

/** `user@host` or `host`: never an option (`-oProxyCommand=…`), no spaces or shell characters. */
const TargetSchema = z
  .string()
  .regex(/^(?:[A-Za-z0-9._][A-Za-z0-9._-]*@)?[A-Za-z0-9.:[\]][A-Za-z0-9.:[\]_-]*$/, {
    message: 'expected user@host or host (letters, digits, . _ - : [ ]), not starting with -',
  });

/** A folder on the remote: relative to its home, or absolute; no `..` and no control characters. */
const RemoteDirSchema = z
  .string()
  .min(1)
  .refine((d) => !/[\0-\x1f]/.test(d) && !d.split('/').includes('..'), { message: 'no ".." segment or control characters' });

const OneLineSchema = z
  .string()
  .min(1)
  .refine((s) => !/[\0-\x1f]/.test(s), { message: 'one line, no control characters' });

export const SshHostConfigSchema = z.strictObject({
  kind: z.literal('ssh'),
  /** Where the teammate runs: `user@host` (or a host alias of ~/.ssh/config). */
  target: TargetSchema,
  port: z.number().int().min(1).max(65535).optional(),
  /** The private key to log in with (`ssh -i`, with IdentitiesOnly). Else ssh's own choice (agent, ~/.ssh/id_*). */
  identity: OneLineSchema.optional(),
  /** A known_hosts file for this host (`UserKnownHostsFile`). Host keys are always checked (`StrictHostKeyChecking=yes`). */
  knownHosts: OneLineSchema.optional(),
  /** teamd's folder on the remote, relative to the remote user's home unless absolute. */
  remoteDir: RemoteDirSchema.default('.teamd-remote'),
  /** The command that runs teamd on the remote, as a shell command prefix: `teamd`, `npx -y teamd@0.1.0`, `node /opt/teamd/dist/cli/main.js`. */
  teamdBin: OneLineSchema.default('teamd'),
  connectTimeoutS: z.number().int().positive().default(10),
  /** Keepalives: a silent peer is a dropped connection after interval × 3. */
  serverAliveIntervalS: z.number().int().positive().default(15),
});
export type SshHostConfig = z.infer<typeof SshHostConfigSchema>;
export type SshHostInput = z.input<typeof SshHostConfigSchema>;

