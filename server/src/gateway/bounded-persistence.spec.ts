import { Logger } from '@nestjs/common';
import * as mqttPacket from 'mqtt-packet';
import { PassThrough } from 'node:stream';
import { Registry } from 'prom-client';
import { boundedPersistence } from './bounded-persistence';

/** The outgoing queues alone (the broker's side is test/mqtt/session-queue.spec.ts). */
describe('BoundedOutgoing', () => {
  type P = { topic: string; payload: Buffer; qos: number; brokerId: string; brokerCounter: number; messageId?: number; writeCallback?: () => void };
  const logger = new Logger('test');
  jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
  let counter = 0;
  const packet = (payload = 'x'): P => ({ topic: 'portal/v1/c/reply', payload: Buffer.from(payload), qos: 1, brokerId: 'b', brokerCounter: ++counter });
  const call = <T>(fn: (cb: (...a: unknown[]) => void) => void) => new Promise<T>((resolve) => fn((...a) => resolve(a as T)));

  function setup(limits: { maxMessages: number; maxBytes: number; maxInflight: number; maxTotalBytes?: number }) {
    const { persistence, outgoing } = boundedPersistence({ maxTotalBytes: 1 << 30, ...limits }, logger, new Registry());
    const p = persistence as Record<string, (...a: unknown[]) => any>;
    const enqueue = (clientId: string, pk: P) => call<unknown[]>((cb) => p.outgoingEnqueueCombi([{ clientId }], pk, cb));
    const stored = async (clientId: string) => {
      const out: P[] = [];
      for await (const x of p.outgoingStream({ id: clientId }) as AsyncIterable<P>) out.push(x);
      return out.map((x) => x.payload.toString());
    };
    return { p, enqueue, stored, outgoing };
  }

  it('keeps the newest maxMessages of a session, in order, and other sessions apart', async () => {
    const { enqueue, stored } = setup({ maxMessages: 3, maxBytes: 1 << 20, maxInflight: 10 });
    for (let i = 0; i < 7; i++) await enqueue('a', packet(`a${i}`));
    await enqueue('b', packet('b0'));
    expect(await stored('a')).toEqual(['a4', 'a5', 'a6']);
    expect(await stored('b')).toEqual(['b0']);
  });

  it('keeps the newest messages within maxBytes (payload + topic + 64 each)', async () => {
    const size = 100 + 'portal/v1/c/reply'.length + 64;
    const { enqueue, stored } = setup({ maxMessages: 100, maxBytes: size * 2 + 10, maxInflight: 10 });
    for (let i = 0; i < 5; i++) await enqueue('a', packet(`${i}`.padEnd(100, '.')));
    expect((await stored('a')).map((s) => s[0])).toEqual(['3', '4']);
  });

  it('keeps all sessions together within maxTotalBytes: the oldest messages of the largest session go first; a small session keeps its own', async () => {
    const size = 100 + 'portal/v1/c/reply'.length + 64;
    const { enqueue, stored, outgoing } = setup({ maxMessages: 100, maxBytes: 1 << 20, maxInflight: 10, maxTotalBytes: size * 5 });
    await enqueue('small', packet('s0'.padEnd(100, '.')));
    for (let i = 0; i < 8; i++) await enqueue('big', packet(`${i}`.padEnd(100, '.')));
    expect((await stored('big')).map((x) => x[0])).toEqual(['4', '5', '6', '7']);
    expect((await stored('small')).map((x) => x.slice(0, 2))).toEqual(['s0']);
    expect(outgoing.totalKeptBytes()).toBe(size * 5);
    // a session a clean CONNECT ends: its queue goes, and its bytes leave the total
    outgoing.endSession('big');
    expect(await stored('big')).toEqual([]);
    expect(outgoing.totalKeptBytes()).toBe(size);
  });

  it('writes at most maxInflight to a client; an acknowledgement frees a place', async () => {
    const { p, enqueue } = setup({ maxMessages: 10, maxBytes: 1 << 20, maxInflight: 1 });
    const conn = new PassThrough();
    const client = {
      id: 'a',
      connected: true,
      closed: false,
      conn,
      _nextId: 7,
      _onError: () => undefined,
      broker: { authorizeForward: (_c: unknown, pk: P) => pk },
    };
    const parser = mqttPacket.parser({ protocolVersion: 4 });
    const onWire: { messageId?: number; payload: string }[] = [];
    parser.on('packet', (pk: any) => onWire.push({ messageId: pk.messageId, payload: pk.payload.toString() }));
    conn.on('data', (d: Buffer) => parser.parse(d));
    const first = packet('1');
    const second = packet('2');
    await enqueue('a', first);
    await enqueue('a', second);
    const written: string[] = [];
    const update = (pk: P, messageId: number) =>
      new Promise<void>((resolve) => {
        const out = { ...pk, messageId, writeCallback: () => resolve() };
        p.outgoingUpdate(client, out, (err: unknown, _c: unknown, w: P) => {
          if (!err) written.push(w.payload.toString());
          resolve();
        });
      });
    await update(first, 1);
    await update(second, 2);
    expect(written).toEqual(['1']);
    const cleared = await call<[unknown, P]>((cb) => p.outgoingClearMessageId(client, { messageId: 1 }, cb));
    expect(cleared[1].payload.toString()).toBe('1');
    // the waiting one goes out on its own, with a new packet id
    await new Promise((r) => setTimeout(r, 50));
    expect(onWire).toEqual([{ messageId: 7, payload: '2' }]);
  });
});
