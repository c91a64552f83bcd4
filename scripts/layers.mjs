#!/usr/bin/env node
// Counts the imports between the server's folders that run against its layers.
//
//   node scripts/layers.mjs            summary: folders, arrows, arrows inside cycles, upward arrows
//   node scripts/layers.mjs --list     also every upward arrow with the files and lines behind it
//   node scripts/layers.mjs --max N    exits 1 when more than N folder arrows run upward
//
// A "folder" is the first folder under server/src (server/src/app.ts and friends form "(root)").
// An arrow is one ordered pair of folders joined by at least one import (type-only imports count:
// they tie the code together as much as any other). Test files (*.spec.ts, __snapshots__) are left
// out. Two figures, so that neither can be gamed by reordering a list:
//   - arrows inside cycles: A -> B where B also reaches A (no layer order can make them point one way);
//   - upward arrows: A -> B where B sits on a higher layer than A in LAYERS below (the rule the README
//     writes down). An import that is allowed to run up says so with a comment `layers: allow <why>`
//     on the import line or the line above; the script lists those apart and counts them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'server/src');

/** Bottom first. A folder may import folders of its own layer or any layer below, never above. */
export const LAYERS = [
  ['common', 'config'],
  ['access'],
  ['database'],
  ['budgets'],
  // Sign-in and sessions: below tRPC, which reads the session of every call.
  ['auth'],
  ['trpc', 'tenancy'],
  ['crud'],
  // Domains, the lower ones first: a domain imports only those listed before it.
  ['users'],
  ['companies'],
  ['catalogue', 'sites'],
  ['systems'],
  ['controllers', 'documentation', 'dashboards', 'tokens'],
  ['branding'],
  ['files'],
  ['notifications'],
  ['simulator'],
  ['telemetry'],
  // Alerts: the trigger engine (told by telemetry after each commit), the outbox and its channels.
  ['alerts'],
  // Control: commands to controllers and their acknowledgements, configuration, the status view, mutes.
  ['control'],
  // The operator's home: the fleet overview (state, energy, attention, pins) and data exports (files
  // streamed from telemetry, background jobs, scheduled mails through the alert channels' mailer).
  ['fleet', 'exports'],
  // Accounts people recover on their own: invitations, forgotten and changed passwords (one-time
  // links in url_request, mailed through the alert channels' mailer).
  ['accounts'],
  ['health'],
  // The composition root: it knows every domain; no domain knows it.
  ['api'],
  // Database preparation and demo data: the entity list comes from api/.
  ['seed'],
  ['(root)'],
];

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name === '__snapshots__' || name === 'node_modules') continue;
      walk(path, out);
    } else if (/\.tsx?$/.test(name) && !/\.spec\.tsx?$/.test(name) && !name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

function folderOf(file) {
  const rel = relative(SRC, file).split('/');
  return rel.length === 1 ? '(root)' : rel[0];
}

function resolveImport(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      /* try the next spelling */
    }
  }
  return undefined;
}

const IMPORT = /(?:^|\n)([^\n]*?)\b(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|\n)([^\n]*?)\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

export function measure() {
  const layerOf = new Map();
  LAYERS.forEach((folders, i) => folders.forEach((f) => layerOf.set(f, i)));
  const edges = new Map(); // "a -> b" -> [{file, line, allowed}]
  for (const file of walk(SRC)) {
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[2] ?? m[4];
      const target = resolveImport(file, spec);
      if (!target || !target.startsWith(SRC)) continue;
      const a = folderOf(file);
      const b = folderOf(target);
      if (a === b) continue;
      const offset = m.index + (m[0].startsWith('\n') ? 1 : 0);
      const line = text.slice(0, offset).split('\n').length;
      const here = `${lines[line - 2] ?? ''}\n${text.slice(offset, offset + m[0].length)}`;
      const allowed = /layers: allow\b/.test(here);
      const key = `${a} -> ${b}`;
      if (!edges.has(key)) edges.set(key, []);
      edges.get(key).push({ file: relative(ROOT, file), line, allowed });
    }
  }
  // Reachability for the cycle figure.
  const next = new Map();
  for (const key of edges.keys()) {
    const [a, b] = key.split(' -> ');
    if (!next.has(a)) next.set(a, new Set());
    next.get(a).add(b);
  }
  const reaches = (from, to) => {
    const seen = new Set([from]);
    const todo = [from];
    while (todo.length) {
      for (const n of next.get(todo.pop()) ?? []) {
        if (n === to) return true;
        if (!seen.has(n)) {
          seen.add(n);
          todo.push(n);
        }
      }
    }
    return false;
  };
  const folders = new Set([...edges.keys()].flatMap((k) => k.split(' -> ')));
  const unknown = [...folders].filter((f) => !layerOf.has(f));
  const upward = [];
  const allowedUp = [];
  let inCycles = 0;
  for (const [key, sites] of edges) {
    const [a, b] = key.split(' -> ');
    if (reaches(b, a)) inCycles++;
    const la = layerOf.get(a) ?? Infinity;
    const lb = layerOf.get(b) ?? Infinity;
    if (lb > la || (la === Infinity && lb === Infinity)) {
      (sites.every((s) => s.allowed) ? allowedUp : upward).push({ key, sites });
    }
  }
  const imports = [...edges.values()].reduce((n, s) => n + s.length, 0);
  return { folders: folders.size, arrows: edges.size, imports, inCycles, upward, allowedUp, unknown };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = measure();
  const args = process.argv.slice(2);
  const upImports = [...r.upward, ...r.allowedUp].reduce((n, e) => n + e.sites.length, 0);
  console.log(
    JSON.stringify({
      folders: r.folders,
      arrows: r.arrows,
      imports_between_folders: r.imports,
      arrows_inside_cycles: r.inCycles,
      upward_arrows: r.upward.length + r.allowedUp.length,
      upward_arrows_explained: r.allowedUp.length,
      upward_imports: upImports,
      folders_without_layer: r.unknown,
    }),
  );
  if (args.includes('--list')) {
    for (const { key, sites } of [...r.upward, ...r.allowedUp]) {
      console.log(`${key}  (${sites.length})${sites.every((s) => s.allowed) ? '  explained' : ''}`);
      for (const s of sites) console.log(`    ${s.file}:${s.line}${s.allowed ? '  explained' : ''}`);
    }
  }
  const max = args.indexOf('--max');
  if (max >= 0 && r.upward.length + r.allowedUp.length > Number(args[max + 1])) process.exit(1);
}
