import { createTRPCClient, httpBatchLink } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../../server/src/api/app.router';
import { holdWhileUnreachableLink, isUnanswered, trackedFetch } from './index';
import { Connection } from './connection';
import { prefetchAllowed } from '../kit/prefetch';

describe('Connection (the server reachable or not)', () => {
  it('is reachable until a request gets no answer, and again at the next answer', () => {
    let t = 1000;
    const c = new Connection(() => t);
    const seen: boolean[] = [];
    c.subscribe((s) => seen.push(s.reachable));
    c.markAnswered();
    expect(c.getState()).toEqual({ reachable: true, lostAt: null, lastAnswerAt: 1000 });
    t = 5000;
    c.markUnreachable();
    c.markUnreachable();
    expect(c.getState()).toEqual({ reachable: false, lostAt: 5000, lastAnswerAt: 1000 });
    t = 9000;
    c.markAnswered();
    expect(c.getState()).toEqual({ reachable: true, lostAt: null, lastAnswerAt: 9000 });
    expect(seen).toEqual([false, true]);
  });

  it("says whether one of the page's writes was out since a mark, once none is", async () => {
    const c = new Connection();
    const quiet = c.writesMark();
    expect(await c.writesSettled(quiet)).toBe(false);
    c.writeStarted();
    const during = c.writesMark();
    c.writeStarted();
    let overlapped: boolean | undefined;
    const waiting = c.writesSettled(during).then((o) => (overlapped = o));
    c.writeEnded();
    await Promise.resolve();
    expect(overlapped).toBeUndefined();
    c.writeEnded();
    await waiting;
    expect(overlapped).toBe(true);
    // A write left and answered after the mark was taken: overlapped, though none is out now.
    expect(await c.writesSettled(quiet)).toBe(true);
    expect(await c.writesSettled(c.writesMark())).toBe(false);
  });

  it('holds waiters until an answer, and lets an aborted one go', async () => {
    const c = new Connection();
    await expect(c.whenReachable()).resolves.toBeUndefined();
    c.markUnreachable();
    let released = false;
    const waiting = c.whenReachable().then(() => (released = true));
    const abort = new AbortController();
    const aborted = c.whenReachable(abort.signal);
    abort.abort(new Error('gone'));
    await expect(aborted).rejects.toThrow('gone');
    await Promise.resolve();
    expect(released).toBe(false);
    c.markAnswered();
    await waiting;
    expect(released).toBe(true);
  });

  it("follows the browser's offline event", () => {
    const listeners = new Map<string, () => void>();
    const target = {
      addEventListener: (name: string, fn: () => void) => listeners.set(name, fn),
      removeEventListener: (name: string) => listeners.delete(name),
      navigator: { onLine: true },
    };
    const c = new Connection();
    const stop = c.watchBrowser(target as never);
    listeners.get('offline')!();
    expect(c.getState().reachable).toBe(false);
    stop();
    expect(listeners.size).toBe(0);
  });
});

