import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { HttpClient } from '../factories/http-client';

/**
 * The tests' HTTP client: a request whose connection is reset before any answer is sent once more
 * only when the client is made to (the policy matrix's clients), never by default (the kill tests
 * count every failed request).
 */
describe('test HTTP client: a reset connection', () => {
  let server: Server;
  let connections = 0;
  let url = '';

  beforeAll(async () => {
    // The first connection of every pair is reset as soon as the request arrives; the next one answers.
    server = createServer((socket) => {
      const n = ++connections;
      socket.once('data', () => {
        if (n % 2 === 1) socket.resetAndDestroy();
        else socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: close\r\n\r\n{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('a client made to resend gets the answer of the second attempt, and counts it', async () => {
    const client = new HttpClient(url, {}, true);
    const res = await client.request('POST', '/x', { body: '{}' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(client.resent).toBe(1);
  });

  it('by default the reset is the caller’s failure', async () => {
    const client = new HttpClient(url);
    await expect(client.request('POST', '/x', { body: '{}' })).rejects.toMatchObject({ cause: { code: 'ECONNRESET' } });
    expect(client.resent).toBe(0);
  });
});
