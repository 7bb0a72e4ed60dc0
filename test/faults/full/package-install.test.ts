/**
 * The package as a user gets it: `npm pack` (which builds), install the tarball into
 * an empty project (dependencies from the npm cache, else the registry), then
 * type-check every library example of README.md and docs/LIBRARY.md with tsc
 * and run the compiled examples with node. Slow (a build and an install):
 * run by `npm run test:faults`; test/package/ has the quick checks.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { docExamples, ROOT } from '../../package/support/examples.js';
import { expectedTarball, packedPaths } from '../../package/support/pack.js';

const work = mkdtempSync(join(tmpdir(), 'teamd-pack-'));
const project = join(work, 'consumer');
const examples = docExamples();
let packed: { filename: string; paths: Set<string> };
let installOutput = '';

const run = (cmd: string, args: string[], cwd: string): string =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000, env: { ...process.env, npm_config_update_notifier: 'false' } });

/** `npm install` with its stderr kept (warnings go there). */
function install(args: string[]): string {
  try {
    return execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...args], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
  } catch (err) {
    throw new Error(`npm install failed:\n${(err as { stderr?: string }).stderr ?? String(err)}`);
  }
}

beforeAll(() => {
  // prepack builds, and strips `prepare` from the packed package.json (scripts/pack-manifest.mjs).
  const out = run('npm', ['pack', '--json', '--pack-destination', work], ROOT);
  packed = packedPaths(out);
  rmSync(project, { recursive: true, force: true });
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // Warnings of the install are read from stderr: capture it by running through a shell redirect.
  installOutput = execFileSync('sh', ['-c', `npm install --no-audit --no-fund --prefer-offline ${JSON.stringify(join(work, packed.filename))} 2>&1`], {
    cwd: project,
    encoding: 'utf8',
    timeout: 300_000,
  });
  install(['typescript@6.0.3', '@types/node@20.19.43']);
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed package', () => {
  test('the tarball holds exactly what `files` says', () => {
    expect([...packed.paths].sort()).toEqual([...expectedTarball()].sort());
  });

  test('the packed manifest has no install-time script; the checkout keeps its prepare', () => {
    const shipped = JSON.parse(run('tar', ['-xzOf', join(work, packed.filename), 'package/package.json'], work)) as { scripts: Record<string, string> };
    for (const name of ['preinstall', 'install', 'postinstall', 'prepare']) expect(shipped.scripts).not.toHaveProperty(name);
    const own = JSON.parse(run('cat', ['package.json'], ROOT)) as { scripts: Record<string, string> };
    expect(own.scripts.prepare).toBe('npm run build');
  });

  test('installing it prints no warning', () => {
    expect(installOutput.split('\n').filter((l) => /\bwarn/i.test(l))).toEqual([]);
  });

  test('both entries load as ESM, and the CLI runs', () => {
    const out = run('node', ['--input-type=module', '-e', "const a = await import('teamd'); const b = await import('teamd/testing'); console.log(typeof a.Team.open, typeof a.AgentRuntime, typeof b.ScriptedModel, typeof b.TaskStore.inMemory)"], project);
    expect(out.trim()).toBe('function function function function');
    expect(run('npx', ['--no-install', 'teamd', '--help'], project)).toContain('Usage: teamd');
  });

  test('the docs examples type-check with tsc and run with node', () => {
    examples.forEach((e, i) => writeFileSync(join(project, `example-${i}.ts`), `// ${e.where}\n${e.code}`));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', lib: ['ES2023'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'], skipLibCheck: true, outDir: 'out' },
        include: ['example-*.ts'],
      }),
    );
    try {
      run('npx', ['--no-install', 'tsc', '-p', '.'], project);
    } catch (err) {
      throw new Error(`tsc: ${(err as { stdout?: string }).stdout ?? String(err)}`);
    }
    examples.forEach((e, i) => {
      try {
        run('node', [join('out', `example-${i}.js`)], project);
      } catch (err) {
        throw new Error(`${e.where}: ${(err as { stderr?: string }).stderr ?? String(err)}`);
      }
    });
  });
});
