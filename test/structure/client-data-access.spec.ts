import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The browser app reaches the server through one place per domain: its `api.ts` (hooks: queries
 * through useQuery, mutations through useMutation) or another `.ts` hook module, and the transport
 * itself in client/src/trpc. A component (`.tsx`) only calls those hooks and renders what they
 * give: it never holds the tRPC client. So a screen's calls, their query keys, their cache settings
 * and what a save makes stale live in one file a reader can find, and the query client can refresh
 * them when data changes (a live event invalidates queries by key; it cannot reach a call hidden
 * in a component).
 *
 * A `.tsx` file may still import the transport's error readers and connection state
 * (`messageOf`, `httpStatusOf`, `connection`): they read a failure, they call nothing.
 */
const ROOT = resolve(__dirname, '..', '..');
const CLIENT = join(ROOT, 'client', 'src');
const TRPC_FOLDER = join(CLIENT, 'trpc');
/** What a component may take from client/src/trpc: readers of errors and of the connection, no client. */
const ALLOWED_FROM_TRPC = new Set(['messageOf', 'httpStatusOf', 'isUnanswered', 'connection', 'Connection']);
const IMPORT = /\bimport\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith('.tsx')) out.push(path);
  }
  return out;
}

/** The source without its comments (a sentence about `trpc.x` in a comment is no call). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The names an import clause binds: `{ a, type b as c }`, a default `d`, `* as e`. */
function importedNames(clause: string): string[] {
  const names: string[] = [];
  const braces = /\{([^}]*)\}/.exec(clause);
  if (braces) {
    for (const part of braces[1].split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]
        .trim();
      if (name) names.push(name);
    }
  }
  const outside = clause
    .replace(/\{[^}]*\}/, '')
    .replace(/,/g, ' ')
    .trim();
  if (outside) names.push(outside.startsWith('*') ? '*' : outside);
  return names;
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

function findings(file: string, source = readFileSync(file, 'utf8')): string[] {
  const text = code(source);
  const where = (index: number) => `${relative(ROOT, file)}:${lineOf(text, index)}`;
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[3] ?? m[4];
    if (spec.startsWith('@trpc/')) {
      out.push(`${where(m.index)} imports ${spec}`);
      continue;
    }
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec);
    if (target !== TRPC_FOLDER && !target.startsWith(TRPC_FOLDER + sep)) continue;
    if (m[4] !== undefined) {
      out.push(`${where(m.index)} loads ${spec}`);
      continue;
    }
    const refused = importedNames(m[2]).filter((n) => !ALLOWED_FROM_TRPC.has(n));
    if (refused.length) out.push(`${where(m.index)} imports ${refused.join(', ')} from ${spec}`);
  }
  for (const m of text.matchAll(/(?<![\w$.])trpc\s*\??\.|\buseTRPC\w*\b/g)) out.push(`${where(m.index)} calls ${m[0].trim()}`);
  return out;
}

describe('client data access (components call hooks; only api.ts / hook modules call tRPC)', () => {
  const files = walk(CLIENT).filter((f) => !f.startsWith(TRPC_FOLDER + sep));

  it('reads the components', () => {
    expect(files.length > 50).toBe(true);
    expect(files.map((f) => relative(CLIENT, f))).toEqual(expect.arrayContaining([join('control', 'CommandList.tsx'), 'App.tsx']));
  });

  it('finds a component that holds the client (the check itself works)', () => {
    const probe = join(CLIENT, 'kit', 'Probe.tsx');
    const sample = [
      "import { messageOf, trpc } from '../trpc';",
      "import type { trpc as t } from '../trpc/index';",
      "import { TRPCClientError } from '@trpc/client';",
      "import { connection } from '../trpc/connection';",
      '// trpc.user.get.query() in a comment is no call',
      'const x = trpc.user.get.query();',
      'const y = useTRPC();',
    ].join('\n');
    expect(findings(probe, sample)).toEqual([
      'client/src/kit/Probe.tsx:1 imports trpc from ../trpc',
      'client/src/kit/Probe.tsx:2 imports trpc from ../trpc/index',
      'client/src/kit/Probe.tsx:3 imports @trpc/client',
      'client/src/kit/Probe.tsx:6 calls trpc.',
      'client/src/kit/Probe.tsx:7 calls useTRPC',
    ]);
  });

  it('no .tsx file imports the tRPC client or calls trpc. / useTRPC', () => {
    expect(files.flatMap((f) => findings(f))).toEqual([]);
  });
});