describe('the tRPC client during a drop', () => {
  const ok = (value: unknown) =>
    new Response(JSON.stringify([{ result: { data: superjson.serialize(value) } }]), { status: 200, headers: { 'content-type': 'application/json' } });
  const failure = (status: number) =>
    new Response(
      JSON.stringify([{ error: superjson.serialize({ message: 'no', code: -32603, data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: status } }) }]),
      {
        status,
        headers: { 'content-type': 'application/json' },
      },
    );

  /** A client over a scripted fetch: each call takes the next step (a Response, or 'drop' to reject). */
  function clientWith(steps: (Response | 'drop')[]) {
    const connection = new Connection();
    const calls: string[] = [];
    const realFetch = globalThis.fetch;
    const scripted = (async (input: RequestInfo | URL) => {
      calls.push(input instanceof Request ? input.url : String(input));
      const step = steps.shift();
      if (!step || step === 'drop') throw new TypeError('Failed to fetch');
      return step;
    }) as typeof fetch;
    globalThis.fetch = scripted;
    const client = createTRPCClient<AppRouter>({
      links: [
        holdWhileUnreachableLink(connection),
        httpBatchLink({ url: 'http://portal.test/api/trpc', transformer: superjson, fetch: trackedFetch(connection) }),
      ],
    });
    return { client, connection, calls, restore: () => (globalThis.fetch = realFetch) };
  }

  it('a query that got no answer waits for the connection, then goes again and resolves', async () => {
    const { client, connection, calls, restore } = clientWith(['drop', ok({ data: [], total: 0 })]);
    try {
      let result: unknown;
      const query = (client as any).system.getList.query({}).then((r: unknown) => (result = r));
      await new Promise((r) => setTimeout(r, 20));
      expect(connection.getState().reachable).toBe(false);
      expect(calls).toHaveLength(1);
      expect(result).toBeUndefined();
      connection.markAnswered();
      await query;
      expect(result).toEqual({ data: [], total: 0 });
      expect(calls).toHaveLength(2);
    } finally {
      restore();
    }
  });

  it('a mutation that got no answer fails at once (a save must say it did not happen)', async () => {
    const { client, connection, restore } = clientWith(['drop']);
    try {
      await expect((client as any).system.update.mutate({ id: 'x', data: {}, previousData: {} })).rejects.toThrow('Failed to fetch');
      expect(connection.getState().reachable).toBe(false);
    } finally {
      restore();
    }
  });

  it('an answered failure (500) is an error at once, and marks the server reachable', async () => {
    const { client, connection, restore } = clientWith([failure(500)]);
    try {
      connection.markUnreachable();
      const error = await (client as any).system.getList.query({}).catch((e: unknown) => e);
      expect(isUnanswered(error)).toBe(false);
      expect(connection.getState().reachable).toBe(true);
    } finally {
      restore();
    }
  });

  it('an aborted query is not held', async () => {
    const { client, restore } = clientWith(['drop']);
    try {
      const abort = new AbortController();
      const query = (client as any).system.getList.query({}, { signal: abort.signal });
      await new Promise((r) => setTimeout(r, 20));
      abort.abort();
      await expect(query).rejects.toBeDefined();
    } finally {
      restore();
    }
  });

  it("tracks the page's writes: a mutation is out until its answer, a query is never a write", async () => {
    let answer: (r: Response) => void = () => undefined;
    const later = new Promise<Response>((resolve) => (answer = resolve));
    const { client, connection, restore } = clientWith([ok({ data: [], total: 0 })]);
    const realFetch = globalThis.fetch;
    try {
      await (client as any).system.getList.query({});
      const before = connection.writesMark();
      expect(await connection.writesSettled(before)).toBe(false);
      globalThis.fetch = () => later;
      const saved = (client as any).system.update.mutate({ id: 'x', data: {}, previousData: {} });
      await new Promise((r) => setTimeout(r, 20));
      let settled: boolean | undefined;
      const waiting = connection.writesSettled(connection.writesMark()).then((overlapped) => (settled = overlapped));
      await new Promise((r) => setTimeout(r, 20));
      expect(settled).toBeUndefined();
      answer(ok({ id: 'x' }));
      await saved;
      await waiting;
      expect(settled).toBe(true);
    } finally {
      globalThis.fetch = realFetch;
      restore();
    }
  });
});

describe('prefetchAllowed (§9: not on slow links that say saveData)', () => {
  it.each([
    [undefined, true],
    [{}, true],
    [{ effectiveType: '4g' }, true],
    [{ effectiveType: '3g' }, true],
    [{ effectiveType: '2g' }, false],
    [{ effectiveType: 'slow-2g' }, false],
    [{ saveData: true, effectiveType: '4g' }, false],
  ])('connection %j → %s', (connection, allowed) => {
    expect(prefetchAllowed(connection === undefined ? {} : { connection })).toBe(allowed);
  });
});
