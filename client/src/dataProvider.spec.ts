import { TRPCClientError } from '@trpc/client';
import { createDataProvider, MUTATION_METHODS, QUERY_METHODS } from './dataProvider';

/** A stand-in for the tRPC proxy client: records `<router>.<procedure>` calls. */
function fakeClient(answer: (path: string, kind: 'query' | 'mutate', input: unknown) => unknown) {
  const calls: { path: string; kind: string; input: unknown; signal?: AbortSignal }[] = [];
  const client = new Proxy(
    {},
    {
      get: (_t, router: string) =>
        new Proxy(
          {},
          {
            get: (_u, procedure: string) => ({
              query: async (input: unknown, opts?: { signal?: AbortSignal }) => {
                calls.push({ path: `${router}.${procedure}`, kind: 'query', input, signal: opts?.signal });
                return answer(`${router}.${procedure}`, 'query', input);
              },
              mutate: async (input: unknown, opts?: { signal?: AbortSignal }) => {
                calls.push({ path: `${router}.${procedure}`, kind: 'mutate', input, signal: opts?.signal });
                return answer(`${router}.${procedure}`, 'mutate', input);
              },
            }),
          },
        ),
    },
  );
  return { client, calls };
}

describe('dataProvider over tRPC', () => {
  it('maps the nine react-admin calls to <resource>.<method>: four queries, five mutations', async () => {
    const { client, calls } = fakeClient(() => ({ data: [], total: 0 }));
    const sut = createDataProvider(client) as unknown as Record<string, (resource: string, params: unknown) => Promise<unknown>>;
    for (const method of [...QUERY_METHODS, ...MUTATION_METHODS]) await sut[method]('system', { id: 'x' });
    expect(calls.map((c) => `${c.kind} ${c.path}`)).toEqual([
      'query system.getList',
      'query system.getOne',
      'query system.getMany',
      'query system.getManyReference',
      'mutate system.create',
      'mutate system.update',
      'mutate system.updateMany',
      'mutate system.delete',
      'mutate system.deleteMany',
    ]);
  });

  it("passes react-admin's params as the input (the abort signal goes to fetch) and returns the answer as is", async () => {
    const { client, calls } = fakeClient(() => ({ data: [{ id: 's1', name: 'Farm' }], total: 1 }));
    const sut = createDataProvider(client);
    const signal = new AbortController().signal;
    const params = {
      pagination: { page: 2, perPage: 25 },
      sort: { field: 'name', order: 'ASC' as const },
      filter: { q: 'farm' },
      meta: { with: 'site' },
      signal,
    };
    expect(await sut.getList('system', params)).toEqual({ data: [{ id: 's1', name: 'Farm' }], total: 1 });
    expect(calls[0].input).toEqual({
      pagination: { page: 2, perPage: 25 },
      sort: { field: 'name', order: 'ASC' },
      filter: { q: 'farm' },
      meta: { with: 'site' },
    });
    expect(calls[0].signal).toBe(signal);
  });

  it('turns a tRPC error into an HttpError with the status and the field errors react-admin shows', async () => {
    const error = new TRPCClientError('Invalid input', {
      result: {
        error: {
          code: -32600,
          message: 'Invalid input',
          data: {
            code: 'BAD_REQUEST',
            httpStatus: 400,
            fieldErrors: [
              { path: 'name', message: 'Required' },
              { path: 'data.email', message: 'Invalid email' },
              { path: '', message: 'Bad' },
            ],
          },
        },
      },
    });
    const { client } = fakeClient(() => {
      throw error;
    });
    const sut = createDataProvider(client);
    await expect(sut.create('site', { data: {} })).rejects.toMatchObject({
      message: 'Invalid input',
      status: 400,
      body: { code: 'BAD_REQUEST', errors: { name: 'Required', email: 'Invalid email', 'root.serverError': 'Bad' } },
    });
  });
});
