#!/usr/bin/env node
// Counts the imports between the server's folders that run against its layers.
//
//   node scripts/layers.mjs            summary: folders, arrows, arrows inside cycles, upward arrows
//   node scripts/layers.mjs --list     also every upward arrow with the files and lines behind it
//   node scripts/layers.mjs --max N    exits 1 when more than N folder arrows run upward
//   node scripts/layers.mjs --client   the same for the browser app (client/src, CLIENT_LAYERS below)
//
// A "folder" is the first folder under server/src (server/src/app.ts and friends form "(root)"). Under
// client/src a file of the top folder is a unit of its own, named without its extension (App, main,
// dataProvider…): they sit on different layers.
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

/** Bottom first. A folder may import folders of its own layer or any layer below, never above. */
export const LAYERS = [
  // Helpers, and config/: AppConfig, the settings loader and the server process's own settings. Each
  // domain declares its settings (<domain>/<domain>.config.ts); api/app-config.ts composes them.
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
  ['simulator'],
  ['telemetry'],
  // The MQTT gateway: the broker (in-process or external), its member leases, the broker side of
  // commands (the port control uses) and the built-in simulator's run; hands what arrives to telemetry.
  ['gateway'],
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

/**
 * The browser app, bottom first: the tRPC transport, the shared kit, the data (session, permissions,
 * react-admin's providers), then the screens (one folder per resource or screen family, the lower
 * ones first), then the shell. A screen folder calls tRPC only through its own `api.ts` / hooks
 * module; components take data and callbacks.
 */
export const CLIENT_LAYERS = [
  // Transport: the tRPC client, its links, the connection state, the error readers. No React state, no screens.
  ['trpc'],
  // Shared kit: theme (and the brand), i18n (catalogues, formats), generic widgets and their hooks module (kit/api.ts).
  ['theme', 'i18n', 'kit'],
  // Data: the session (and the language it carries), permissions, react-admin's data and auth providers.
  ['session'],
  ['permissions'],
  ['ownCompanies', 'dataProvider', 'authProvider'],
  // Live events and toasts (the provider the screens' hooks tell).
  ['toasts'],
  // Screens, the lower ones first: a screen folder imports only those listed before it.
  ['map', 'energy'],
  ['systems', 'control'],
  // Alerts: what people watch (alerts/alarms: active, history, inbox, a system's tab) and the setup
  // (alerts/setup: triggers and their rules, channels, templates, trigger status).
  ['alerts', 'exports', 'dashboards'],
  ['status'],
  ['catalogue', 'fleet', 'admin', 'organisation'],
  // A system's page (its tabs gather status, alarms, dashboards, exports) and the operator's home.
  ['system-page', 'home'],
  // Shell: sign-in and preferences pages, the resource list, the layout, the app, its start-up.
  ['login'],
  ['preferences'],
  ['resources', 'messages'],
  ['i18nProvider'],
  ['layout'],
  ['App'],
  ['boot'],
  ['main'],
];

const CONFIGS = {
  server: { src: 'server/src', layers: LAYERS, folderOf: (parts) => (parts.length === 1 ? '(root)' : parts[0]) },
  client: { src: 'client/src', layers: CLIENT_LAYERS, folderOf: (parts) => (parts.length === 1 ? parts[0].replace(/\.tsx?$/, '') : parts[0]) },
};

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

function resolveImport(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      /* try the next spelling */
    }
  }
  return undefined;
}

const IMPORT = /(?:^|\n)([^\n]*?)\b(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|\n)([^\n]*?)\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

export function measure(which = 'server') {
  const config = CONFIGS[which];
  const SRC = join(ROOT, config.src);
  const folderOf = (file) => config.folderOf(relative(SRC, file).split('/'));
  const layerOf = new Map();
  config.layers.forEach((folders, i) => folders.forEach((f) => layerOf.set(f, i)));
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
  const args = process.argv.slice(2);
  const r = measure(args.includes('--client') ? 'client' : 'server');
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
