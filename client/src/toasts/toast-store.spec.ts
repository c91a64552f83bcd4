import { TOAST_ACTION_RESPONSE_TIMEOUT_MS, TOAST_DEFAULT_TIMEOUT_MS, TOAST_MAX_VISIBLE, TOAST_REMOVE_DELAY_MS } from '../../../shared/common/spec-constants';
import { FakeClock } from '../test-support/fake-clock';
import { ToastStore, type TToast } from './toast-store';

let n = 0;
const toast = (patch: Partial<TToast> = {}): TToast => ({
  id: `t${++n}`,
  type: 'NOTIFICATION',
  title: 'Changelog',
  message: 'Something changed',
  severity: 'INFO',
  triggeredAt: { timestamp: new Date('2026-11-21T10:00:00Z'), timezone: 'Africa/Nairobi' },
  onClickTarget: '/systems/s1/changelog',
  source: { notification_cuid: `n${n}`, system_cuid: 's1', notification_type: 'CHANGELOG' },
  ...patch,
});

describe('ToastStore (spec §4 Toasts)', () => {
  let clock: FakeClock;
  let sut: ToastStore;
  const states = () => sut.getSnapshot().toasts.map((t) => `${t.title}:${t.state}`);
  const openCount = () => sut.getSnapshot().toasts.filter((t) => t.state === 'open').length;

  beforeEach(() => {
    clock = new FakeClock();
    sut = new ToastStore(clock);
  });

  it(`opens at most ${TOAST_MAX_VISIBLE} toasts; the next ones wait, oldest first`, () => {
    for (let i = 1; i <= TOAST_MAX_VISIBLE + 2; i++) sut.push(toast({ title: `#${i}` }));
    expect(states()).toEqual(['#1:open', '#2:open', '#3:open', '#4:open', '#5:open', '#6:queued', '#7:queued']);
    sut.close(sut.getSnapshot().toasts[1].id, 'close-button');
    expect(states()).toEqual(['#1:open', '#2:closed', '#3:open', '#4:open', '#5:open', '#6:open', '#7:queued']);
    expect(openCount()).toBe(TOAST_MAX_VISIBLE);
  });

  it(`removes a closed toast ${TOAST_REMOVE_DELAY_MS} ms later`, () => {
    sut.push(toast({ title: 'a' }));
    const [a] = sut.getSnapshot().toasts;
    sut.close(a.id, 'close-button');
    expect(sut.getSnapshot().toasts[0]).toMatchObject({ state: 'closed', open: false, closeReason: 'close-button' });
    clock.advanceSync(TOAST_REMOVE_DELAY_MS - 1);
    expect(sut.getSnapshot().toasts).toHaveLength(1);
    clock.advanceSync(1);
    expect(sut.getSnapshot().toasts).toHaveLength(0);
  });

  it('closes a notification after the default timeout, or the user-chosen one; null keeps it', () => {
    sut.push(toast({ title: 'default' }));
    expect(sut.getSnapshot().toasts[0].duration).toBe(TOAST_DEFAULT_TIMEOUT_MS);
    clock.advanceSync(TOAST_DEFAULT_TIMEOUT_MS - 1);
    expect(openCount()).toBe(1);
    clock.advanceSync(1);
    expect(sut.getSnapshot().toasts[0]).toMatchObject({ state: 'closed', closeReason: 'timeout' });

    sut.setPreferences({ timeout: 5000 });
    sut.push(toast({ title: 'five' }));
    clock.advanceSync(5000);
    expect(states()).toContain('five:closed');

    sut.setPreferences({ timeout: null });
    sut.push(toast({ title: 'stays' }));
    clock.advanceSync(24 * 3600 * 1000);
    expect(states()).toEqual(['stays:open']);
  });

  it(`closes action responses after ${TOAST_ACTION_RESPONSE_TIMEOUT_MS} ms whatever the preference`, () => {
    sut.setPreferences({ timeout: null });
    sut.push(toast({ type: 'ACTION_RESPONSE', actionResponse: 'SUCCESS', source: undefined }));
    expect(sut.getSnapshot().toasts[0].duration).toBe(TOAST_ACTION_RESPONSE_TIMEOUT_MS);
    clock.advanceSync(TOAST_ACTION_RESPONSE_TIMEOUT_MS);
    expect(openCount()).toBe(0);
  });

  it('drops notifications (never queued) when the user turned them off, but not action responses', () => {
    sut.setPreferences({ disabled: true });
    expect(sut.push(toast())).toBe('dropped');
    expect(sut.push(toast({ type: 'ACTION_RESPONSE', actionResponse: 'PENDING' }))).toBe('open');
    expect(sut.getSnapshot().toasts.map((t) => t.type)).toEqual(['ACTION_RESPONSE']);
  });

  it('pauses every timer while the pointer is over the area and resumes with the time left', () => {
    sut.setPreferences({ timeout: 5000 });
    sut.push(toast({ title: 'a' }));
    clock.advanceSync(2000);
    sut.pause();
    expect(sut.getSnapshot()).toMatchObject({ paused: true, toasts: [{ remaining: 3000 }] });
    // Opened while paused: its timer waits too.
    sut.push(toast({ title: 'b' }));
    clock.advanceSync(60_000);
    expect(states()).toEqual(['a:open', 'b:open']);
    sut.resume();
    clock.advanceSync(2999);
    expect(states()).toEqual(['a:open', 'b:open']);
    clock.advanceSync(1);
    expect(states()).toEqual(['a:closed', 'b:open']);
    clock.advanceSync(2000);
    expect(states()).toEqual(['b:closed']);
  });

  it('Close all closes the open toasts and drops the waiting ones', () => {
    for (let i = 1; i <= 7; i++) sut.push(toast({ title: `#${i}` }));
    sut.closeAll();
    expect(openCount()).toBe(0);
    expect(sut.getSnapshot().toasts.every((t) => t.state === 'closed')).toBe(true);
    expect(sut.getSnapshot().toasts).toHaveLength(TOAST_MAX_VISIBLE);
    clock.advanceSync(TOAST_REMOVE_DELAY_MS);
    expect(sut.getSnapshot().toasts).toHaveLength(0);
  });

  it('closeWhere closes every toast of one source (mute)', () => {
    sut.push(toast({ title: 'x1', source: { notification_cuid: 'a', system_cuid: 'x', notification_type: 'CHANGELOG' } }));
    sut.push(toast({ title: 'y1', source: { notification_cuid: 'b', system_cuid: 'y', notification_type: 'CHANGELOG' } }));
    sut.push(toast({ title: 'x2', source: { notification_cuid: 'c', system_cuid: 'x', notification_type: 'CHANGELOG' } }));
    sut.closeWhere((t) => t.source?.system_cuid === 'x', 'mute');
    expect(states()).toEqual(['x1:closed', 'y1:open', 'x2:closed']);
  });

  it('ignores a toast it has already shown (same id)', () => {
    const t = toast();
    expect(sut.push(t)).toBe('open');
    expect(sut.push(t)).toBe('duplicate');
    expect(sut.getSnapshot().toasts).toHaveLength(1);
  });

  it('gives subscribers a new snapshot on each change and the same one otherwise', () => {
    const seen: unknown[] = [];
    sut.subscribe(() => seen.push(sut.getSnapshot()));
    const before = sut.getSnapshot();
    expect(sut.getSnapshot()).toBe(before);
    sut.push(toast());
    expect(seen).toHaveLength(1);
    expect(sut.getSnapshot()).not.toBe(before);
  });

  describe('upsert (ACTION_RESPONSE of a command: PENDING replaced by SUCCESS / FAILURE)', () => {
    const ACK_TIMEOUT_MS = 30_000;
    const command = (status: 'PENDING' | 'SUCCESS' | 'FAILURE', patch: Partial<TToast> = {}): TToast =>
      toast({
        id: 'cmd-1',
        type: 'ACTION_RESPONSE',
        actionResponse: status,
        title: status,
        source: undefined,
        command: { command_id: 'cmd-1', controller_id: 'c1', status },
        ...patch,
      });

    it('replaces the PENDING toast with the same id and restarts its timer with the action-response timeout', () => {
      expect(sut.upsert(command('PENDING'), { duration: ACK_TIMEOUT_MS })).toBe('open');
      expect(sut.getSnapshot().toasts[0]).toMatchObject({ actionResponse: 'PENDING', duration: ACK_TIMEOUT_MS });
      clock.advanceSync(10_000);
      expect(sut.upsert(command('SUCCESS', { message: 'applied' }))).toBe('replaced');
      expect(sut.getSnapshot().toasts).toHaveLength(1);
      expect(sut.getSnapshot().toasts[0]).toMatchObject({
        id: 'cmd-1',
        state: 'open',
        actionResponse: 'SUCCESS',
        message: 'applied',
        duration: TOAST_ACTION_RESPONSE_TIMEOUT_MS,
      });
      clock.advanceSync(TOAST_ACTION_RESPONSE_TIMEOUT_MS - 1);
      expect(openCount()).toBe(1);
      clock.advanceSync(1);
      expect(sut.getSnapshot().toasts[0]).toMatchObject({ state: 'closed', closeReason: 'timeout', actionResponse: 'SUCCESS' });
    });

    it('keeps the PENDING toast until the ack timeout when no answer comes', () => {
      sut.upsert(command('PENDING'), { duration: ACK_TIMEOUT_MS });
      clock.advanceSync(TOAST_ACTION_RESPONSE_TIMEOUT_MS * 2);
      expect(openCount()).toBe(1);
      clock.advanceSync(ACK_TIMEOUT_MS - TOAST_ACTION_RESPONSE_TIMEOUT_MS * 2);
      expect(openCount()).toBe(0);
    });

    it('a live PENDING over the local PENDING keeps its timer; a PENDING after the answer is stale', () => {
      sut.upsert(command('PENDING'), { duration: ACK_TIMEOUT_MS });
      clock.advanceSync(20_000);
      expect(sut.upsert(command('PENDING', { message: 'queued' }))).toBe('replaced');
      expect(sut.getSnapshot().toasts[0]).toMatchObject({ message: 'queued', duration: ACK_TIMEOUT_MS });
      clock.advanceSync(ACK_TIMEOUT_MS - 20_000);
      expect(openCount()).toBe(0);

      sut.upsert(command('FAILURE', { id: 'cmd-2', command: { command_id: 'cmd-2', controller_id: 'c1', status: 'FAILURE' } }));
      expect(sut.upsert(command('PENDING', { id: 'cmd-2' }))).toBe('stale');
      expect(sut.getSnapshot().toasts.find((t) => t.id === 'cmd-2')).toMatchObject({ actionResponse: 'FAILURE' });
    });

    it('the answer still shows when the PENDING toast was already closed, and pushes when there was none', () => {
      sut.upsert(command('PENDING'), { duration: ACK_TIMEOUT_MS });
      sut.close('cmd-1', 'close-button');
      expect(sut.upsert(command('SUCCESS'))).toBe('open');
      clock.advanceSync(TOAST_REMOVE_DELAY_MS);
      // The closed PENDING is removed; the SUCCESS with the same id stays.
      expect(states()).toEqual(['SUCCESS:open']);
      expect(sut.upsert(command('FAILURE', { id: 'other', title: 'other' }))).toBe('open');
      expect(sut.upsert(command('SUCCESS'))).toBe('replaced');
    });

    it('a queued PENDING gets its new content and opens with the answer’s timeout', () => {
      for (let i = 0; i < TOAST_MAX_VISIBLE; i++) sut.push(toast({ title: `n${i}` }));
      expect(sut.upsert(command('PENDING'), { duration: ACK_TIMEOUT_MS })).toBe('queued');
      expect(sut.upsert(command('SUCCESS'))).toBe('replaced');
      clock.advanceSync(TOAST_DEFAULT_TIMEOUT_MS);
      expect(sut.getSnapshot().toasts.find((t) => t.id === 'cmd-1')).toMatchObject({ state: 'open', duration: TOAST_ACTION_RESPONSE_TIMEOUT_MS });
    });
  });
});
