import { isPermission } from '../../../shared/access/policy';
import { RESOURCE_ACCESS, type ResourceAccess } from '../../../shared/access/resources';
import { procedurePermissions } from './procedure-permissions';
import { RESOURCES } from './resource-routers';

/** Routers of the app router the browser does not use as a react-admin resource. */
const NOT_RESOURCES = ['telemetry', 'exportJob', 'fleet', 'account'];

/** The react-admin action a procedure of a generated router answers. */
const ACTION_OF: Record<string, string> = {
  getList: 'list',
  getMany: 'list',
  getManyReference: 'list',
  access: 'list',
  getOne: 'show',
  create: 'create',
  importMany: 'create',
  update: 'edit',
  updateMany: 'edit',
  delete: 'delete',
  deleteMany: 'deleteMany',
};

const table: Record<string, ResourceAccess> = RESOURCE_ACCESS;
const procedures = procedurePermissions();
const routers = new Map<string, Map<string, string>>();
for (const [path, perm] of Object.entries(procedures)) {
  const [router, name] = path.split('.');
  if (!routers.has(router)) routers.set(router, new Map());
  routers.get(router)!.set(name, perm);
}

/** The permission the entry gives an action (deleteMany falls back to delete). */
const permOf = (entry: ResourceAccess, action: string) => entry.perms[action] ?? (action === 'deleteMany' ? entry.perms.delete : undefined);

describe('access/resources.ts against the app router', () => {
  it('has an entry for every router of the app router the browser uses as a resource', () => {
    const missing = [...routers.keys()].filter((r) => !NOT_RESOURCES.includes(r) && !(r in table));
    expect(missing).toEqual([]);
    for (const r of NOT_RESOURCES) expect([r, routers.has(r), r in table]).toEqual([r, true, false]);
  });

  it('names only permissions the policy knows', () => {
    const unknown = Object.entries(table).flatMap(([name, e]) =>
      Object.entries({ ...e.perms, ...e.pages })
        .filter(([, p]) => !p || !isPermission(p))
        .map(([action, p]) => `${name}.${action}: ${p}`),
    );
    expect(unknown).toEqual([]);
  });

  it('names for each action the permission its procedures enforce (.meta({ perm }))', () => {
    const wrong: string[] = [];
    for (const [name, entry] of Object.entries(table)) {
      const procs = routers.get(name);
      for (const [action, perm] of Object.entries(entry.perms)) {
        if (!procs) {
          wrong.push(`${name}: no router of that name, yet perms.${action} (a page-only question belongs in pages)`);
          continue;
        }
        const answering = [...procs.keys()].filter(
          (p) => (ACTION_OF[p] ?? p) === action || (action === 'delete' && p === 'deleteMany' && !entry.perms.deleteMany),
        );
        if (answering.length === 0) wrong.push(`${name}.${action}: no procedure answers it (a page-only question belongs in pages)`);
        for (const p of answering) if (procs.get(p) !== perm) wrong.push(`${name}.${action} = ${perm}, but ${name}.${p} enforces ${procs.get(p)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("covers every react-admin call of a resource's router", () => {
    const missing: string[] = [];
    for (const [name, procs] of routers) {
      const entry = table[name];
      if (!entry) continue;
      for (const [p, perm] of procs) {
        const action = ACTION_OF[p];
        if (action && permOf(entry, action) !== perm) missing.push(`${name}.${p} (${perm}): perms.${action} is ${permOf(entry, action) ?? 'missing'}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('says a resource imports CSV exactly when its router has importMany, with the create fields as columns', () => {
    const wrong: string[] = [];
    for (const [name, entry] of Object.entries(table)) {
      const hasImport = routers.get(name)?.has('importMany') ?? false;
      if (!!entry.csv !== hasImport) wrong.push(`${name}: csv ${entry.csv ? 'given' : 'missing'}, importMany ${hasImport ? 'present' : 'absent'}`);
    }
    for (const def of RESOURCES.filter((d) => d.importable)) {
      const csv = table[def.name]?.csv;
      if (!csv) continue;
      const create = Object.keys(def.create.shape).sort();
      if (JSON.stringify([...csv.fields].sort()) !== JSON.stringify(create))
        wrong.push(`${def.name}: csv.fields ${csv.fields.join(',')} ≠ create ${create.join(',')}`);
      // The server ignores `id` and a generated key; the browser must not offer them as columns.
      for (const column of ['id', ...(def.generatedKey === false ? [] : [def.key])]) {
        if (!csv.ignore.includes(column)) wrong.push(`${def.name}: csv.ignore lacks ${column}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('names in a CSV import only resources the app registers for the lookup (RESOURCES, api/trpc.module.ts)', () => {
    const registered = new Set<string>(RESOURCES.map((d) => d.name));
    const named = Object.entries(table).flatMap(([name, e]) => Object.values(e.csv?.names ?? {}).map((n) => `${name} → ${n.resource}`));
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((n) => !registered.has(n.split(' → ')[1]))).toEqual([]);
  });
});
