import { PassThrough } from 'node:stream';
import { inertText, writeExport, type ExportPlan, type ExportRow } from './export-stream';

const plan = (header: string, decimal: '.' | ','): ExportPlan => ({
  system_cuid: 's',
  columns: [{ entity_cuid: 'e', parameter_id: 'p', aggregate: 'avg', header }],
  resolution: 'raw',
  from: new Date('2026-01-01T00:00:00Z'),
  to: new Date('2026-01-02T00:00:00Z'),
  timezone: 'Africa/Nairobi',
  format: 'csv',
  decimal,
});

async function csvOf(p: ExportPlan, rows: ExportRow[]): Promise<string> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (b: Buffer) => parts.push(b));
  async function* chunks() {
    yield rows;
  }
  await writeExport(out, p, chunks());
  return Buffer.concat(parts).toString('utf8');
}

describe('export CSV cells', () => {
  it.each(['=HYPERLINK("http://x")', '+1+1', '-2+3', '@SUM(A1)', '\tx', '\rx'])('a label that a spreadsheet would run (%j) is written inert', async (label) => {
    const text = await csvOf(plan(label, '.'), [['2026-01-01 03:00:00', 1.5]]);
    const header = text.split('\n')[0];
    // The header cell starts with the apostrophe (csv-stringify quotes the cell and doubles its quotes).
    expect(header).toContain(`'${label}`.replace(/"/g, '""'));
    expect(inertText(label)).toBe(`'${label}`);
  });

  it('keeps ordinary labels and writes numbers with the chosen decimal separator', async () => {
    expect(
      await csvOf(plan('PV power [W]', ','), [
        ['2026-01-01 03:00:00', 1234.5],
        ['2026-01-01 03:01:00', null],
      ]),
    ).toBe('Time (Africa/Nairobi);PV power [W]\n2026-01-01 03:00:00;1234,5\n2026-01-01 03:01:00;\n');
  });
});
