import { systemJob } from '../../server/src/common/system-job';
import { type MemberLease, MqttMembersRepository } from '../../server/src/gateway/mqtt-members.repository';
import { mediumWorld, type MediumWorld } from './world';

/** mqtt-members.repository.ts on a real database: leases, claims of lapsed members, only within one share group. */
describe('mqtt members repository (database)', () => {
  let w: MediumWorld;
  let repo: MqttMembersRepository;
  const job = systemJob('medium');
  const a: MemberLease = { clientId: 'member-a', shareGroup: 'g1', instance: 'inst-a', leaseSeconds: 1 };
  const b: MemberLease = { clientId: 'member-b', shareGroup: 'g1', instance: 'inst-b', leaseSeconds: 1 };
  const foreign: MemberLease = { clientId: 'member-x', shareGroup: 'g2', instance: 'inst-x', leaseSeconds: 1 };

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new MqttMembersRepository(w.ds);
  });
  afterAll(() => w?.db.close());

  it('a lapsed member is claimed once by another member of its group (never by another group), kept while renewed, dropped when retired', async () => {
    await repo.renewOwn(job, a);
    await repo.renewOwn(job, b);
    expect(await repo.claimLapsed(job, b)).toBeUndefined();
    // a stops renewing: its lease lapses more than a lease ago.
    await w.ds.query(`UPDATE mqtt_member SET lease_until = now() - interval '10 seconds' WHERE client_id = 'member-a'`);
    expect(await repo.claimLapsed(job, foreign)).toBeUndefined();
    expect(await repo.claimLapsed(job, b)).toBe('member-a');
    expect(await repo.claimLapsed(job, b)).toBeUndefined();
    expect(await repo.renewClaim(job, b, 'member-a')).toBe(true);
    expect(await repo.renewClaim(job, foreign, 'member-a')).toBe(false);
    // a comes back: its own lease takes the row back from the adopter.
    await repo.renewOwn(job, a);
    expect(await repo.renewClaim(job, b, 'member-a')).toBe(false);
    await repo.dropClaimed(job, b, 'member-a');
    expect(await w.ds.query(`SELECT client_id FROM mqtt_member ORDER BY client_id`)).toEqual([{ client_id: 'member-a' }, { client_id: 'member-b' }]);
    await repo.dropOwn(job, a);
    expect(await w.ds.query(`SELECT client_id FROM mqtt_member ORDER BY client_id`)).toEqual([{ client_id: 'member-b' }]);
  });
});
