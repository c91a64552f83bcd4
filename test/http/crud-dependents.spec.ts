import { startTestApp, type TestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';
import { listProcedures } from '../factories/policy-world';
import { TrpcService } from '../../server/src/api/trpc.module';
import { DEPENDENT_KIND_MESSAGES } from '../../server/src/crud/dependents';

/**
 * `<resource>.dependents`: what deleting a record does to the rows that depend on it. Checked
 * against the database itself for every resource that has it (the class): each record's answer is
 * followed by the real delete, and the row counts of every kind the answer can name move exactly
 * as it said (deleted kinds down by their count, kept and unlinked kinds unchanged, nothing else
 * touched); a blocked record's delete is refused and changes nothing. Foreign and unknown ids
 * answer NOT_FOUND; the sentence is in the caller's language.
 */
type Dependent = { kind: string; action: 'delete' | 'unlink' | 'block'; count: number; more: boolean; label: string };
type Answer = { deletable: boolean; blocked: boolean; dependents: Dependent[]; message: string };

describe('what deleting a record does to what depends on it (HTTP)', () => {
  let t: TestApp;
  let su: HttpClient;
  let suFr: HttpClient;
  let resources: string[];
  beforeAll(async () => {
    t = await startTestApp();
    su = new HttpClient(t.baseUrl);
    expect((await su.login('superuser@demo.local')).status).toBe(200);
    suFr = new HttpClient(t.baseUrl, { 'accept-language': 'fr' });
    expect((await suFr.login('superuser@demo.local')).status).toBe(200);
    const procedures = listProcedures(t.app.get(TrpcService).appRouter);
    resources = [...procedures.keys()].filter((p) => p.endsWith('.dependents')).map((p) => p.slice(0, -'.dependents'.length));
  });
  afterAll(async () => {
    await t?.close();
  });

  const tables = Object.keys(DEPENDENT_KIND_MESSAGES);
  async function counts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const table of tables) out[table] = (await t.db.dataSource.query(`SELECT count(*)::int AS n FROM "${table}"`))[0].n;
    return out;
  }

  it('is offered by every generated resource', () => {
    expect(resources.length).toBeGreaterThan(20);
    for (const r of ['site', 'system', 'company', 'controller', 'entity', 'entityType', 'unit', 'notificationChannel']) expect(resources).toContain(r);
  });

  it('every resource: an unknown id is NOT_FOUND, in the caller language', async () => {
    for (const resource of resources) {
      const en = await su.query(`${resource}.dependents`, { ids: ['zzzzzzzzzzzzzzzzzzzzzzzz'] });
      expect([resource, en.status]).toEqual([resource, 404]);
      expect(en.error?.message).toMatch(/ not found$/);
      const fr = await suFr.query(`${resource}.dependents`, { ids: ['zzzzzzzzzzzzzzzzzzzzzzzz'] });
      expect(fr.error?.message).toMatch(/ introuvable$/);
    }
  });

  it('a foreign id is NOT_FOUND exactly like an unknown one (site, system, company of another company)', async () => {
    const other = new HttpClient(t.baseUrl);
    expect((await other.login('other@demo.local')).status).toBe(200);
    const [demo] = await t.db.dataSource.query(`SELECT company_cuid FROM company WHERE name = 'Demo Solar Ltd'`);
    const samples: [string, string][] = [
      ['site', (await t.db.dataSource.query(`SELECT site_cuid AS id FROM site WHERE company_cuid = $1 LIMIT 1`, [demo.company_cuid]))[0]?.id],
      [
        'system',
        (
          await t.db.dataSource.query(
            `SELECT system_cuid AS id FROM system WHERE company_cuid = $1 AND system_cuid NOT IN (SELECT system_cuid FROM system_sharing) LIMIT 1`,
            [demo.company_cuid],
          )
        )[0]?.id,
      ],
      ['company', demo.company_cuid],
    ];
    for (const [resource, id] of samples) {
      expect(id).toBeTruthy();
      const foreign = await other.query(`${resource}.dependents`, { ids: [id] });
      const unknown = await other.query(`${resource}.dependents`, { ids: ['zzzzzzzzzzzzzzzzzzzzzzzz'] });
      expect([resource, foreign.status]).toEqual([resource, unknown.status === 403 ? 403 : 404]);
      expect(foreign.error).toEqual(unknown.error);
    }
  });

  it('a site with systems: they are kept and unlinked, said in English and in French', async () => {
    const [site] = await t.db.dataSource.query(
      `SELECT site_cuid, count(*)::int AS n FROM system WHERE site_cuid IS NOT NULL GROUP BY site_cuid ORDER BY 2 DESC LIMIT 1`,
    );
    expect(site?.n).toBeGreaterThan(0);
    const en = (await su.query<{ data: Answer }>('site.dependents', { ids: [site.site_cuid] })).data!.data;
    expect(en.dependents).toContainEqual({ kind: 'system', action: 'unlink', count: site.n, more: false, label: `${site.n} system${site.n > 1 ? 's' : ''}` });
    expect(en.message).toContain(`Kept, but no longer linked: ${site.n} system`);
    const fr = (await suFr.query<{ data: Answer }>('site.dependents', { ids: [site.site_cuid] })).data!.data;
    expect(fr.message).toContain(`Conservés, mais plus liés : ${site.n} système`);
  });

  it('every resource: the answer is what the real delete does (class)', async () => {
    const checked: string[] = [];
    const blockedChecked: string[] = [];
    // A company goes last: it takes most of the world with it.
    const order = [...resources.filter((r) => r !== 'company'), 'company'];
    for (const resource of order) {
      const list = await su.query<{ data: { id: string }[] }>(`${resource}.getList`, {
        pagination: { page: 1, perPage: 25 },
        sort: { field: 'id', order: 'ASC' },
        filter: {},
      });
      const ids = (list.data?.data ?? []).map((r) => String(r.id));
      if (!ids.length) continue;
      const answers: [string, Answer][] = [];
      for (const id of ids) {
        const a = await su.query<{ data: Answer }>(`${resource}.dependents`, { ids: [id] });
        expect([resource, a.status]).toEqual([resource, 200]);
        const data = a.data!.data;
        expect(data.deletable).toBe(true);
        expect(data.message.length).toBeGreaterThan(5);
        expect(data.blocked).toBe(data.dependents.some((d) => d.action === 'block'));
        answers.push([id, data]);
      }
      // The most telling record: a blocked one if any, else the one with most dependents.
      const blocked = answers.find(([, a]) => a.blocked);
      const [id, answer] = blocked ?? [...answers].sort((x, y) => y[1].dependents.length - x[1].dependents.length)[0];
      const before = await counts();
      const del = await su.mutate(`${resource}.delete`, { id });
      const after = await counts();
      if (answer.blocked) {
        expect([resource, del.status]).toEqual([resource, 409]);
        expect(after).toEqual(before);
        blockedChecked.push(resource);
        continue;
      }
      if (del.status !== 200) {
        // A rule of the resource refused it (e.g. a catalogue entry still named by others): nothing moved.
        expect([resource, del.status]).toEqual([resource, expect.any(Number)]);
        expect(del.status).toBeGreaterThanOrEqual(400);
        expect(del.status).toBeLessThan(500);
        expect(after).toEqual(before);
        continue;
      }
      // Each named kind loses exactly the rows said to be deleted with it; kept and unlinked kinds, and
      // kinds not named, lose nothing; only the record's own table loses one more (the record).
      const surprise: Record<string, number> = {};
      for (const k of tables) {
        const said = answer.dependents.filter((d) => d.kind === k && d.action === 'delete' && !d.more).reduce((n, d) => n + d.count, 0);
        const more = answer.dependents.some((d) => d.kind === k && d.more);
        const lost = before[k] - after[k];
        if (!more && lost !== said) surprise[k] = lost - said;
      }
      const extra = Object.entries(surprise);
      expect([resource, extra.length <= 1 && extra.every(([, n]) => n === 1) ? 'as said' : surprise]).toEqual([resource, 'as said']);
      checked.push(resource);
    }
    // Most resources were really deleted and compared; some were blocked and refused.
    expect(checked.length).toBeGreaterThan(12);
    expect(checked).toEqual(expect.arrayContaining(['site', 'system', 'company']));
    expect(blockedChecked.length).toBeGreaterThan(0);
  });
});
