/**
 * What callers store must always be readable back, for everybody.
 *
 *   - Every JSON field of every procedure (meta, config, args, layouts, branding …) is bounded:
 *     keys superjson refuses (`__proto__`, `constructor`, `prototype`), deep nesting, too many keys,
 *     too long or too large values answer 400 naming the field; lists stay 200 for everyone.
 *   - A row already holding such JSON (written before the bounds, e.g. by SQL) does not make its
 *     lists fail: the value is sent as null, listed under `$unreadable`, logged with the path.
 *   - Every URL field accepts http(s) URLs (and site paths where they make sense) only: never
 *     `javascript:`, `data:` or a protocol-relative `//host`.
 *
 * The fields are found in the procedures' own input schemas (the shared `boundedJson` / `httpUrl`
 * types register themselves), and a meta-test fails for a JSON-like or URL-like field that does
 * not use them; valid inputs come from the policy matrix fixture.
 */
import { Logger } from '@nestjs/common';
import superjson from 'superjson';
import { jsonFields, urlFields } from '../../shared/common/zod-fields';
import { domainResource, rootDomainResource } from '../../server/src/branding/domain.resources';
import { RESOURCES } from '../../server/src/api/resource-routers';
import type { ResourceDefinition } from '../../server/src/crud/resource';
import { dashboardResource } from '../../server/src/dashboards/dashboard.resource';
import { systemMetadataResource } from '../../server/src/systems/system-metadata.resources';
import { UNREADABLE_MARKER } from '../../server/src/trpc/trpc';
import { startTestApp, type TestApp } from '../factories/app';
import type { HttpClient } from '../factories/http-client';
import { listProcedures, PolicyWorld, pool } from '../factories/policy-world';
import { type CaseCtx, MATRIX, procedureOf } from '../policy/matrix.fixture';
import { defOf, type Path, STOP, walkSchema } from '../factories/schema-walk';

jest.setTimeout(300_000);

interface Found {
  json: { path: Path }[];
  url: { path: Path; site: boolean; httpsOnly: boolean }[];
  /** Records, unknowns and anys outside a bounded JSON field (a JSON value nobody bounds). */
  unbounded: Path[];
  /** Strings named like a URL that are not an `httpUrl`. */
  urlLike: Path[];
}

/** The JSON and URL fields of an input schema, by path. */
function fieldsOf(schema: unknown): Found {
  const found: Found = { json: [], url: [], unbounded: [], urlLike: [] };
  // The context: inside a bounded JSON field (typed JSON, e.g. branding, may hold URLs below it).
  walkSchema(schema, false, {
    unions: 'all',
    pipes: 'both',
    visit: (s, d, path, inJson) => {
      if (jsonFields.has(s as never)) {
        found.json.push({ path });
        return true; // its typed side (the pipe's output) may hold URLs
      }
      const url = urlFields.get(s as never);
      if (url) {
        found.url.push({ path, site: url.path, httpsOnly: url.httpsOnly });
        return STOP;
      }
      const last = String(path[path.length - 1] ?? '');
      if ((d.type === 'record' || d.type === 'unknown' || d.type === 'any') && !inJson) found.unbounded.push(path);
      if (d.type === 'string' && /(^|_)(url|logo|image|link|href|website|favicon)$/i.test(last)) found.urlLike.push(path);
      return inJson;
    },
  });
  return found;
}

/** Input parts that are never stored: react-admin's `meta` / `previousData`, CSV rows (checked by `create` row by row). */
const NOT_STORED = (path: string, at: Path) =>
  ['meta', 'previousData'].includes(String(at[0])) || (path.endsWith('.importMany') && at[0] === 'rows') || at.length === 0;

function setAt(input: unknown, path: Path, value: unknown): unknown {
  const root = structuredClone(input) as Record<string | number, unknown>;
  let node = root;
  for (const key of path.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== 'object') node[key] = typeof key === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  node[path[path.length - 1]] = value;
  return root;
}

/** Sends a mutation body as plain JSON under `json` (superjson itself refuses to write such keys). */
async function mutateRaw(c: HttpClient, path: string, input: unknown) {
  let body: string;
  try {
    body = JSON.stringify(superjson.serialize(input));
  } catch {
    body = JSON.stringify({ json: input });
  }
  const res = await c.request('POST', `/api/trpc/${path}`, { body, headers: { 'content-type': 'application/json' } });
  const error = res.body?.error?.json as { message: string; data: { fieldErrors?: { path: string; message: string }[] } } | undefined;
  return { status: res.status, error, text: res.text };
}

