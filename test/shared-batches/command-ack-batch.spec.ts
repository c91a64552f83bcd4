import { CommandService } from '../../server/src/control/commands/command.service';
import { newCuid } from '../../server/src/common/ids';
import { DEMO_CONTROLLER_ID, OTHER_COMPANY_NAME } from '../../server/src/seed/demo-seed';
import { issueSimulatorToken } from '../../server/src/simulator/fleet';
import { startTestApp, type TestApp } from '../factories/app';

/**
 * The class "a shared batch never fails for one bad item", for the command acknowledgement batch:
 * every controller's answers gathered in a few milliseconds are written in one transaction. Company
 * B's controller sends poisoned answers beside company A's valid ones, over the public ingest API:
 * - a message holding NUL (refused at the edge: 400 naming the field);
 * - a message the database itself refuses inside the shared transaction (the test adds a CHECK
 *   constraint, standing for any content only the database knows it cannot store).
 * A's answers are all recorded; only B's poisoned ones fail, each with its reason; B's valid answers
 * are recorded too; nothing stays SENT for ever (the worker ends the refused ones as TIMEOUT).
 */
describe('a shared batch never fails for one bad item: command acknowledgements', () => {
  let t: TestApp;
  let commands: CommandService;
  let tokenA: string;
  let tokenB: string;
  const B_CONTROLLER = 'rival-ctrl-b';
  const q = <T = any>(sql: string, p?: unknown[]) => t.db.dataSource.query<T[]>(sql, p);

  const postAck = (controller: string, bearer: string, body: unknown) =>
    fetch(`${t.baseUrl}/api/ingest/${controller}/commands/ack`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  /** SENT commands (as a fetch leaves them) of a controller; their ids. */
  const sentCommands = async (controller_id: string, n: number): Promise<string[]> => {
    const [c] = await q(`SELECT company_cuid, system_cuid FROM controller WHERE controller_id = $1`, [controller_id]);
    const ids = Array.from({ length: n }, () => `ack-${newCuid()}`);
    for (const id of ids) {
      await q(
        `INSERT INTO controller_command (command_id, controller_id, company_cuid, system_cuid, kind, payload, status, requested_at, not_after, sent_at, attempts)
         VALUES ($1, $2, $3, $4, 'set_export_limit', '{"watts": 1000}', 'SENT', now(), now() + interval '1 hour', now(), 1)`,
        [id, controller_id, c.company_cuid, c.system_cuid],
      );
    }
    return ids;
  };
  const statusOf = async (ids: string[]) =>
    (
      await q<{ command_id: string; status: string }>(
        `SELECT command_id, status::text AS status FROM controller_command WHERE command_id = ANY($1::varchar[])`,
        [ids],
      )
    ).map((r) => r.status);

  beforeAll(async () => {
    t = await startTestApp({ COMMAND_POLL_MS: '0', COMMAND_ACK_TIMEOUT_SECONDS: '30' });
    commands = t.app.get(CommandService);
    const [a] = await q(`SELECT company_cuid, controllertype_cuid FROM controller WHERE controller_id = $1`, [DEMO_CONTROLLER_ID]);
    const [{ company_cuid: other }] = await q(`SELECT company_cuid FROM company WHERE name = $1`, [OTHER_COMPANY_NAME]);
    await q(`INSERT INTO controller (controller_id, controllertype_cuid, company_cuid, name) VALUES ($1, $2, $3, 'Rival')`, [
      B_CONTROLLER,
      a.controllertype_cuid,
      other,
    ]);
    tokenA = await issueSimulatorToken(t.db.dataSource, a.company_cuid, 'company A');
    tokenB = await issueSimulatorToken(t.db.dataSource, other, 'company B');
    // Content only the database refuses (the edge lets it through): a message starting with "poison".
    await q(`ALTER TABLE controller_command ADD CONSTRAINT test_no_poison CHECK (message IS NULL OR message NOT LIKE 'poison%') NOT VALID`);
  });
  afterAll(async () => {
    await q(`ALTER TABLE controller_command DROP CONSTRAINT IF EXISTS test_no_poison`).catch(() => undefined);
    await t?.close();
  });

  it.each([1, 2, 3])(
    'round %i: company B’s poisoned acks fail alone with their reason; every ack of company A and B’s valid ones are recorded; nothing stays SENT',
    async () => {
      const a = await sentCommands(DEMO_CONTROLLER_ID, 10);
      const [bNul1, bNul2, bPoison1, bPoison2, bPoison3, bGood1, bGood2] = await sentCommands(B_CONTROLLER, 7);
      // Interleaved and sent at once, so they share the acknowledgement batches.
      const calls: { who: string; send: () => Promise<Response> }[] = [];
      const bad: [string, string, string][] = [
        [bNul1, 'nul', 'done\u0000'],
        [bPoison1, 'poison', 'poison one'],
        [bNul2, 'nul', '\u0000'],
        [bPoison2, 'poison', 'poison two'],
        [bPoison3, 'poison', 'poison three'],
      ];
      a.forEach((id, i) => {
        calls.push({ who: `A:${id}`, send: () => postAck(DEMO_CONTROLLER_ID, tokenA, { id, status: 'SUCCESS', message: `applied ${i}` }) });
        const b = bad[i];
        if (b) calls.push({ who: `B-${b[1]}:${b[0]}`, send: () => postAck(B_CONTROLLER, tokenB, { id: b[0], status: 'SUCCESS', message: b[2] }) });
      });
      calls.push({ who: `B-good:${bGood1}`, send: () => postAck(B_CONTROLLER, tokenB, { id: bGood1, status: 'SUCCESS', message: 'fine' }) });
      calls.push({ who: `B-good:${bGood2}`, send: () => postAck(B_CONTROLLER, tokenB, { id: bGood2, status: 'FAILURE' }) });
      const answers = await Promise.all(calls.map(async (c) => ({ who: c.who, res: await c.send() })));
      const bodies = await Promise.all(answers.map(async ({ who, res }) => ({ who, status: res.status, body: await res.json() })));

      // Company A: every answer recorded.
      const aAnswers = bodies.filter((b) => b.who.startsWith('A:'));
      expect(aAnswers.map((b) => [b.status, b.body.recorded])).toEqual(a.map(() => [200, true]));
      expect(await statusOf(a)).toEqual(a.map(() => 'SUCCESS'));
      // Company B: the valid answers recorded too.
      expect(bodies.filter((b) => b.who.startsWith('B-good:')).map((b) => [b.status, b.body.recorded])).toEqual([
        [200, true],
        [200, true],
      ]);
      // Company B: each poisoned answer refused alone, with its reason.
      for (const b of bodies.filter((x) => x.who.startsWith('B-nul:'))) {
        expect(b.status).toBe(400);
        expect(b.body).toMatchObject({
          code: 'BAD_REQUEST',
          message: 'The acknowledgement is not valid: message: Text may not contain the NUL character (U+0000)',
        });
      }
      for (const b of bodies.filter((x) => x.who.startsWith('B-poison:'))) {
        expect(b.status).toBe(400);
        expect(b.body).toMatchObject({ code: 'BAD_REQUEST', message: 'The acknowledgement cannot be stored: A value is outside the allowed range' });
      }
      const refused = [bNul1, bNul2, bPoison1, bPoison2, bPoison3];
      expect(await statusOf(refused)).toEqual(refused.map(() => 'SENT'));

      // Nothing stays SENT for ever: unanswered, the refused commands end as TIMEOUT.
      await q(`UPDATE controller_command SET sent_at = now() - interval '1 hour' WHERE command_id = ANY($1::varchar[])`, [refused]);
      await commands.tick();
      expect(await statusOf(refused)).toEqual(refused.map(() => 'TIMEOUT'));
    },
  );
});
