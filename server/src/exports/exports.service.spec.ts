import { actor, codeOf } from '../../../test/factories/rules';
import type { AppConfig } from '../config/config';
import type { Caller } from '../tenancy/visibility';
import type { ExportMetrics } from './export-metrics';
import type { ColumnSourceRow, ExportTemplatesRepository, RunTemplateRow } from './export-templates.repository';
import { ExportsService } from './exports.service';

/** The rules of ExportsService over an in-memory stand-in of its repository (no database). */

const sees = (c: Caller) => ('memberships' in c ? c.memberships.some((m) => m.company_cuid === 'A') : c.companies.includes('A'));
const BATTERY: ColumnSourceRow = { entity_cuid: 'bat', device: 'Battery', parameter_id: 'soc', description: 'State of charge', unit: '%' };

function world(config: unknown) {
  const template: RunTemplateRow = {
    template_cuid: 't1',
    name: 'Daily',
    system_cuid: 'sys1',
    system_name: 'Farm',
    company_cuid: 'A',
    timezone: 'Africa/Nairobi',
    config,
  };
  const refused: string[] = [];
  const repo = {
    visible: async (c: Caller, id: string) => (id === 't1' && sees(c) ? { ...template, shares: [] } : undefined),
    visibleSystem: async (c: Caller, id: string) => (id === 'sys1' && sees(c) ? { company_cuid: 'A', shares: [] } : undefined),
    ofSystem: async (c: Caller, id: string) => (id === 'sys1' && sees(c) ? [{ template_cuid: 't1', name: 'Daily', config }] : []),
    forJob: async (_j: unknown, id: string) => (id === 't1' ? { ...template, charged_company_cuid: 'A' } : undefined),
    columnSources: async (_r: unknown, system_cuid: string, ids: string[]) => (system_cuid === 'sys1' && ids.includes('bat') ? [BATTERY] : []),
  } satisfies Omit<ExportTemplatesRepository, 'ds'>;
  const appConfig = { EXPORT_MAX_RANGE_DAYS: 400, EXPORT_MAX_COLUMN_DAYS: 4000 } as AppConfig;
  const metrics = { refused: (why: string) => void refused.push(why) } as unknown as ExportMetrics;
  return { sut: new ExportsService(repo as unknown as ExportTemplatesRepository, appConfig, metrics), refused };
}

const basicA = actor('u1', 'A', 3);
const basicB = actor('u2', 'B', 3);
const range = (days: number) => ({ from: new Date('2026-01-01T00:00:00Z'), to: new Date(Date.UTC(2026, 0, 1) + days * 86_400_000) });
const column = { entity_cuid: 'bat', parameter_id: 'soc', aggregate: 'avg' as const };

describe('ExportsService', () => {
  it('template: a foreign or missing template answers NOT_FOUND alike; a stored config that no longer parses, a field error', async () => {
    const { sut } = world({ columns: [column] });
    expect(await codeOf(sut.template(basicB, 't1'))).toBe('NOT_FOUND: Export template not found');
    expect(await codeOf(sut.template(basicA, 'nope'))).toBe('NOT_FOUND: Export template not found');
    expect(await sut.template(basicA, 't1')).toMatchObject({
      template_cuid: 't1',
      charged_company_cuid: 'A',
      config: { columns: [column], resolution: 'raw' },
    });
    expect(await codeOf(world({ columns: 'broken' }).sut.template(basicA, 't1'))).toMatch(/^BAD_REQUEST/);
  });

  it("templatesOf: a visible system's templates without their schedule; NOT_FOUND for another company's system", async () => {
    const { sut } = world({ columns: [column], schedule: null });
    expect(await sut.templatesOf(basicA, 'sys1')).toEqual([
      { template_cuid: 't1', name: 'Daily', config: expect.not.objectContaining({ schedule: expect.anything() }) },
    ]);
    expect(await codeOf(sut.templatesOf(basicB, 'sys1'))).toBe('NOT_FOUND: System not found');
  });

  it('plan: each column headed "<device> · <description> [unit]"; too long, too large or a vanished column is refused', async () => {
    const { sut, refused } = world({ columns: [column] });
    const t = await sut.template(basicA, 't1');
    const plan = await sut.plan(t, range(7));
    expect(plan).toMatchObject({ system_cuid: 'sys1', timezone: 'Africa/Nairobi', format: 'csv', columns: [{ header: 'Battery · State of charge [%]' }] });
    expect(await codeOf(sut.plan(t, range(401)))).toMatch(/^BAD_REQUEST/);
    const wide = { ...t, config: { ...t.config, columns: Array.from({ length: 20 }, () => column) } };
    expect(await codeOf(sut.plan(wide, range(300)))).toMatch(/^BAD_REQUEST/);
    expect(refused).toEqual(['too_large']);
    const vanished = { ...t, config: { ...t.config, columns: [{ ...column, entity_cuid: 'gone' }] } };
    expect(await codeOf(sut.plan(vanished, range(7)))).toMatch(/^BAD_REQUEST/);
  });

  it('templateForSystemActor: any template for the scheduler, charged as stored', async () => {
    const { sut } = world({ columns: [column] });
    expect(await sut.templateForSystemActor('t1')).toMatchObject({ template_cuid: 't1', charged_company_cuid: 'A' });
    expect(await sut.templateForSystemActor('nope')).toBeUndefined();
  });
});
