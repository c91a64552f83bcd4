import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { isPermission, PERMISSIONS } from '../../../shared/access/policy';
import { RESOURCE_ACCESS, type ResourceAccess } from '../../../shared/access/resources';
import { procedurePermissions } from './procedure-permissions';

describe('procedure → permission map', () => {
  it('every procedure declares a known permission (or is explicitly public)', () => {
    const map = procedurePermissions();
    expect(Object.keys(map).length).toBeGreaterThan(0);
    for (const [path, perm] of Object.entries(map)) {
      expect({ path, known: perm === 'public' || isPermission(perm) }).toEqual({ path, known: true });
    }
  });

  it('matches the reviewed snapshot (a permission change shows up as a diff)', () => {
    expect(procedurePermissions()).toMatchSnapshot();
  });
});

/**
 * Permissions no procedure declares (`.meta({ perm })`) that a server-side check enforces instead,
 * each with where. Any other permission of policy.ts must guard a procedure: a rule nothing
 * enforces is deleted, and comes back with the issue that builds its feature.
 */
const SERVER_SIDE_CHECKS: Record<string, string> = {
  'files.upload':
    'POST /api/files: files/files.controller.ts (policy mayStartUpload, before the body is read) and files/files.service.ts authorizeUpload (level 2 in the owner company)',
  'systems.move': 'crud/crud.service.ts update: moving a record of a system to another system needs level 1 in the owner company of both',
};

const SRC = resolve(__dirname, '..');
function serverSources(dir = SRC, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== '__snapshots__') serverSources(path, out);
    } else if (name.endsWith('.ts') && !name.endsWith('.spec.ts') && relative(SRC, path) !== join('access', 'policy.ts')) {
      out.push(path);
    }
  }
  return out;
}

describe('every permission of policy.ts is enforced', () => {
  const declared = new Set(Object.values(procedurePermissions()));

  it('guards a procedure, or a server-side check listed with where', () => {
    const unused = PERMISSIONS.filter((p) => !declared.has(p) && !Object.hasOwn(SERVER_SIDE_CHECKS, p));
    expect(unused).toEqual([]);
  });

  it('the listed server-side checks exist, and name permissions no procedure declares', () => {
    const code = serverSources().map((f) => readFileSync(f, 'utf8'));
    for (const p of Object.keys(SERVER_SIDE_CHECKS)) {
      expect({ p, known: isPermission(p), declaredByAProcedure: declared.has(p), checkedInCode: code.some((c) => c.includes(`'${p}'`)) }).toEqual({
        p,
        known: true,
        declaredByAProcedure: false,
        checkedInCode: true,
      });
    }
  });

  it('the client asks only permissions the server enforces (client/src/permissions.ts reads access/resources.ts)', () => {
    const entries = Object.values(RESOURCE_ACCESS as Record<string, ResourceAccess>);
    const asked = [...new Set(entries.flatMap((e) => [...Object.values(e.perms), ...Object.values(e.pages ?? {})]))] as string[];
    expect(asked.length).toBeGreaterThan(10);
    const unenforced = asked.filter((p) => !declared.has(p) && !Object.hasOwn(SERVER_SIDE_CHECKS, p));
    expect(unenforced).toEqual([]);
  });
});
