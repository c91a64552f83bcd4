/**
 * Generated inputs for every tRPC procedure (fast-check): at least FUZZ_RUNS (default 40, a
 * couple of minutes on the embedded database; CI sets 1000 on PostgreSQL) inputs per procedure, each sent as a signed-in superuser and as a Basic user, plus raw junk
 * (malformed JSON, wrong batch shapes, wrong methods). Properties:
 *   - never a 5xx, for any call in any batch;
 *   - no stack trace and no SQL text in any body;
 *   - an input the procedure's own zod schema refuses answers 400 with `fieldErrors`
 *     (a Basic user may be refused 403 first, by the permission check that runs before input parsing);
 *   - nothing is written: a checksum of every table (session bookkeeping excepted) is unchanged.
 * Mutations and subscriptions only get inputs their schema refuses (checked here with the same
 * schema before sending), so no generated input can write. Queries also get valid ones.
 * Should a write be accepted anyway (2xx), the resource is read back at once (getList and getOne,
 * as superuser and as Basic): a write the server accepts must always be readable back.
 * FUZZ_ONLY (a regular expression on procedure paths) narrows a run down to some procedures.
 *
 * The procedures are dealt to GENERATED_INPUT_SHARDS spec files (generated-inputs-<n>.spec.ts),
 * each on its own app and database, so Jest runs them on both cores at once: the test runs client
 * and server in one process, one core each. Procedure i goes to shard i mod shards, with the same
 * seed as if it ran alone.
 */
import fc from 'fast-check';
import superjson from 'superjson';
import type { FastifyInstance } from 'fastify';
import { startTestApp, type TestApp } from '../factories/app';
import { listProcedures, pool, PolicyWorld } from '../factories/policy-world';
import { junk, near, notAnObject, oddString } from './input-arbitraries';

/** Inputs per procedure and user; CI runs 1000 on PostgreSQL. */
export const DEFAULT_FUZZ_RUNS = 40;
const RUNS = Number(process.env.FUZZ_RUNS ?? DEFAULT_FUZZ_RUNS);
// CI's full count (1,000 per procedure and user, ~430 procedures, in batches of 10) takes about 10 minutes a shard on PostgreSQL here.
jest.setTimeout(Math.max(900_000, RUNS * 3_000));
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
/**
 * Calls per request (FUZZ_BATCH). At the default count every input is a request of its own; at
 * CI's full count inputs go in tRPC batches of 10 (each call still parsed, checked and answered on
 * its own, with its own status), which spares the per-request work (routing, the session check)
 * that the small count already covers once per input.
 */
const BATCH = Math.max(1, Math.min(50, Number(process.env.FUZZ_BATCH ?? (RUNS >= 200 ? 10 : 1))));
const BATCH_BYTES = 200_000;
/** FUZZ_ONLY: a regular expression; only the procedures whose path matches it (to look into one). */
const ONLY = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : undefined;

/**
 * Not written by any input: session bookkeeping, and the controllers' online state, which the
 * app's own presence timer moves with the clock (a demo controller goes OFFLINE during the run).
 */
const UNTOUCHED_EXCLUDES = ['revoked_session', 'migrations', 'controller_presence', 'controller_online_state', 'controller_online_state_history'];
const snapshot = async (w: PolicyWorld, since: Date) =>
  Object.fromEntries(Object.entries(await w.checksumAll(UNTOUCHED_EXCLUDES, since)).filter(([table]) => !table.startsWith('controller_online_state_history')));

