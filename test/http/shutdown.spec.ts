import { startTestApp } from '../factories/app';
import { HttpClient } from '../factories/http-client';

describe('shutdown', () => {
  it('closes within seconds even while a browser holds a live-event stream open', async () => {
    const t = await startTestApp();
    try {
      const c = new HttpClient(t.baseUrl);
      expect((await c.login('basic@demo.local')).status).toBe(200);
      const stream = await fetch(`${t.baseUrl}/api/trpc/portalNotification.onEvent`, {
        headers: { cookie: c.cookieHeader(), accept: 'text/event-stream' },
      });
      expect(stream.status).toBe(200);
      const reading = stream.body!.getReader().read().catch(() => undefined);
      const started = Date.now();
      const closed = await Promise.race([
        t.app.close().then(() => 'closed'),
        new Promise((resolve) => setTimeout(() => resolve('still open'), 5000)),
      ]);
      expect(closed).toBe('closed');
      expect(Date.now() - started).toBeLessThan(5000);
      await reading;
    } finally {
      await t.db.close();
    }
  });
});
