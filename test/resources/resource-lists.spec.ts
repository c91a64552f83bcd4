/**
 * The lists a back-office resource is declared in agree with each other (README "Add a resource"):
 * the shared resource table (shared/access/resources.ts), the server's definitions and the app
 * router, the domains' records of generated resources, the entities and migrations, the browser's
 * pages and their strings in English and French, the server's French labels and the policy
 * matrix. A resource declared in one and missing from another fails here, with what to add where.
 * Nothing runs: every list is read from the sources or the modules themselves (a few seconds).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { getMetadataArgsStorage } from 'typeorm';
import { FRENCH_LABELS, RESOURCE_ACCESS, type ResourceAccess } from '../../shared/access/resources';
import { ENTITIES, ENTITY_FILE } from '../../server/src/api/entities';
import { procedurePermissions } from '../../server/src/api/procedure-permissions';
import { RESOURCES } from '../../server/src/api/resource-routers';
import { CATALOGUE_RESOURCES } from '../../server/src/catalogue/catalogue.resources';
import { FRENCH } from '../../server/src/common/messages';
import { MIGRATION_FILE, MIGRATIONS } from '../../server/src/database/migrations';
import { GROUP_MESSAGES } from '../../client/src/messages';
import { MATRIX, procedureOf } from '../policy/matrix.fixture';

const ROOT = join(__dirname, '..', '..');
const SERVER = join(ROOT, 'server', 'src');
const CLIENT = join(ROOT, 'client', 'src');

/** Files under a folder (tests left out), paths relative to the repository. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((f) => f.split('\\').join('/'))
    .filter((f) => keep(f.slice(f.lastIndexOf('/') + 1)) && !/\.spec\.tsx?$/.test(f))
    .map((f) => relative(ROOT, join(dir, f)))
    .sort();
}
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

const table: Record<string, ResourceAccess> = RESOURCE_ACCESS;
const names = Object.keys(table);

/** Routers of the app router → their procedures (built without services, as the permission snapshot does). */
const routers = new Map<string, string[]>();
for (const path of Object.keys(procedurePermissions())) {
  const [router, procedure] = path.split('.');
  routers.set(router, [...(routers.get(router) ?? []), procedure]);
}

// ---- the server's definitions ------------------------------------------------------------------

/** Every definition file, and the resources it defines (`resourceAccess('x')` or `labelOf('x')`). */
const definitionFiles = filesUnder(SERVER, (n) => /\.resources?\.ts$/.test(n));
const defined = new Map<string, string>();
for (const file of definitionFiles) {
  for (const m of read(file).matchAll(/\b(?:resourceAccess|labelOf)\('(\w+)'\)/g)) defined.set(m[1], file);
}

// ---- the browser's pages (client/src/<group>/index.tsx) ----------------------------------------

