import superjson from 'superjson';
import type { HttpClient } from './http-client';
import { patience } from './patience';

/** Reads a tRPC SSE subscription as a browser's EventSource would, collecting its data events. */
export async function openStream(c: HttpClient, path: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(`${c.baseUrl}/api/trpc/${path}`, {
    headers: { cookie: c.cookieHeader(), accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const events: any[] = [];
  /** When each event arrived (ms since the epoch, sub-millisecond), by index in `events`. */
  const arrivals: number[] = [];
  let buffer = '';
  let ended = false;
  const reader = res.body!.getReader();
  const pump = (async () => {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('\n');
          const event = /^event: *(.*)$/m.exec(block)?.[1];
          if (data && !event) {
            events.push(superjson.deserialize(JSON.parse(data)));
            arrivals.push(performance.timeOrigin + performance.now());
          }
        }
      }
    } catch {
      /* aborted, or the server cut the connection */
    } finally {
      ended = true;
    }
  })();
  const waitFor = async (count: number, ms = 5000) => {
    const until = Date.now() + patience(ms);
    while (events.length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    return events;
  };
  /** True once the server ended the stream (or cut its connection); false if it never did (`patience(ms)`). */
  const endsWithin = async (ms: number) => {
    const until = Date.now() + patience(ms);
    while (!ended && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    return ended;
  };
  return { res, events, arrivals, waitFor, endsWithin, isEnded: () => ended, close: async () => (controller.abort(), await pump) };
}
