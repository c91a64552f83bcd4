import { chargedCompany, columnDays, pickNext, queueRefusal, type ExportBudgets, type ExportCandidate, type RunningState } from './export-fairness';

const budgets: ExportBudgets = { userMaxRunning: 1, userMaxQueued: 3, companyMaxRunning: 2, companyMaxQueued: 10 };
const idle: RunningState = { runningByUser: new Map(), runningByCompany: new Map(), lastStartedByCompany: new Map() };
const job = (id: string, company_cuid: string, user_cuid: string | null, created_at: number): ExportCandidate => ({ id, company_cuid, user_cuid, created_at });

/**
 * Simulates one worker draining a queue with pickNext: each pick starts (the company's last start
 * is now), runs to its end, and the user's next job becomes a candidate. Returns the order.
 */
function drain(queue: ExportCandidate[]): string[] {
  const order: string[] = [];
  const last = new Map<string, number>();
  const lastUser = new Map<string, number>();
  let clock = 1000;
  const waiting = [...queue];
  for (;;) {
    // the oldest waiting job of each user (or of a company's schedules), as the repository answers
    const heads = new Map<string, ExportCandidate>();
    for (const c of [...waiting].sort((a, b) => a.created_at - b.created_at)) {
      const key = `${c.company_cuid}/${c.user_cuid}`;
      if (!heads.has(key)) heads.set(key, c);
    }
    const next = pickNext([...heads.values()], { ...idle, lastStartedByCompany: last, lastStartedByUser: lastUser }, budgets);
    if (!next) return order;
    order.push(next.id);
    last.set(next.company_cuid, clock);
    if (next.user_cuid) lastUser.set(next.user_cuid, clock);
    clock++;
    waiting.splice(waiting.indexOf(next), 1);
  }
}

describe('export fair share: the round-robin choice (pickNext)', () => {
  it('serves companies in turn, then users in turn, not first come first served: a late 1-day job of B goes before A’s flood', () => {
    const flood = [job('a1', 'A', 'ua', 1), job('a2', 'A', 'ua', 2), job('a3', 'A', 'ua', 3), job('a4', 'A', 'ua2', 4)];
    expect(drain([...flood, job('b1', 'B', 'ub', 10)])).toEqual(['a1', 'b1', 'a4', 'a2', 'a3']);
  });

  it('alternates between three companies whatever their arrival order, and within a company keeps arrival order', () => {
    const q = [
      job('a1', 'A', 'u1', 1),
      job('a2', 'A', 'u1', 2),
      job('a3', 'A', 'u1', 3),
      job('b1', 'B', 'u2', 4),
      job('b2', 'B', 'u2', 5),
      job('c1', 'C', null, 6),
    ];
    expect(drain(q)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('a company never served goes first; then the one served least recently; ties to the older job', () => {
    const candidates = [job('a', 'A', 'u1', 1), job('b', 'B', 'u2', 2), job('c', 'C', 'u3', 3)];
    expect(
      pickNext(
        candidates,
        {
          ...idle,
          lastStartedByCompany: new Map([
            ['A', 5],
            ['B', 9],
          ]),
        },
        budgets,
      )?.id,
    ).toBe('c');
    expect(
      pickNext(
        candidates,
        {
          ...idle,
          lastStartedByCompany: new Map([
            ['A', 5],
            ['B', 4],
            ['C', 7],
          ]),
        },
        budgets,
      )?.id,
    ).toBe('b');
    expect(pickNext(candidates, idle, budgets)?.id).toBe('a');
  });

  it('skips a user at their running budget and a company at its running budget; nothing when all are', () => {
    const candidates = [job('a', 'A', 'u1', 1), job('a2', 'A', 'u4', 2), job('b', 'B', 'u2', 3)];
    const userBusy: RunningState = { ...idle, runningByUser: new Map([['u1', 1]]), runningByCompany: new Map([['A', 1]]) };
    expect(pickNext(candidates.slice(0, 2), userBusy, budgets)?.id).toBe('a2');
    // with B idle, B goes first (fewer running)
    expect(pickNext(candidates, userBusy, budgets)?.id).toBe('b');
    const companyBusy: RunningState = { ...idle, runningByCompany: new Map([['A', 2]]) };
    expect(pickNext(candidates, companyBusy, budgets)?.id).toBe('b');
    const allBusy: RunningState = {
      ...idle,
      runningByCompany: new Map([
        ['A', 2],
        ['B', 2],
      ]),
    };
    expect(pickNext(candidates, allBusy, budgets)).toBeUndefined();
    // a scheduled job (no user) is held by its company's budget only
    expect(pickNext([job('s', 'A', null, 1)], { ...idle, runningByUser: new Map([['u1', 5]]), runningByCompany: new Map([['A', 1]]) }, budgets)?.id).toBe('s');
  });
});

describe('export budgets: what a new job may cost (queueRefusal, columnDays)', () => {
  it('refuses at the user’s queue first, then at the company’s, and only at the limit', () => {
    expect(queueRefusal({ userQueued: 2, companyQueued: 9 }, budgets)).toBeUndefined();
    expect(queueRefusal({ userQueued: 3, companyQueued: 3 }, budgets)).toBe('user_queue');
    expect(queueRefusal({ userQueued: 3, companyQueued: 10 }, budgets)).toBe('user_queue');
    expect(queueRefusal({ userQueued: 0, companyQueued: 10 }, budgets)).toBe('company_queue');
  });

  it('counts days × columns, a rollup day for less, rounded up', () => {
    const day = 86_400_000;
    expect(columnDays(0, 400 * day, 10, 'raw')).toBe(4000);
    expect(columnDays(0, 400 * day, 10, '5m')).toBe(4000);
    expect(columnDays(0, 400 * day, 30, '1h')).toBe(1000);
    expect(columnDays(0, 400 * day, 50, '1d')).toBe(70);
    expect(columnDays(0, 3_600_000, 2, 'raw')).toBe(1);
    expect(columnDays(0, 0, 5, 'raw')).toBe(0);
  });
});

describe('chargedCompany (the company a job counts against)', () => {
  const m = (company_cuid: string, level: number) => ({ company_cuid, level, is_company_admin: false });
  const system = { company_cuid: 'owner', shares: [{ company_cuid: 'partner-z' }, { company_cuid: 'partner-a' }] };

  it("charges the owner to its members, the share's company to a partner, never the owner to a partner", () => {
    expect(chargedCompany({ user_cuid: 'u', memberships: [m('owner', 3)] }, system)).toBe('owner');
    expect(chargedCompany({ user_cuid: 'u', memberships: [m('partner-z', 3)] }, system)).toBe('partner-z');
    // A member of the owner and of a partner: the owner. Of two partners: the first by id, alike on every instance.
    expect(chargedCompany({ user_cuid: 'u', memberships: [m('partner-a', 3), m('owner', 2)] }, system)).toBe('owner');
    expect(chargedCompany({ user_cuid: 'u', memberships: [m('partner-z', 3), m('partner-a', 1)] }, system)).toBe('partner-a');
    // A membership of the owner too weak to export (level 4) does not charge the owner when a partner membership may.
    expect(chargedCompany({ user_cuid: 'u', memberships: [m('owner', 4), m('partner-z', 3)] }, system)).toBe('partner-z');
  });
});
