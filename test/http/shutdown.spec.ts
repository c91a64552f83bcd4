import { startTestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

describe('shutdown', () => {
  it('closes, and ends the stream, even while a browser holds a live-event stream open', async () => {
    const t = await startTestApp();
    try {
      const c = new HttpClient(t.baseUrl);
      expect((await c.login('basic@demo.local')).status).toBe(200);
      const stream = await fetch(`${t.baseUrl}/api/trpc/portalNotification.onEvent`, {
        headers: { cookie: c.cookieHeader(), accept: 'text/event-stream' },
      });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      // Drain the stream until the server ends it (keep-alives and the first event may come first).
      const ended = (async () => {
        try {
          for (;;) if ((await reader.read()).done) return 'ended';
        } catch {
          return 'ended';
        }
      })();
      // The close finishes (a hang fails the test at its time-out) and ends the open stream: an
      // order, not a time (the drain time is SHUTDOWN_DRAIN_SECONDS, 0 in tests).
      await t.app.close();
      expect(await ended).toBe('ended');
    } finally {
      await t.db.close();
    }
  });
});