interface Page {
  name: string;
  file: string;
  /** `options.label`, when the page names itself with a key of its own. */
  label?: string;
}
/** The react-admin resources each group registers: the `name` of every element of its `resources` array. */
function pagesOf(file: string): Page[] {
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TSX);
  const pages: Page[] = [];
  const text = (o: ts.ObjectLiteralExpression, key: string): string | undefined => {
    const p = o.properties.find((x): x is ts.PropertyAssignment => ts.isPropertyAssignment(x) && x.name.getText(source) === key);
    return p && ts.isStringLiteral(p.initializer) ? p.initializer.text : undefined;
  };
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'resources' && ts.isArrayLiteralExpression(node.initializer)) {
      for (const element of node.initializer.elements) {
        if (!ts.isObjectLiteralExpression(element)) continue;
        const name = text(element, 'name');
        const options = element.properties.find((x): x is ts.PropertyAssignment => ts.isPropertyAssignment(x) && x.name.getText(source) === 'options');
        const label = options && ts.isObjectLiteralExpression(options.initializer) ? text(options.initializer, 'label') : undefined;
        if (name) pages.push({ name, file, label });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return pages;
}
const pages = filesUnder(CLIENT, (n) => n === 'index.tsx').flatMap(pagesOf);

/** A message of the browser's back-office groups, in one language (`resources.unit.name` …). */
function message(language: 'en' | 'fr', key: string): unknown {
  for (const group of GROUP_MESSAGES) {
    let node: unknown = group[language];
    for (const part of key.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
    if (node !== undefined) return node;
  }
  return undefined;
}

// ---- entities and migrations ----------------------------------------------------------------------

const tables = getMetadataArgsStorage().tables;
const entityTables = new Set(ENTITIES.map((e) => tables.find((t) => t.target === e)?.name));
const migrationFiles = filesUnder(join(SERVER, 'database', 'migrations'), (n) => MIGRATION_FILE.test(n));
const createdTables = new Set(migrationFiles.flatMap((f) => [...read(f).matchAll(/CREATE TABLE "(\w+)"/g)].map((m) => m[1])));

describe('a resource is declared in every list it needs, and only there', () => {
  it('every server definition has its entry in the shared table, and takes its label from it', () => {
    expect(defined.size).toBeGreaterThan(25);
    const wrong: string[] = [];
    for (const [name, file] of defined) {
      if (!(name in table)) wrong.push(`${file}: ${name} has no entry in shared/access/resources.ts`);
      else if (!table[name].label) wrong.push(`shared/access/resources.ts: ${name} has no label { en, fr }`);
    }
    // A label is a definition's: a label without one is left over.
    for (const name of names)
      if (table[name].label && !defined.has(name)) wrong.push(`shared/access/resources.ts: ${name} has a label but no server definition`);
    for (const def of RESOURCES) {
      if (def.label !== table[def.name]?.label?.en) wrong.push(`${def.name}: its definition's label "${def.label}" is not its entry's`);
    }
    expect(wrong).toEqual([]);
  });

  it('every definition is mounted: a router of its name, and a generated router has a definition', () => {
    const wrong: string[] = [];
    for (const [name, file] of defined)
      if (!routers.has(name)) wrong.push(`${file}: ${name} is defined but no router of that name is mounted (its line in the domain's record?)`);
    // `dependents` is one of the generated calls: only a definition gives a router those.
    for (const [router, procedures] of routers) {
      if (procedures.includes('dependents') && !defined.has(router))
        wrong.push(`${router}: a generated router without a definition that takes resourceAccess('${router}')`);
    }
    expect(wrong).toEqual([]);
  });

  it('every entry of the shared table is a router, or a question only the browser asks (pages) that the browser does ask', () => {
    const browser = filesUnder(CLIENT, (n) => /\.tsx?$/.test(n))
      .map(read)
      .join('\n');
    const wrong: string[] = [];
    for (const name of names) {
      const entry = table[name];
      if (routers.has(name)) continue;
      if (Object.keys(entry.perms).length) wrong.push(`${name}: perms without a router of that name`);
      else if (!new RegExp(`['"\`]${name}['"\`]`).test(browser)) wrong.push(`${name}: no router, and no page of the browser names it`);
    }
    expect(wrong).toEqual([]);
  });

  it('every page of the browser has its entry in the shared table, and its name in English and French', () => {
    expect(pages.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const page of pages) {
      if (!(page.name in table)) wrong.push(`${page.file}: page ${page.name} has no entry in shared/access/resources.ts (canAccess would refuse it)`);
      const key = page.label ?? `resources.${page.name}.name`;
      for (const language of ['en', 'fr'] as const) {
        if (typeof message(language, key) !== 'string') wrong.push(`${page.file}: page ${page.name} has no ${language} string ${key} in its group's i18n.ts`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the browser has strings (English and French alike) only for resources of the shared table', () => {
    const wrong: string[] = [];
    const keys = (node: unknown, prefix = ''): string[] =>
      node && typeof node === 'object' ? Object.entries(node).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`))) : [];
    for (const name of new Set(GROUP_MESSAGES.flatMap((g) => [...Object.keys(g.en.resources ?? {}), ...Object.keys(g.fr.resources ?? {})]))) {
      if (!(name in table)) wrong.push(`strings for resources.${name}, which is no resource of shared/access/resources.ts`);
      const en = keys(message('en', `resources.${name}`)).sort();
      const fr = keys(message('fr', `resources.${name}`)).sort();
      if (JSON.stringify(en) !== JSON.stringify(fr)) wrong.push(`resources.${name}: English ${en.join(',')} ≠ French ${fr.join(',')}`);
    }
    expect(wrong).toEqual([]);
  });

  it("every label has its French in the server's catalogue, as the table says", () => {
    const wrong = Object.entries(FRENCH_LABELS)
      .filter(([en, fr]) => !fr.trim() || FRENCH[en] !== fr)
      .map(([en, fr]) => `${en}: the table says "${fr}", the catalogue "${FRENCH[en]}"`);
    expect(Object.keys(FRENCH_LABELS).length).toBe(defined.size);
    expect(wrong).toEqual([]);
  });

  it("every definition's table is created by a migration and mapped by an entity", () => {
    const wrong: string[] = [];
    for (const def of RESOURCES) {
      if (!createdTables.has(def.table)) wrong.push(`${def.name}: no migration creates its table ${def.table}`);
      if (!entityTables.has(def.table)) wrong.push(`${def.name}: no *.entity.ts maps its table ${def.table}`);
    }
    expect(wrong).toEqual([]);
  });

  it('every *.entity.ts file is an entity and every migration file a migration (found by their names)', () => {
    // Read from the sources, not the way ENTITIES is found: every exported class of an entity file.
    const entityFiles = filesUnder(SERVER, (n) => ENTITY_FILE.test(n));
    const classes = entityFiles.flatMap((f) => [...read(f).matchAll(/^export class (\w+)/gm)].map((m) => m[1])).sort();
    expect(entityFiles.length).toBeGreaterThan(50);
    expect(ENTITIES.map((e) => e.name).sort()).toEqual(classes);
    // Migrations: one per file, in timestamp order, every file of the folder.
    expect(MIGRATIONS.map((m) => m.name.slice(-13))).toEqual(migrationFiles.map((f) => f.slice(f.lastIndexOf('/') + 1, f.lastIndexOf('/') + 14)));
    const others = filesUnder(join(SERVER, 'database', 'migrations'), (n) => /\.ts$/.test(n) && n !== 'index.ts' && !MIGRATION_FILE.test(n));
    expect(others).toEqual([]);
  });

  it("the policy matrix has rows for every procedure of every resource's router, and for no other", () => {
    const rows = new Set(Object.keys(MATRIX).map(procedureOf));
    const wrong: string[] = [];
    for (const name of names) {
      for (const procedure of routers.get(name) ?? []) {
        if (rows.has(`${name}.${procedure}`)) continue;
        const hint = name in CATALOGUE_RESOURCES ? ' (a plain catalogue gets them built: is its input a reference, or its rule not the catalogue one?)' : '';
        wrong.push(`test/policy/matrix.fixture.ts: no row for ${name}.${procedure}${hint}`);
      }
    }
    for (const row of rows) {
      const [router, procedure] = row.split('.');
      if (router in table && !(routers.get(router) ?? []).includes(procedure))
        wrong.push(`test/policy/matrix.fixture.ts: a row for ${row}, which no router has`);
    }
    expect(wrong).toEqual([]);
  });
});
