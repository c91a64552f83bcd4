import { isPermission } from '../access/policy';
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
