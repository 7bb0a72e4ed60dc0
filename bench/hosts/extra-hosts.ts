/**
 * More host kinds for bench/hosts to measure beside thread, process and
 * sandbox: the ssh host adds itself here (a label and the `host` config its
 * teammates get), when it can run on this machine.
 */
import { sshBenchHosts } from './ssh-host.js';

export const EXTRA_HOSTS: { label: string; config: object }[] = [...(await sshBenchHosts())];
