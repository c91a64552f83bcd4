import { OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
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
    const link = await as.superuser.mutate('entityTypeLogParameterAssignment.create', {
      data: { entitytype_id: 'grid-meter-x1', parameter_id: 'grid_frequency' },
    });
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

  it('a controller type declares its commands; a bad declaration answers field errors and stores nothing', async () => {
    const [{ manufacturer_cuid }] = await t.db.dataSource.query(`SELECT manufacturer_cuid FROM manufacturer WHERE company_cuid IS NULL LIMIT 1`);
    const commands = [
      { name: 'genset_start', label: 'Start the genset', dangerous: true, args: [] },
      {
        name: 'set_mode',
        args: [
          { name: 'mode', type: 'string', required: true, choices: ['eco', 'boost'] },
          { name: 'limit', type: 'number', min: 0, max: 100 },
        ],
      },
    ];
    const created = await as.superuser.mutate('controllerType.create', { data: { model: 'Commanded X', manufacturer_cuid, commands } });
    expect(created.status).toBe(200);
    const id = created.data.data.id;
    const read = await as.expert.query('controllerType.getOne', { id });
    expect(read.data.data.commands).toEqual([
      { ...commands[0] },
      {
        name: 'set_mode',
        dangerous: false,
        args: [
          { name: 'mode', type: 'string', required: true, choices: ['eco', 'boost'] },
          { name: 'limit', type: 'number', required: false, min: 0, max: 100 },
        ],
      },
    ]);
    const plain = await as.superuser.mutate('controllerType.create', { data: { model: 'Plain X', manufacturer_cuid } });
    expect(plain.data.data.commands).toEqual([]);

    for (const bad of [
      [{ name: 'restart' }],
      [{ name: 'Bad Name' }],
      [{ name: 'a' }, { name: 'a' }],
      [{ name: 'x', args: [{ name: 'y', type: 'date' }] }],
      'genset_start',
    ]) {
      const res = await as.superuser.mutate('controllerType.update', { id, data: { commands: bad } });
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
      expect(res.text).not.toMatch(/ZodError|at .*\.ts/);
    }
    const named = await as.superuser.mutate('controllerType.update', { id, data: { commands: [{ name: 'Bad Name' }] } });
    expect(named.error?.data?.fieldErrors?.map((f: { path: string }) => f.path)).toEqual(['data.commands.0.name']);
    expect((await as.expert.query('controllerType.getOne', { id })).data.data.commands).toHaveLength(2);
    expect((await as.installer.mutate('controllerType.update', { id, data: { commands: [] } })).status).toBe(403);
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

  it('a log parameter still in use (telemetry of any company, rollups, type or category assignments, trigger or template arguments) is not deleted: CONFLICT, nothing lost', async () => {
    const ds = t.db.dataSource;
    const [{ entity_cuid: device, entitytype_id: type, system_cuid: clinic }] = await ds.query(
      `SELECT e.entity_cuid, e.entitytype_id, e.system_cuid FROM entity e JOIN system s USING (system_cuid) JOIN company c USING (company_cuid)
        WHERE c.name = $1 OR TRUE ORDER BY (c.name = $1) DESC LIMIT 1`,
      [OTHER_COMPANY_NAME],
    );
    const [{ entitycategory_cuid: category }] = await ds.query(
      `INSERT INTO entity_category (entitycategory_cuid, name) VALUES ('lpcat0000000000000000001', 'LP category') RETURNING entitycategory_cuid`,
    );
    const uses: Record<string, (id: string) => Promise<unknown>> = {
      raw: (id) =>
        ds.query(`INSERT INTO parameter_log (entity_cuid, parameter_id, "timestamp", value) VALUES ($1, $2, now() - interval '1 hour', 1)`, [device, id]),
      rollup: (id) =>
        ds.query(
          `INSERT INTO parameter_rollup_1d (entity_cuid, parameter_id, bucket, min, max, sum, count, last, last_ts) VALUES ($1, $2, now(), 1, 1, 1, 1, 1, now())`,
          [device, id],
        ),
      typeAssignment: (id) =>
        ds.query(
          `INSERT INTO entity_type_log_parameter_assignment (entitylogparam_cuid, entitytype_id, parameter_id) VALUES (substr(md5($1), 1, 24), $2, $1)`,
          [id, type],
        ),
      categoryAssignment: (id) =>
        ds.query(
          `INSERT INTO entity_category_log_parameter_assignment (entitycatparam_cuid, entitycategory_cuid, parameter_id) VALUES (substr(md5($1), 1, 24), $2, $1)`,
          [id, category],
        ),
      trigger: (id) =>
        ds.query(
          `INSERT INTO notification_trigger (trigger_cuid, args, name, message, system_cuid) VALUES (substr(md5($1), 1, 24), $2, 'LP trigger', 'm', $3)`,
          [id, JSON.stringify({ threshold: 5, parameter: id }), clinic],
        ),
      template: (id) =>
        ds.query(
          `INSERT INTO notification_template_assignment (assignment_cuid, name, message, args, entitytype_id) VALUES (substr(md5($1), 1, 24), 'LP template', 'm', $2, $3)`,
          [id, JSON.stringify({ conditions: [{ parameter_id: id }] }), type],
        ),
    };
    const counts = async (id: string) =>
      (
        await ds.query(
          `SELECT (SELECT count(*) FROM parameter_log WHERE parameter_id = $1)::int AS raw, (SELECT count(*) FROM parameter_rollup_1d WHERE parameter_id = $1)::int AS rollup,
                  (SELECT count(*) FROM entity_type_log_parameter_assignment WHERE parameter_id = $1)::int AS ta,
                  (SELECT count(*) FROM entity_category_log_parameter_assignment WHERE parameter_id = $1)::int AS ca,
                  (SELECT count(*) FROM log_parameter WHERE parameter_id = $1)::int AS param`,
          [id],
        )
      )[0];
    for (const [use, make] of Object.entries(uses)) {
      const id = `lp_in_use_${use.toLowerCase()}`;
      expect((await as.superuser.mutate('logParameter.create', { data: { parameter_id: id, type: 'FloatLogParameter' } })).status).toBe(200);
      await make(id);
      const before = await counts(id);
      const refused = await as.superuser.mutate('logParameter.delete', { id });
      expect({ use, status: refused.status }).toEqual({ use, status: 409 });
      expect(refused.error?.message).toMatch(/still used/i);
      expect((await as.superuser.mutate('logParameter.deleteMany', { ids: [id] })).status).toBe(409);
      expect(await counts(id)).toEqual(before);
    }
    // unused: deleted; with a used one in the same call: nothing deleted
    expect((await as.superuser.mutate('logParameter.create', { data: { parameter_id: 'lp_unused_1', type: 'FloatLogParameter' } })).status).toBe(200);
    expect((await as.superuser.mutate('logParameter.deleteMany', { ids: ['lp_unused_1', 'lp_in_use_raw'] })).status).toBe(409);
    expect((await counts('lp_unused_1')).param).toBe(1);
    expect((await as.superuser.mutate('logParameter.delete', { id: 'lp_unused_1' })).status).toBe(200);
    expect((await counts('lp_unused_1')).param).toBe(0);
  });
});
