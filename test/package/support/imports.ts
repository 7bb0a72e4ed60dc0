/** The packages the built code imports at run time, read from the sources. */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';

const BUILTIN = new Set(builtinModules);

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`; null for a relative path or a Node built-in. */
export function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return BUILTIN.has(name) ? null : name;
}

/**
 * Specifiers that stay in the emitted JavaScript: static imports and
 * re-exports that are not wholly `type`, side-effect imports, `import('…')`.
 * (Under `verbatimModuleSyntax` an import of only inline `type` names stays too.)
 */
export function runtimeSpecifiers(source: string): string[] {
  const found: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([\s\S]*?)\s+from\s+['"]([^'"]+)['"]/gm;
  for (const m of source.matchAll(statement)) if (!m[2]) found.push(m[4]!);
  for (const m of source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Package → the first source file importing it. `.tsx` files import `react/jsx-runtime` once compiled. */
export function runtimePackages(srcDir: string): Map<string, string> {
  const used = new Map<string, string>();
  for (const file of sourceFiles(srcDir)) {
    const specifiers = runtimeSpecifiers(readFileSync(file, 'utf8'));
    if (file.endsWith('.tsx')) specifiers.push('react/jsx-runtime');
    for (const s of specifiers) {
      const name = packageOf(s);
      if (name && !used.has(name)) used.set(name, file);
    }
  }
  return used;
}
