import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * shared/ holds the code the browser and the server both run (the §6 policy table, the resource
 * access table, enums and spec constants, zod fields and schemas both sides validate with, the
 * command wire, rule and dashboard schemas). It must run in a browser: no Node built-in, no NestJS,
 * no TypeORM, nothing from server/src or client/src; only zod and its own files.
 */
const ROOT = resolve(__dirname, '..', '..');
const SHARED = join(ROOT, 'shared');
const ALLOWED_PACKAGES = new Set(['zod']);
const IMPORT = /\b(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.tsx?$/.test(name) && !/\.spec\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
}

describe('shared/ (code the browser and the server both run)', () => {
  const files = walk(SHARED);

  it('holds the shared modules', () => {
    const names = files.map((f) => relative(SHARED, f));
    expect(names).toEqual(expect.arrayContaining(['access/policy.ts', 'common/enums.ts', 'controllers/command-wire.ts', 'alerts/rules.ts']));
  });

  it('imports no Node built-in, no NestJS, no TypeORM, nothing outside shared/ but zod', () => {
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const offending: string[] = [];
    for (const file of files) {
      for (const spec of importsOf(file)) {
        const where = `${relative(ROOT, file)}: ${spec}`;
        if (spec.startsWith('.')) {
          if (relative(SHARED, resolve(dirname(file), spec)).startsWith('..')) offending.push(where);
        } else if (builtins.has(spec) || spec.startsWith('node:') || !ALLOWED_PACKAGES.has(spec.split('/')[0])) {
          offending.push(where);
        }
      }
    }
    expect(offending).toEqual([]);
  });

  it('is all the browser runs from outside client/src: client/src imports only types from server/src', () => {
    const client = join(ROOT, 'client', 'src');
    const clientFiles: string[] = [];
    const walkAll = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walkAll(path);
        else if (/\.tsx?$/.test(name) && !/\.spec\.tsx?$/.test(name)) clientFiles.push(path);
      }
    };
    walkAll(client);
    const valueImports: string[] = [];
    const STATEMENT = /\b(import|export)\s+(type\s+)?[^;'"]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
    for (const file of clientFiles) {
      for (const m of readFileSync(file, 'utf8').matchAll(STATEMENT)) {
        const spec = m[3] ?? m[4];
        if (!spec.startsWith('.') || m[2]) continue;
        const target = relative(ROOT, resolve(dirname(file), spec));
        if (target.startsWith('server/')) valueImports.push(`${relative(ROOT, file)}: ${spec}`);
      }
    }
    expect(valueImports).toEqual([]);
  });
});
