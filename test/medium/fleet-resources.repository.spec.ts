import { controllerStateColumns, entityKindWhere, entityTypeKind } from '../../server/src/controllers/fleet-resources.repository';
import { controlWorld, type ControlWorld } from './control-world';
import { mediumWorld, type MediumWorld } from './world';

/** fleet-resources.repository.ts on a real database: the resources' SQL fragments and catalogue lookups. */
describe('fleet resources repository (database)', () => {
  let w: MediumWorld;
  let c: ControlWorld;

  beforeAll(async () => {
    w = await mediumWorld();
    c = await controlWorld(w);
  });
  afterAll(() => w?.db.close());

  it("entityKindWhere splits devices from data processors; entityTypeKind reads a type's kind", async () => {
    const devices = await w.ds.query<{ entity_cuid: string }[]>(`SELECT t.entity_cuid FROM entity t WHERE ${entityKindWhere(true)}`);
    const processors = await w.ds.query<{ entity_cuid: string }[]>(`SELECT t.entity_cuid FROM entity t WHERE ${entityKindWhere(false)}`);
    expect(devices.map((d) => d.entity_cuid)).toEqual(expect.arrayContaining([c.demoDevice, c.otherDevice]));
    expect(processors.map((d) => d.entity_cuid)).not.toContain(c.demoDevice);
    const [type] = await w.ds.query<{ entitytype_id: string }[]>(`SELECT entitytype_id FROM entity WHERE entity_cuid = $1`, [c.demoDevice]);
    expect(await entityTypeKind(w.ds.manager, type.entitytype_id)).toBe('Device');
    expect(await entityTypeKind(w.ds.manager, 'no-such-type')).toBeUndefined();
  });

  it("controllerStateColumns joins each controller to its own state only (company B's controller has none)", async () => {
    const s = controllerStateColumns();
    const rows = await w.ds.query<{ controller_id: string; online_state: string | null; rank: number | null }[]>(
      `SELECT t.controller_id, ${s.columns.online_state} AS online_state, ${s.sortExpressions.online_state} AS rank FROM controller t ${s.joins} ORDER BY t.controller_id`,
    );
    expect(rows).toEqual([
      { controller_id: c.demoController, online_state: 'ONLINE', rank: 2 },
      { controller_id: c.otherController, online_state: null, rank: null },
    ]);
  });
});