const nested = (levels: number): unknown => {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
};

/** Values no JSON field may hold, and why. */
const POISON: [string, () => unknown][] = [
  ['a constructor key', () => ({ ok: 1, constructor: { polluted: true } })],
  ['a prototype key', () => ({ prototype: 1 })],
  ['an own __proto__ key', () => JSON.parse('{"ok": 1, "__proto__": {"polluted": true}}')],
  ['a constructor key deep inside', () => ({ a: [{ b: { constructor: 1 } }] })],
  ['3000 levels of nesting', () => nested(3000)],
  ['33 levels of nesting', () => nested(33)],
  ['120 kB of JSON', () => ({ big: 'x'.repeat(120_000) })],
  ['1001 keys', () => Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i]))],
  ['a list of 10001 items', () => ({ list: Array.from({ length: 10_001 }, () => 0) })],
];

const BAD_URLS = [
  'javascript:alert(1)',
  'JavaScript:alert(document.cookie)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  '//evil.example/logo.png',
  '/\\evil.example/logo.png',
  '\\\\evil.example',
  'https://user:secret@evil.example/',
  'ftp://files.example/logo.png',
  'http://',
  'not a url',
];

describe('stored input fields: JSON values and URLs', () => {
  let t: TestApp;
  let w: PolicyWorld;
  let su: HttpClient;
  let other: HttpClient;
  let ctx: CaseCtx;
  let procedures: ReturnType<typeof listProcedures>;
  /** The mutations the fixture can build a valid input for, with their fields. */
  const mutations: { key: string; path: string; found: Found }[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    w = new PolicyWorld(t);
    await w.build();
    su = await w.actor(0, true);
    other = await w.actor(3, false);
    // a company create bumps its creator's session epoch: each write gets a fresh superuser
    const home = w.places.own.company_cuid;
    ctx = { w, rel: 'own', who: { level: 0, admin: true }, home, actor_user_cuid: (su as HttpClient & { user_cuid: string }).user_cuid };
    procedures = listProcedures(w.appRouter());
    for (const [key, entry] of Object.entries(MATRIX)) {
      if (entry.type !== 'mutation' || key !== procedureOf(key)) continue;
      const proc = procedures.get(key);
      if (!proc) continue;
      const found = fieldsOf(proc.inputs[0]);
      mutations.push({ key, path: key, found });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  async function validInput(key: string): Promise<unknown> {
    return (await MATRIX[key].input(ctx)).input;
  }

  /** Every list of every resource, and a few other readers, answer 200 for the superuser and a Basic member. */
  async function everyListReadable(): Promise<string[]> {
    const failures: string[] = [];
    const reads: [string, unknown][] = RESOURCES.map((r) => [`${r.name}.getList`, { pagination: { page: 1, perPage: 1000 }, filter: {} }]);
    for (const name of ['dashboard', 'rootDomain', 'domain', 'systemMetadata', 'systemMetadataTemplateFieldset', 'user', 'companyMembership']) {
      if (procedures.has(`${name}.getList`) && !reads.some(([p]) => p === `${name}.getList`))
        reads.push([`${name}.getList`, { pagination: { page: 1, perPage: 1000 }, filter: {} }]);
    }
    for (const [client, who] of [
      [await w.actor(0, true), 'superuser'],
      [other, 'Basic'],
    ] as const) {
      await pool(reads, 4, async ([path, input]) => {
        const res = await client.query(path, input);
        if (res.status >= 500 || (who === 'superuser' && res.status !== 200)) failures.push(`${path} as ${who}: ${res.status} ${res.text.slice(0, 200)}`);
      });
    }
    return failures.sort();
  }

  it('every JSON-like value a mutation stores goes through the one bounded JSON type, and every URL-like field through httpUrl', () => {
    const unbounded = mutations.flatMap((m) => m.found.unbounded.filter((p) => !NOT_STORED(m.path, p)).map((p) => `${m.path}: ${p.join('.')}`));
    const urlLike = mutations.flatMap((m) => m.found.urlLike.map((p) => `${m.path}: ${p.join('.')}`));
    expect({ unbounded, urlLike }).toEqual({ unbounded: [], urlLike: [] });
    // the enumeration finds the fields the findings named
    const json = new Set(mutations.flatMap((m) => m.found.json.map((f) => `${m.path}:${f.path.join('.')}`)));
    for (const f of [
      'controller.update:data.controller_info',
      'entity.create:data.config',
      'entity.update:data.device_info',
      'entity.update:data.portal_config',
      'dataProcessor.configure:config',
      'notificationTrigger.create:data.args',
      'notificationTemplateAssignment.update:data.args',
      'systemDataExportTemplate.create:data.config',
      'company.update:data.meta',
      'dashboard.update:data.meta',
      'rootDomain.update:data.root_domain_data',
      'domain.create:data.domain_data',
      'systemMetadata.save:data',
      'entityTypeMeta.create:data.meta',
    ])
      expect({ f, found: json.has(f) }).toEqual({ f, found: true });
    const urls = new Set(mutations.flatMap((m) => m.found.url.map((f) => `${m.path}:${f.path.join('.')}`)));
    for (const f of [
      'company.create:data.url',
      'company.update:data.logo',
      'manufacturer.create:data.url',
      'entityType.create:data.url',
      'entityType.update:data.image',
      'controllerType.create:data.image',
      'rootDomain.update:data.root_domain_data.logo_url',
      'domain.create:data.domain_data.favicon_url',
      'domain.update:data.domain_data.og_image.url',
    ])
      expect({ f, found: urls.has(f) }).toEqual({ f, found: true });
  });

  it('poisoned JSON in every JSON field of every mutation answers 400 naming the field, and every list stays 200 for everyone', async () => {
    const cases = mutations.flatMap((m) => m.found.json.map((f) => ({ m, field: f.path })));
    expect(cases.length).toBeGreaterThan(30);
    const failures: string[] = [];
    await pool(cases, 4, async ({ m, field }) => {
      for (const [why, poison] of POISON) {
        const input = setAt(await validInput(m.key), field, poison());
        const res = await mutateRaw(await w.actor(0, true), m.path, input);
        const name = field.join('.');
        const named = res.error?.data.fieldErrors?.some((e) => e.path === name || e.path.startsWith(`${name}.`));
        // superjson's reading of the body drops an own __proto__ key before any schema sees it: nothing is stored
        const dropped = why.includes('__proto__') && res.status < 500 && !res.text.includes('polluted');
        if (!dropped && (res.status !== 400 || !named)) failures.push(`${m.path} ${name} with ${why}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    });
    expect(failures.sort()).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await everyListReadable()).toEqual([]);
  });

  it('a CSV import carrying poisoned JSON refuses the row, naming the column', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const def of RESOURCES.filter((r) => r.importable)) {
      const key = `${def.name}.importMany`;
      if (!(key in MATRIX)) continue;
      const columns = fieldsOf(def.create).json.map((f) => String(f.path[0]));
      for (const column of columns) {
        for (const [why, poison] of POISON.filter(([w]) => !/120 kB/.test(w))) {
          const input = (await validInput(key)) as { rows: Record<string, string>[] };
          input.rows[0][column] = JSON.stringify(poison());
          const res = await (await w.actor(0, true)).mutate(key, input);
          checked++;
          const data = res.data as { created: number; errors: { field?: string }[] } | undefined;
          if (res.status !== 200 || data?.created !== 0 || !data.errors.some((e) => e.field === column))
            failures.push(`${key} ${column} with ${why}: ${res.status} ${res.text.slice(0, 200)}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(failures).toEqual([]);
    expect(await everyListReadable()).toEqual([]);
  });

  it('a row already holding unreadable JSON (written by SQL) does not fail its lists: the value is null, marked, and the path is logged', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const superuser = await w.actor(0, true);
    const failures: string[] = [];
    const jsonColumns = (def: ResourceDefinition) =>
      Object.entries(def.record.shape as Record<string, unknown>)
        .filter(([, s]) => {
          let d = defOf(s);
          while (d && ['nullable', 'optional', 'pipe'].includes(d.type)) d = defOf(d.type === 'pipe' ? d.out : d.innerType);
          return d?.type === 'record' || d?.type === 'unknown' || (d?.type === 'array' && defOf(d.element)?.type === 'unknown');
        })
        .map(([k, s]) => ({ column: k, array: defOf(s)?.type === 'array' }));
    const poisoned: string[] = [];
    // every resource with a JSON column, the generated ones and those with routers of their own
    const defs: ResourceDefinition[] = [...RESOURCES, rootDomainResource, domainResource, dashboardResource, systemMetadataResource({} as never)];
    for (const def of defs) {
      const columns = jsonColumns(def);
      if (!columns.length || !(`${def.name}.getOne` in MATRIX)) continue;
      const { id } = (await validInput(`${def.name}.getOne`)) as { id: string };
      for (const [i, { column, array }] of columns.entries()) {
        // the first column gets a refused key, the next ones nesting deeper than any stack
        const value = array ? [{ constructor: { x: 1 } }] : i % 2 === 0 ? { ok: 1, constructor: { x: 1 } } : nested(2500);
        await t.db.dataSource.query(`UPDATE "${def.table}" SET "${column}" = $1::jsonb WHERE "${def.key}"::text = $2`, [JSON.stringify(value), id]);
      }
      poisoned.push(def.name);
      for (const [client, who] of [
        [superuser, 'superuser'],
        [other, 'Basic'],
      ] as const) {
        const list = await client.query(`${def.name}.getList`, { pagination: { page: 1, perPage: 1000 }, filter: {} });
        const one = await client.query(`${def.name}.getOne`, { id });
        const many = await client.query(`${def.name}.getMany`, { ids: [id] });
        for (const [call, res] of [
          ['getList', list],
          ['getOne', one],
          ['getMany', many],
        ] as const) {
          if (res.status >= 500 || (who === 'superuser' && res.status !== 200))
            failures.push(`${def.name}.${call} as ${who}: ${res.status} ${res.text.slice(0, 200)}`);
        }
        if (who !== 'superuser') continue;
        const row = (one.data as { data: Record<string, unknown> } | undefined)?.data;
        for (const { column, array } of columns) {
          if (array) continue;
          if (row?.[column] !== null || !(row?.[UNREADABLE_MARKER] as string[] | undefined)?.includes(column))
            failures.push(`${def.name}.getOne: ${column} should be null and listed in ${UNREADABLE_MARKER}, got ${JSON.stringify(row).slice(0, 200)}`);
        }
        const listed = (list.data as { data: Record<string, unknown>[] } | undefined)?.data.find((r) => String(r.id) === String(id));
        if (!listed) failures.push(`${def.name}.getList: the poisoned row is missing from the list`);
      }
      const logged = warn.mock.calls.map((c) => String(c[0]));
      if (!logged.some((l) => l.startsWith(`${def.name}.getList:`))) failures.push(`${def.name}.getList: the degraded answer was not logged with its path`);
    }
    warn.mockRestore();
    expect(poisoned.length).toBeGreaterThan(10);
    expect(failures).toEqual([]);
    expect(await everyListReadable()).toEqual([]);
  });

  it('every URL field of every mutation refuses javascript:, data:, //host and other non-http(s) URLs (400 naming the field) and takes https:// (and site paths where allowed)', async () => {
    const cases = mutations.flatMap((m) => m.found.url.map((f) => ({ m, f })));
    expect(cases.length).toBeGreaterThan(15);
    const failures: string[] = [];
    await pool(cases, 4, async ({ m, f }) => {
      const name = f.path.join('.');
      const send = async (value: string) => {
        const res = await mutateRaw(await w.actor(0, true), m.path, setAt(await validInput(m.key), f.path, value));
        const refused = res.status === 400 && !!res.error?.data.fieldErrors?.some((e) => e.path === name);
        return { res, refused };
      };
      const bad = [...BAD_URLS, ...(f.site ? [] : ['/api/files/logo.png']), ...(f.httpsOnly ? ['http://plain.example/logo.png'] : [])];
      for (const value of bad) {
        const { res, refused } = await send(value);
        if (!refused) failures.push(`${m.path} ${name} took ${JSON.stringify(value)}: ${res.status} ${res.text.slice(0, 160)}`);
      }
      const good = ['https://ok.example/logo.png', ...(f.httpsOnly ? [] : ['http://ok.example/']), ...(f.site ? ['/api/files/abc123'] : [])];
      for (const value of good) {
        const { res, refused } = await send(value);
        // another part of the input may still be refused (an og_image needs its size), never the URL itself
        if (refused || res.status >= 500) failures.push(`${m.path} ${name} refused ${JSON.stringify(value)}: ${res.status} ${res.text.slice(0, 160)}`);
      }
    });
    expect(failures.sort()).toEqual([]);
    expect(await everyListReadable()).toEqual([]);
  });
});
