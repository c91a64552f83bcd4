import type { CommandRow } from './command-queue.repository';
import { judgeAcks } from './ack-rules';

/** The acknowledgement rules over in-memory command rows (no database). */

const row = (command_id: string, controller_id: string, status: string): CommandRow => ({
  command_id,
  controller_id,
  system_cuid: 'sys',
  kind: 'apply_config',
  payload: {},
  status,
  requested_by: 'u1',
  requested_at: new Date(0),
  not_after: new Date(1),
  message: null,
});

describe('acknowledgement rules', () => {
  it("records a first answer (late after TIMEOUT / EXPIRED), keeps a repeated one, refuses an id that is not the controller's", () => {
    const locked = [row('c1', 'ctrl-a', 'SENT'), row('c2', 'ctrl-a', 'TIMEOUT'), row('c3', 'ctrl-a', 'SUCCESS')];
    const d = judgeAcks(
      [
        { controller_id: 'ctrl-a', ack: { id: 'c1', status: 'SUCCESS' } },
        { controller_id: 'ctrl-a', ack: { id: 'c2', status: 'FAILURE', message: 'no' } },
        { controller_id: 'ctrl-a', ack: { id: 'c3', status: 'FAILURE' } },
        // Another controller answering ctrl-a's command: the command is not its own.
        { controller_id: 'ctrl-b', ack: { id: 'c1', status: 'FAILURE' } },
        // The same id again in the batch: already answered by the first.
        { controller_id: 'ctrl-a', ack: { id: 'c1', status: 'FAILURE' } },
      ],
      locked,
    );
    expect(d.outcomes.map((o) => (o instanceof Error ? `${(o as Error & { status: number }).status}` : o))).toEqual([
      { id: 'c1', recorded: true, status: 'SUCCESS', late: false },
      { id: 'c2', recorded: true, status: 'FAILURE', late: true },
      { id: 'c3', recorded: false, status: 'SUCCESS' },
      '404',
      { id: 'c1', recorded: false, status: 'SUCCESS' },
    ]);
    expect(d.updates).toEqual([
      { id: 'c1', status: 'SUCCESS', message: null, applied: null },
      { id: 'c2', status: 'FAILURE', message: 'no', applied: null },
    ]);
    expect(d.finished.map((f) => [f.command_id, f.status, f.late])).toEqual([
      ['c1', 'SUCCESS', false],
      ['c2', 'FAILURE', true],
    ]);
  });

  it("reported configurations are the answering controller's, the last answer of a batch winning", () => {
    const d = judgeAcks(
      [
        { controller_id: 'ctrl-a', ack: { id: 'c1', status: 'SUCCESS', applied_config: { controller: { a: 1 }, devices: { d1: { x: 1 } } } } },
        { controller_id: 'ctrl-a', ack: { id: 'c2', status: 'SUCCESS', applied_config: { devices: { d1: { x: 2 } } } } },
      ],
      [row('c1', 'ctrl-a', 'SENT'), row('c2', 'ctrl-a', 'SENT')],
    );
    expect([...d.reportedControllers]).toEqual([['ctrl-a', '{"a":1}']]);
    expect([...d.reportedDevices]).toEqual([['d1', { controller_id: 'ctrl-a', cfg: '{"x":2}' }]]);
    expect(d.updates[0].applied).toBe(JSON.stringify({ controller: { a: 1 }, devices: { d1: { x: 1 } } }));
  });
});