const STACK = /\bat [\w.<>$]+ \(|\.[jt]s:\d+:\d+|node_modules|\/work\/|Error: .*\n\s+at /;
const SQL =
  /\b(SELECT\s+.+\s+FROM|INSERT\s+INTO|UPDATE\s+"?\w+"?\s+SET|DELETE\s+FROM)\b|syntax error at|relation "|violates .* constraint|duplicate key value|invalid input syntax|QueryFailedError|column "\w+"/i;

interface Item {
  status: number;
  fieldErrors?: unknown;
  text: string;
}

/**
 * The wire form of a value: superjson's, or (superjson refuses to serialize own `__proto__` keys)
 * plain JSON under `json`, so pollution keys do reach the server.
 */
function wire(v: unknown): unknown {
  try {
    return superjson.serialize(v);
  } catch {
    return { json: v };
  }
}
const wireText = (v: unknown): string => JSON.stringify(wire(v)) ?? '{}';
const shownInput = (v: unknown): string => wireText(v).slice(0, 300);

/** What the server makes of the wire form (throws where the server's deserializer throws). */
const roundTrip = (v: unknown): unknown => superjson.deserialize(JSON.parse(wireText(v)));

async function locallyValid(inputs: unknown[], value: unknown): Promise<boolean> {
  let v = value;
  for (const schema of inputs) {
    try {
      const r = await (schema as { safeParseAsync(x: unknown): Promise<{ success: boolean; data?: unknown }> }).safeParseAsync(v);
      if (!r.success) return false;
      v = r.data;
    } catch {
      return false;
    }
  }
  return true;
}

function leaks(text: string): string | undefined {
  if (STACK.test(text)) return `stack trace: ${text.match(STACK)![0]}`;
  if (SQL.test(text)) return `SQL text: ${text.match(SQL)![0]}`;
  return undefined;
}

/** How many spec files share the procedures (one per file generated-inputs-<n>.spec.ts). */
export const GENERATED_INPUT_SHARDS = 2;

/** The procedures of one shard: [path, procedure, index in the whole list]. */
function shardOf<T>(all: Iterable<[string, T]>, shard: number): [string, T, number][] {
  return [...all]
    .map(([path, proc], index) => [path, proc, index] as [string, T, number])
    .filter(([path, , index]) => index % GENERATED_INPUT_SHARDS === shard && (!ONLY || ONLY.test(path)));
}

export function describeGeneratedInputs(shard: number): void {
  describe(`generated inputs for every procedure (shard ${shard + 1} of ${GENERATED_INPUT_SHARDS})`, () => {
    let t: TestApp;
    let w: PolicyWorld;
    let fastify: FastifyInstance;
    const cookies: Record<'superuser' | 'basic', string> = { superuser: '', basic: '' };

    beforeAll(async () => {
      t = await startTestApp();
      w = new PolicyWorld(t);
      await w.build();
      fastify = t.app.getHttpAdapter().getInstance();
      cookies.superuser = (await w.actor(0, true)).cookieHeader();
      cookies.basic = (await w.actor(3, false)).cookieHeader();
      // The first fetch of the process loads the HTTP client, which takes seconds on a busy machine;
      // not the server's time, so it is spent here rather than inside a stream's time limit.
      expect((await fetch(`${t.baseUrl}/api/health`)).status).toBeLessThan(500);
    });
    afterAll(async () => {
      await t?.close();
    });

    async function inject(method: 'GET' | 'POST', url: string, cookie: string, body?: string, contentType = 'application/json') {
      const answer = fastify.inject({ method, url, headers: { cookie, ...(body !== undefined ? { 'content-type': contentType } : {}) }, payload: body });
      let timer: ReturnType<typeof setTimeout> | undefined = undefined;
      const late = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), 20_000);
      });
      const res = await Promise.race([answer, late]);
      clearTimeout(timer);
      // an answer that never ends (a stream opened for a refused input) is a failure too
      if (!res) return { status: 0, text: `no complete answer within 20 s: ${method} ${url.slice(0, 200)}` };
      return { status: res.statusCode, text: res.body };
    }

    /**
     * Inputs dealt into batches of up to BATCH calls and BATCH_BYTES of wire text (a larger input
     * goes alone, so a batch never passes the body limit that a single input would not).
     */
    function batchesOf(values: { value: unknown; valid: boolean }[]): { value: unknown; valid: boolean; text: string }[][] {
      const out: { value: unknown; valid: boolean; text: string }[][] = [];
      let current: { value: unknown; valid: boolean; text: string }[] = [];
      let bytes = 0;
      for (const v of values) {
        const text = wireText(v.value);
        if (current.length && (current.length >= BATCH || bytes + text.length > BATCH_BYTES)) {
          out.push(current);
          current = [];
          bytes = 0;
        }
        current.push({ ...v, text });
        bytes += text.length;
      }
      if (current.length) out.push(current);
      return out;
    }

    /**
     * Sends inputs to one procedure: alone as a plain call, or several as one tRPC batch
     * (`a,a,a?batch=1`, each call answered on its own). Returns each call's status, fieldErrors and text.
     */
    async function send(type: string, path: string, cookie: string, batch: { text: string }[]): Promise<Item[]> {
      const item = (status: number, text: string, body: unknown): Item => {
        const error = (body as { error?: { json?: { data?: { httpStatus?: number; fieldErrors?: unknown } } } } | undefined)?.error;
        return { status: error ? (error.json?.data?.httpStatus ?? status) : status, fieldErrors: error?.json?.data?.fieldErrors, text };
      };
      const parse = (text: string): unknown => {
        try {
          return JSON.parse(text);
        } catch {
          return undefined;
        }
      };
      if (batch.length === 1) {
        const text = batch[0].text;
        const res =
          type === 'mutation'
            ? await inject('POST', `/api/trpc/${path}`, cookie, text)
            : await inject('GET', `/api/trpc/${path}?input=${encodeURIComponent(text)}`, cookie);
        return [
          {
            status: res.status,
            fieldErrors: (parse(res.text) as { error?: { json?: { data?: { fieldErrors?: unknown } } } } | undefined)?.error?.json?.data?.fieldErrors,
            text: res.text,
          },
        ];
      }
      const paths = batch.map(() => path).join(',');
      const body = `{${batch.map((b, i) => `"${i}":${b.text}`).join(',')}}`;
      const res =
        type === 'mutation'
          ? await inject('POST', `/api/trpc/${paths}?batch=1`, cookie, body)
          : await inject('GET', `/api/trpc/${paths}?batch=1&input=${encodeURIComponent(body)}`, cookie);
      const answers = parse(res.text);
      // a whole-request failure (no per-call answers) stands for every call in it
      if (!Array.isArray(answers) || answers.length !== batch.length)
        return batch.map(() => ({
          status: res.status >= 500 || res.status === 0 ? res.status : 0,
          text: `the batch answered ${res.status} without one answer per call: ${res.text.slice(0, 300)}`,
        }));
      return answers.map((a) => item(res.status >= 500 ? res.status : 200, JSON.stringify(a), a));
    }

    /**
     * A subscription over a real socket (closing it ends the server's stream; an injected request
     * has no socket to close, so a stream it opened would stay open for good). Up to 20 s for the
     * answer to start, like `inject`; then up to 3 s for the error event that ends a refused stream.
     * `open`: the stream started (connected) and stayed open without an error.
     */
    async function stream(url: string, cookie: string): Promise<{ status: number; text: string; open: boolean }> {
      const abort = new AbortController();
      let timer = setTimeout(() => abort.abort(), 20_000);
      let status = 0;
      let text = '';
      let open = false;
      try {
        const res = await fetch(`${t.baseUrl}${url}`, { headers: { cookie, accept: 'text/event-stream' }, signal: abort.signal });
        status = res.status;
        clearTimeout(timer);
        timer = setTimeout(() => abort.abort(), 3000);
        const reader = res.body!.getReader();
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) break;
          text += new TextDecoder().decode(chunk.value);
          if (text.startsWith('event:') && /serialized-error[\s\S]*\n\n/.test(text)) break;
        }
      } catch {
        if (status === 0) text = `no answer within 20 s: GET ${url.slice(0, 200)}`;
        else open = true; // aborted after 3 s: the stream stayed open
        if (!text) text = 'the stream stayed open without an error';
      } finally {
        clearTimeout(timer);
        abort.abort();
      }
      return { status, text, open };
    }

    /**
     * After a write the server accepted: the resource reads back (getList, and getOne of the written
     * record) without a 5xx, as superuser and as Basic. Returns the failures.
     */
    async function readBack(path: string, answer: string, procedures: Map<string, { type: string }>): Promise<string[]> {
      const resource = path.slice(0, path.lastIndexOf('.'));
      const out: string[] = [];
      let id: unknown;
      try {
        const data = superjson.deserialize<{ data?: { id?: unknown }; id?: unknown }>(JSON.parse(answer).result.data);
        id = data?.data?.id ?? data?.id;
      } catch {
        /* no record in the answer */
      }
      const reads: [string, unknown][] = [];
      if (procedures.has(`${resource}.getList`)) reads.push([`${resource}.getList`, { pagination: { page: 1, perPage: 100 }, filter: {} }]);
      if (procedures.has(`${resource}.getOne`) && (typeof id === 'string' || typeof id === 'number')) reads.push([`${resource}.getOne`, { id }]);
      for (const who of ['superuser', 'basic'] as const) {
        for (const [read, input] of reads) {
          const res = await inject('GET', `/api/trpc/${read}?input=${encodeURIComponent(wireText(input))}`, cookies[who]);
          if (res.status >= 500 || res.status === 0) out.push(`${path} was accepted, then ${read} as ${who} answered ${res.status}: ${res.text.slice(0, 200)}`);
        }
      }
      return out;
    }

    it(`every procedure: ${RUNS} generated inputs each as superuser and as Basic; no 5xx, no leak, invalid → 400 with fieldErrors, nothing written`, async () => {
      const all = listProcedures(w.appRouter());
      const procedures = shardOf(all, shard);
      if (!ONLY) expect(all.size).toBeGreaterThan(100);
      const since = new Date();
      const before = await snapshot(w, since);
      const failures: string[] = [];
      const fail = (msg: string) => {
        if (failures.length < 300) failures.push(msg);
      };
      const counts: Record<string, number> = {};

      await pool(procedures, 2, async ([path, proc, index]) => {
        const { type, inputs } = proc;
        const readOnly = type === 'query';
        if (!inputs.length && !readOnly) {
          fail(`${path}: a ${type} without an input schema cannot be fuzzed safely`);
          return;
        }
        const schema = inputs[0];
        const arb = fc.oneof({ weight: 6, arbitrary: near(schema) }, { weight: 2, arbitrary: junk }, { weight: 1, arbitrary: notAnObject });
        // Mutations and subscriptions: only inputs the schema refuses (so none can write or open a stream).
        const values: { value: unknown; valid: boolean }[] = [];
        let seed = SEED + index * 7919;
        for (let round = 0; values.length < RUNS && round < 20; round++) {
          for (const v of fc.sample(arb, { numRuns: RUNS, seed: seed++ })) {
            if (values.length >= RUNS) break;
            let valid: boolean;
            try {
              const sent = roundTrip(v);
              valid = inputs.length ? await locallyValid(inputs, sent) : true;
            } catch {
              valid = false; // the server cannot even read it
            }
            if (valid && !readOnly) continue;
            values.push({ value: v, valid });
          }
        }
        if (values.length < RUNS) {
          fail(`${path}: could only generate ${values.length} refused inputs`);
          return;
        }
        counts[path] = values.length;
        if (process.env.FUZZ_DEBUG) process.stderr.write(`generated ${path} ${values.length}\n`);

        for (const who of ['superuser', 'basic'] as const) {
          const check = (value: unknown, valid: boolean, item: Item) => {
            const shown = () => wireText(value).slice(0, 300);
            if (item.status >= 500 || item.status === 0) fail(`${path} as ${who}: HTTP ${item.status} for input ${shown()}: ${item.text.slice(0, 300)}`);
            const leak = leaks(item.text);
            if (leak) fail(`${path} as ${who}: ${leak} for input ${shown()}`);
            if (!valid) {
              const allowed = who === 'superuser' ? [400] : [400, 403];
              if (!allowed.includes(item.status))
                fail(
                  `${path} as ${who}: a refused input answered ${item.status} (expected ${allowed.join(' or ')}) for ${shown()}: ${item.text.slice(0, 200)}`,
                );
              if (item.status === 400 && !(Array.isArray(item.fieldErrors) && item.fieldErrors.length))
                fail(`${path} as ${who}: 400 without fieldErrors for ${shown()}: ${item.text.slice(0, 200)}`);
            }
          };
          if (type === 'subscription') {
            // not batchable; each refused input is answered before any stream opens
            await pool(values, 16, async ({ value, valid }) => {
              const res = await stream(`/api/trpc/${path}?input=${encodeURIComponent(wireText(value))}`, cookies[who]);
              let fieldErrors: unknown;
              let status = res.status;
              try {
                if (res.text.startsWith('event:')) {
                  // tRPC answers subscriptions over SSE with 200 and reports the error as an event, then ends the stream
                  const m = res.text.match(/event: serialized-error\ndata: (.*)\n/);
                  const err = m ? JSON.parse(m[1]) : undefined;
                  status = err ? (err.json?.data?.httpStatus ?? err.data?.httpStatus ?? 0) : res.status;
                  fieldErrors = err?.json?.data?.fieldErrors ?? err?.data?.fieldErrors;
                } else fieldErrors = JSON.parse(res.text).error?.json?.data?.fieldErrors;
              } catch {
                /* not JSON */
              }
              // over a real socket Node refuses URLs beyond its 16 KiB header limit (431) before the app sees them
              const transportRefused = status === 431 || status === 414;
              if (res.open) fail(`${path} as ${who}: a refused input opened a stream that stayed open: ${shownInput(value)}`);
              check(value, valid && !transportRefused ? valid : transportRefused ? true : valid, { status, fieldErrors, text: res.text });
            });
            continue;
          }
          if (process.env.FUZZ_DEBUG) process.stderr.write(`sending ${path} as ${who}\n`);
          await pool(batchesOf(values), 16 / Math.min(BATCH, 4), async (batch) => {
            const answers = await send(type, path, cookies[who], batch);
            for (const [i, { value, valid }] of batch.entries()) {
              const item = answers[i];
              check(value, valid, item);
              if (type === 'mutation' && item.status >= 200 && item.status < 300) for (const f of await readBack(path, item.text, all)) fail(f);
            }
          });
        }
      });

      expect(failures).toEqual([]);
      expect(Object.keys(counts).length).toBe(procedures.length);
      expect(Math.min(...Object.values(counts))).toBeGreaterThanOrEqual(RUNS);
      // nothing was written, and nothing polluted Object.prototype in this (the server's) process
      expect(await snapshot(w, since)).toEqual(before);
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(Object.getOwnPropertyNames(Object.getPrototypeOf({})).sort());
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('raw junk (FUZZ_RAW_RUNS, default 20) on every procedure: malformed JSON, wrong batch shapes, wrong methods, odd content types; no 5xx, no leak, nothing written', async () => {
      const procedures = shardOf(listProcedures(w.appRouter()), shard);
      const since = new Date();
      const before = await snapshot(w, since);
      const failures: string[] = [];
      const perProcedure = Number(process.env.FUZZ_RAW_RUNS ?? 20);
      const raw = fc.oneof(
        // malformed JSON bodies and inputs
        fc.record({
          kind: fc.constant('badJson' as const),
          text: fc.oneof(oddString, fc.constantFrom('{', '{"0":', '[', '{"json":}', 'nul', '"\\u12"', '{"0":{"json":1}}}', '\u0000')),
        }),
        // batch shapes that do not fit: an array, missing or extra indexes, non-object entries
        fc.record({
          kind: fc.constant('badBatch' as const),
          count: fc.integer({ min: 1, max: 5 }),
          body: fc.oneof(fc.array(junk, { maxLength: 3 }), fc.dictionary(fc.constantFrom('0', '1', '7', '-1', 'x', '__proto__'), junk, { maxKeys: 3 }), junk),
        }),
        // a query as POST, a mutation as GET
        fc.record({ kind: fc.constant('wrongMethod' as const), body: junk }),
        // odd content types
        fc.record({
          kind: fc.constant('contentType' as const),
          type: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', ''),
          body: oddString,
        }),
      );
      const all = listProcedures(w.appRouter());
      await pool(procedures, 2, async ([path, proc, index]) => {
        const samples = fc.sample(raw, { numRuns: perProcedure, seed: SEED + index + 1 });
        const isQuery = proc.type !== 'mutation';
        for (const who of ['superuser', 'basic'] as const) {
          // A GET of a subscription goes over a real socket (see `stream`); a readable input opens a
          // legitimate stream, which is closed again.
          const get = async (url: string) => {
            if (proc.type !== 'subscription') return inject('GET', url, cookies[who]);
            const r = await stream(url, cookies[who]);
            return r.open ? { status: 200, text: '' } : r;
          };
          await pool(samples, 8, async (s) => {
            if (failures.length > 200) return;
            let res: { status: number; text: string };
            switch (s.kind) {
              case 'badJson':
                res = isQuery
                  ? await get(`/api/trpc/${path}?input=${encodeURIComponent(s.text)}`)
                  : await inject('POST', `/api/trpc/${path}`, cookies[who], s.text);
                break;
              case 'badBatch': {
                const paths = Array.from({ length: s.count }, () => path).join(',');
                const body = JSON.stringify(s.body) ?? 'null';
                res = isQuery
                  ? await get(`/api/trpc/${paths}?batch=1&input=${encodeURIComponent(body)}`)
                  : await inject('POST', `/api/trpc/${paths}?batch=1`, cookies[who], body);
                break;
              }
              case 'wrongMethod':
                res = isQuery
                  ? await inject('POST', `/api/trpc/${path}`, cookies[who], wireText(s.body))
                  : await inject('GET', `/api/trpc/${path}?input=${encodeURIComponent(wireText(s.body))}`, cookies[who]);
                break;
              case 'contentType':
                res = isQuery
                  ? await get(`/api/trpc/${path}?input=${encodeURIComponent(s.body)}`)
                  : await inject('POST', `/api/trpc/${path}`, cookies[who], s.body, s.type);
                break;
            }
            const shown = JSON.stringify(s).slice(0, 200);
            if (res.status >= 500 || res.status === 0) failures.push(`${path} as ${who}: HTTP ${res.status} for ${shown}: ${res.text.slice(0, 200)}`);
            const leak = leaks(res.text);
            if (leak) failures.push(`${path} as ${who}: ${leak} for ${shown}`);
            if (proc.type === 'mutation' && res.status >= 200 && res.status < 300) failures.push(...(await readBack(path, res.text, all)));
          });
        }
      });
      // an unknown procedure and an empty batch (once, in the first shard)
      for (const [method, url] of shard > 0
        ? []
        : ([
            ['GET', '/api/trpc/noSuch.procedure'],
            ['POST', '/api/trpc/noSuch.procedure'],
            ['GET', '/api/trpc/?batch=1&input={}'],
            ['GET', `/api/trpc/${'role.all,'.repeat(500)}role.all?batch=1&input={}`],
          ] as const)) {
        const res = await inject(method, url, cookies.superuser, method === 'POST' ? '{}' : undefined);
        if (res.status >= 500) failures.push(`${method} ${url.slice(0, 60)}: HTTP ${res.status}`);
        const leak = leaks(res.text);
        if (leak) failures.push(`${method} ${url.slice(0, 60)}: ${leak}`);
      }
      expect(failures).toEqual([]);
      expect(await snapshot(w, since)).toEqual(before);
    });
  });
}
