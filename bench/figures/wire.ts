import type { BrowserContext, CDPSession, Page } from 'playwright-core';

/**
 * What crossed the wire for a page, read from Chromium through the DevTools protocol: each
 * finished request's encodedDataLength (headers and body as received, compressed when the server
 * compressed). Shared by the front-end figures and the network figures.
 */
export interface WireRequest {
  url: string;
  type: string;
  status: number;
  /** Bytes received: headers plus the (compressed) body. */
  transferred: number;
  /** The body's size once decoded. */
  decoded: number;
  encoding: string;
  fromCache: boolean;
}

export interface WireTap {
  cdp: CDPSession;
  /** Every request finished since the tap (or the last reset). */
  requests(): WireRequest[];
  reset(): void;
  /** Sends the protocol's network emulation (throughput in bytes per second, latency in ms). */
  throttle(conditions: { downloadBytesPerSecond: number; uploadBytesPerSecond: number; latencyMs: number } | null): Promise<void>;
}

export async function tapWire(context: BrowserContext, page: Page): Promise<WireTap> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const pending = new Map<string, Omit<WireRequest, 'transferred'>>();
  let done: WireRequest[] = [];
  const servedFromCache = new Set<string>();
  cdp.on('Network.requestServedFromCache', (e) => servedFromCache.add(e.requestId));
  cdp.on('Network.responseReceived', (e) => {
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    pending.set(e.requestId, {
      url: e.response.url,
      type: e.type ?? 'Other',
      status: e.response.status,
      decoded: 0,
      encoding: headers['content-encoding'] ?? 'identity',
      fromCache: Boolean(e.response.fromDiskCache || e.response.fromPrefetchCache || servedFromCache.has(e.requestId)),
    });
  });
  cdp.on('Network.dataReceived', (e) => {
    const r = pending.get(e.requestId);
    if (r) r.decoded += e.dataLength;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = pending.get(e.requestId);
    if (!r) return;
    pending.delete(e.requestId);
    done.push({ ...r, transferred: e.encodedDataLength });
  });
  return {
    cdp,
    requests: () => [...done],
    reset: () => {
      done = [];
    },
    throttle: async (c) => {
      await cdp.send(
        'Network.emulateNetworkConditions',
        c === null
          ? { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }
          : { offline: false, latency: c.latencyMs, downloadThroughput: c.downloadBytesPerSecond, uploadThroughput: c.uploadBytesPerSecond },
      );
    },
  };
}

export const sumOf = (requests: WireRequest[], key: 'transferred' | 'decoded') => requests.reduce((t, r) => t + r[key], 0);
export const kb = (bytes: number) => Number((bytes / 1024).toFixed(1));
