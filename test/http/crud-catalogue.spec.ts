import { OTHER_COMPANY_NAME } from '../../server/src/database/seed/demo-seed';
import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

const list = (filter: Record<string, unknown> = {}) => ({ pagination: { page: 1, perPage: 100 }, filter });

describe('catalogues: superusers keep them, Experts read them', () => {
  let t: TestApp;
  const as: Record<string, HttpClient> = {};
  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['superuser', 'installer', 'expert', 'basic']) {
      as[who] = new HttpClient(t.baseUrl);
      expect((await as[who].login(`${who}@demo.local`)).status).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('unit variants are spellings or scaled units with a factor; a seeded unit saves unchanged', async () => {
    const [kwh] = await t.db.dataSource.query(`SELECT unit_cuid, unit_variants FROM unit WHERE unit = 'kWh'`);
    const saved = await as.superuser.mutate('unit.update', { id: kwh.unit_cuid, data: { description: 'Energy', unit_variants: kwh.unit_variants } });
    expect(saved.status).toBe(200);
    expect(saved.data.data.unit_variants).toEqual(kwh.unit_variants);
    const mixed = await as.superuser.mutate('unit.create', { data: { unit: 'VA', unit_variants: ['va', { unit: 'kVA', factor: 0.001 }] } });
    expect(mixed.status).toBe(200);
    for (const bad of [[{ unit: 'kVA', factor: -1 }], [{ unit: 'kVA' }], [{ unit: 'kVA', factor: 1, extra: 1 }], [42]]) {
      const res = await as.superuser.mutate('unit.create', { data: { unit: 'VAr', unit_variants: bad } });
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
    }
    expect(await t.db.dataSource.query(`SELECT 1 FROM unit WHERE unit = 'VAr'`)).toEqual([]);
  });

  it('a superuser adds an entity type with log parameters; an Expert sees it and cannot edit it', async () => {
    const unit = await as.superuser.mutate('unit.create', { data: { unit: 'Hz', description: 'Hertz', unit_variants: ['hz'] } });
    expect(unit.status).toBe(200);
    const param = await as.superuser.mutate('logParameter.create', {
      data: { parameter_id: 'grid_frequency', description: 'Grid frequency', unit_cuid: unit.data.data.unit_cuid, type: 'FloatLogParameter' },
    });
    expect(param.data.data).toMatchObject({ id: 'grid_frequency', type: 'FloatLogParameter' });
    const type = await as.superuser.mutate('entityType.create', {
      data: { entitytype_id: 'grid-meter-x1', model: 'Grid meter X1', entity_type: 'Device', description: '<b>bold</b> <script>alert(1)</script>' },
    });
    expect(type.status).toBe(200);
    const link = await as.superuser.mutate('entityTypeLogParameterAssignment.create', { data: { entitytype_id: 'grid-meter-x1', parameter_id: 'grid_frequency' } });
    expect(link.status).toBe(200);

    const seen = await as.expert.query('entityType.getOne', { id: 'grid-meter-x1' });
    expect(seen.data.data).toMatchObject({ model: 'Grid meter X1', entity_type: 'Device', description: '<b>bold</b> <script>alert(1)</script>' });
    const params = await as.expert.query('entityTypeLogParameterAssignment.getManyReference', {
      target: 'entitytype_id',
      id: 'grid-meter-x1',
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'parameter_id', order: 'ASC' },
      filter: {},
    });
    expect(params.data.data.map((p: { parameter_id: string }) => p.parameter_id)).toEqual(['grid_frequency']);
    expect((await as.expert.mutate('entityType.update', { id: 'grid-meter-x1', data: { model: 'Mine now' } })).status).toBe(403);
    expect((await as.installer.mutate('entityType.delete', { id: 'grid-meter-x1' })).status).toBe(403);
    expect((await as.basic.query('entityType.getList', list())).status).toBe(403);
  });

  it('database constraints answer in words: a duplicate key is CONFLICT, a bad slug is BAD_REQUEST', async () => {
    const dup = await as.superuser.mutate('interfaceType.create', { data: { interfacetype_id: 'modbus-tcp' } });
    expect(dup.status).toBe(409);
    expect(dup.error?.message).toBe('A record with the same unique value already exists');
    expect(dup.text).not.toMatch(/duplicate key|constraint|INSERT/);
    const bad = await as.superuser.mutate('interfaceType.create', { data: { interfacetype_id: 'Modbus TCP!' } });
    expect(bad.status).toBe(400);
    const dangling = await as.superuser.mutate('controllerType.create', { data: { model: 'X', manufacturer_cuid: 'zzzzzzzzzzzzzzzzzzzzzzzz' } });
    expect(dangling.status).toBe(409);
    expect(dangling.text).not.toMatch(/foreign key|fk_/);
  });

  it('a manufacturer private to another company is invisible; global ones are shared', async () => {
    const [{ company_cuid: other }] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = $1`, [OTHER_COMPANY_NAME]);
    const priv = await as.superuser.mutate('manufacturer.create', { data: { name: 'Private Inverters Ltd', company_cuid: other } });
    expect(priv.status).toBe(200);
    const seen = (await as.expert.query('manufacturer.getList', list())).data.data.map((m: { name: string }) => m.name);
    expect(seen).toContain('Victron Energy');
    expect(seen).not.toContain('Private Inverters Ltd');
    const one = await as.expert.query('manufacturer.getOne', { id: priv.data.data.id });
    expect(one.status).toBe(404);
  });

  it('entity type meta gets its id from the database', async () => {
    const meta = await as.superuser.mutate('entityTypeMeta.create', { data: { entitytype_id: 'grid-meter-x1', meta: { registers: { frequency: 30001 } } } });
    expect(meta.status).toBe(200);
    expect(typeof meta.data.data.entitytypemeta_id).toBe('number');
    expect(meta.data.data.id).toBe(String(meta.data.data.entitytypemeta_id));
    expect(meta.data.data.datetime).toBeInstanceOf(Date);
  });
});
