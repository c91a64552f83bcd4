import { onlineManager } from '@tanstack/react-query';
import { HttpError } from 'ra-core';
import { createQueryClient } from './query-client';

/** Spec §9 data cache settings, read back from a real QueryClient (not from the constants). */
describe('the QueryClient react-admin and the screens share', () => {
  afterEach(() => jest.useRealTimers());

  it('keeps unused data 5 minutes', () => {
    const client = createQueryClient();
    expect(client.getDefaultOptions().queries?.gcTime).toBe(5 * 60_000);
    expect(client.defaultQueryOptions({ queryKey: ['system', 'getList'] }).gcTime).toBe(300_000);
  });

  it('waits 1 s before the first retry, doubling up to 30 s', () => {
    const delay = createQueryClient().getDefaultOptions().queries?.retryDelay as (n: number, e: unknown) => number;
    expect([0, 1, 2, 3, 4, 5, 6, 12].map((n) => delay(n, new Error('x')))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  /** Runs a real query whose function always fails with `error`; the times of its attempts. */
  async function attempts(error: unknown): Promise<number[]> {
    jest.useFakeTimers({ now: 0 });
    const client = createQueryClient();
    const at: number[] = [];
    const run = client.fetchQuery({
      queryKey: ['probe'],
      queryFn: async () => {
        at.push(Date.now());
        throw error;
      },
    });
    const settled = run.then(
      () => 'resolved',
      () => 'rejected',
    );
    await jest.advanceTimersByTimeAsync(120_000);
    expect(await settled).toBe('rejected');
    client.clear();
    return at;
  }

  it.each([500, 502, 503, 0])('retries a query that failed with %i 3 times, 1 s, 2 s and 4 s later', async (status) => {
    expect(await attempts(new HttpError('failed', status))).toEqual([0, 1000, 3000, 7000]);
  });

  it('retries a failure without a status (a plain error) the same way', async () => {
    expect(await attempts(new Error('boom'))).toEqual([0, 1000, 3000, 7000]);
  });

  it.each([400, 401, 403, 404, 409, 413])('never retries a %i answer', async (status) => {
    expect(await attempts(new HttpError('refused', status))).toEqual([0]);
  });

  it.each([408, 429])('retries a %i ("later") answer', async (status) => {
    expect(await attempts(new HttpError('later', status))).toHaveLength(4);
  });

  it('does not retry mutations, nor holds them while offline', async () => {
    const client = createQueryClient();
    expect(client.getDefaultOptions().mutations?.retry).toBe(false);
    expect(client.getDefaultOptions().mutations?.networkMode).toBe('always');
    let calls = 0;
    const mutation = client.getMutationCache().build(client, {
      mutationFn: async () => {
        calls++;
        throw new HttpError('down', 503);
      },
    });
    await expect(mutation.execute(undefined)).rejects.toThrow('down');
    expect(calls).toBe(1);
    // Offline (react-query's onlineManager), the mutation still runs and fails instead of pausing.
    onlineManager.setOnline(false);
    try {
      const offline = client.getMutationCache().build(client, {
        mutationFn: async () => {
          calls++;
          throw new HttpError('Failed to fetch', 0);
        },
      });
      await expect(offline.execute(undefined)).rejects.toThrow('Failed to fetch');
      expect(calls).toBe(2);
    } finally {
      onlineManager.setOnline(true);
    }
  });

  it('keeps suspense queries fresh for at least 1 s, and leaves other stale times alone', () => {
    const client = createQueryClient();
    const staleOf = (options: Record<string, unknown>) => client.defaultQueryOptions({ queryKey: ['k'], ...options }).staleTime;
    expect(staleOf({ suspense: true })).toBe(1000);
    expect(staleOf({ suspense: true, staleTime: 200 })).toBe(1000);
    expect(staleOf({ suspense: true, staleTime: 60_000 })).toBe(60_000);
    const fn = staleOf({ suspense: true, staleTime: () => 10 }) as () => number;
    expect(fn()).toBe(1000);
    expect(staleOf({})).toBeUndefined();
    expect(staleOf({ staleTime: 200 })).toBe(200);
  });
});
