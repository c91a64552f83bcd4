import { ChannelsRepository, LINK_HOLDER } from '../../server/src/alerts/channels/channels.repository';
import { TelegramUpdatesRepository, telegramUpdatesJob } from '../../server/src/alerts/channels/telegram-updates.repository';
import { newCuid } from '../../server/src/common/ids';
import { AlertsResourcesRepository } from '../../server/src/alerts/alerts-resources.repository';
import { DEMO_SYSTEMS } from '../../server/src/seed/demo-seed';
import { addTrigger, systemByName } from '../factories/alert-fixtures';
import { mediumWorld, type MediumWorld } from './world';

/**
 * channels.repository.ts, telegram-updates.repository.ts and alerts-resources.repository.ts on a real
 * database: the rows, and which company's triggers and channels they reach.
 */
describe('channel repositories (database)', () => {
  let w: MediumWorld;
  let repo: ChannelsRepository;
  const ch: Record<string, string> = {};
  const tr: Record<string, string> = {};

  beforeAll(async () => {
    w = await mediumWorld();
    repo = new ChannelsRepository(w.ds);
    tr.farm = await addTrigger(w.ds, (await systemByName(w.ds, DEMO_SYSTEMS.farm)).system_cuid, { name: 'Farm' });
    tr.workshop = await addTrigger(w.ds, (await systemByName(w.ds, DEMO_SYSTEMS.workshop)).system_cuid, { name: 'Workshop' });
    tr.clinic = await addTrigger(w.ds, (await systemByName(w.ds, DEMO_SYSTEMS.clinic)).system_cuid, { name: 'Clinic' });
    const expert = await w.actor('expert@demo.local');
    const other = await w.actor('other@demo.local');
    ch.demoMail = newCuid();
    ch.otherDiscord = newCuid();
    ch.demoTelegram = newCuid();
    await repo.transaction(expert, async (tx) => {
      await repo.insert(
        expert,
        tx,
        { channel_cuid: ch.demoMail, detail_cuid: newCuid(), source: 'EMAIL', status: 'PENDING', company_cuid: w.demo },
        { email: 'ops@demo.local', verified_at: null },
      );
      await repo.insert(
        expert,
        tx,
        { channel_cuid: ch.demoTelegram, detail_cuid: newCuid(), source: 'TELEGRAM', status: 'PENDING', company_cuid: w.demo },
        { token: 'code-1234' },
      );
    });
    await repo.transaction(other, (tx) =>
      repo.insert(
        other,
        tx,
        { channel_cuid: ch.otherDiscord, detail_cuid: newCuid(), source: 'DISCORD', status: 'ACTIVE', company_cuid: w.other },
        { name: 'Ops', webhook: 'https://discord.example/api/webhooks/1/x' },
      ),
    );
  });
  afterAll(() => w?.db.close());

  it('channel and details: the rows as stored, with the company name', async () => {
    const expert = await w.actor('expert@demo.local');
    expect(await repo.channel(expert, ch.demoMail)).toMatchObject({
      channel_cuid: ch.demoMail,
      source: 'EMAIL',
      status: 'PENDING',
      company_cuid: w.demo,
      company_name: expect.any(String),
    });
    expect(await repo.email(expert, ch.demoMail)).toEqual({ email: 'ops@demo.local', verified_at: null });
    expect(await repo.telegram(expert, ch.demoTelegram)).toMatchObject({ token: 'code-1234', linked_at: null });
    expect(await repo.discord(expert, ch.otherDiscord)).toMatchObject({ name: 'Ops', webhook: 'https://discord.example/api/webhooks/1/x' });
    expect(await repo.channel(expert, 'missing')).toBeUndefined();
  });

  it("links of a channel: only triggers of systems its company sees, never another company's unshared system", async () => {
    const other = await w.actor('other@demo.local');
    const names = (await repo.linksOfChannel(other, ch.otherDiscord, 100)).map((r) => r.trigger_name).sort();
    expect(names).toEqual(['Clinic', 'Workshop']);
    expect(await repo.triggerSeenBy(other, tr.farm, w.other)).toBe(false);
    expect(await repo.triggerSeenBy(other, tr.workshop, w.other)).toBe(true);
    expect(await repo.triggerVisible(other, tr.farm)).toBe(false);
    expect(await repo.triggerVisible(await w.actor('basic@demo.local'), tr.farm)).toBe(true);
  });

  it('setLink and link: the pair with its state; a trigger lists the channels of every company that sees it', async () => {
    const expert = await w.actor('expert@demo.local');
    await repo.setLink(expert, ch.demoMail, tr.workshop, true);
    expect(await repo.link(expert, ch.demoMail, tr.workshop)).toMatchObject({ label: 'ops@demo.local', enabled: true, trigger_name: 'Workshop' });
    await repo.setLink(expert, ch.demoMail, tr.workshop, false);
    expect(await repo.link(expert, ch.demoMail, tr.workshop)).toMatchObject({ enabled: false });
    expect((await repo.linksOfTrigger(expert, tr.farm)).map((r) => r.company_cuid)).not.toContain(w.other);
  });

  it("senderChannel answers for the target's own company only", async () => {
    expect(await repo.senderChannel({ channel_cuid: ch.otherDiscord, company_cuid: w.other, source: 'DISCORD' })).toEqual({
      status: 'ACTIVE',
      webhook: 'https://discord.example/api/webhooks/1/x',
    });
    expect(await repo.senderChannel({ channel_cuid: ch.otherDiscord, company_cuid: w.demo, source: 'DISCORD' })).toBeUndefined();
    expect(await repo.senderChannel({ channel_cuid: ch.demoMail, company_cuid: w.demo, source: 'EMAIL' })).toEqual({
      status: 'PENDING',
      email: 'ops@demo.local',
      verified_at: null,
    });
  });

  it('an e-mail verification link: replaced, locked, and the address verified only while it is the one sent to', async () => {
    const expert = await w.actor('expert@demo.local');
    const token_cuid = newCuid();
    await repo.replaceVerification(expert, { token_cuid, data: { kind: 'k', channel_cuid: ch.demoMail, email: 'ops@demo.local' }, ttlSeconds: 60 });
    const ok = await repo.transaction(LINK_HOLDER, async (tx) => {
      const row = await repo.lockLink(LINK_HOLDER, tx, token_cuid);
      expect(row).toMatchObject({ expired: false, data: { channel_cuid: ch.demoMail } });
      await repo.deleteLink(LINK_HOLDER, tx, token_cuid);
      expect(await repo.verifyAddress(LINK_HOLDER, tx, ch.demoMail, 'someone@else.local')).toBe(false);
      return repo.verifyAddress(LINK_HOLDER, tx, ch.demoMail, 'ops@demo.local');
    });
    expect(ok).toBe(true);
    expect(await repo.channel(expert, ch.demoMail)).toMatchObject({ status: 'ACTIVE' });
    expect(await new AlertsResourcesRepository().channelReady(expert, w.ds, ch.demoMail)).toBe(true);
    expect(await new AlertsResourcesRepository().channelReady(expert, w.ds, ch.demoTelegram)).toBe(false);
  });

  it('Telegram updates: one lease holder at a time, the code links once, a removed bot disables the chat', async () => {
    const rows = new TelegramUpdatesRepository(w.ds);
    const a = telegramUpdatesJob('a');
    const b = telegramUpdatesJob('b');
    expect(await rows.lease(a, 'bot1', 60)).toBe(0);
    expect(await rows.lease(b, 'bot1', 60)).toBeNull();
    await rows.advanceOffset(b, 'bot1', 10); // not the holder: nothing
    await rows.advanceOffset(a, 'bot1', 7);
    expect(await rows.lease(a, 'bot1', 60)).toBe(7);
    await rows.releaseLease(a, 'bot1');
    expect(await rows.lease(b, 'bot1', 60)).toBe(7);

    expect(await rows.linkByCode(a, 'code-1234', { id: '-100', name: 'Ops chat' })).toEqual({ channel_cuid: ch.demoTelegram, company: expect.any(String) });
    expect(await rows.linkByCode(a, 'code-1234', { id: '-100', name: 'Ops chat' })).toBeNull();
    expect(await rows.linkByCode(a, 'unknown-code', { id: '-100', name: 'x' })).toBeNull();
    await rows.migrateChat(a, '-100', '-200');
    await rows.disableChat(a, '-100'); // the old id: nothing
    const expert = await w.actor('expert@demo.local');
    expect(await repo.channel(expert, ch.demoTelegram)).toMatchObject({ status: 'ACTIVE' });
    await rows.disableChat(a, '-200');
    expect(await repo.channel(expert, ch.demoTelegram)).toMatchObject({ status: 'DISABLED' });
    // Another company's channel is untouched by this chat's changes.
    expect(await repo.channel(expert, ch.otherDiscord)).toMatchObject({ status: 'ACTIVE' });
  });
});
