import superjson from 'superjson';

export interface HttpAnswer<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
  setCookies: string[];
}

/**
 * A small HTTP client with a cookie jar, speaking the tRPC wire format by hand (so the tests check
 * the wire, not a client library's idea of it). Bodies are re-parsed in this realm.
 */
export class HttpClient {
  readonly cookies = new Map<string, string>();

  /** Requests sent again after a connection reset before any answer (see `resend`). */
  resent = 0;

  constructor(
    readonly baseUrl: string,
    private readonly defaultHeaders: Record<string, string> = {},
    /**
     * Send a request once more when its connection was reset before any answer came (ECONNRESET),
     * as a browser does on a reused keep-alive connection. Test and server share one process: on a
     * busy machine the server may close an idle kept-alive socket in the same turn that the client
     * picks it for the next request. Off by default (the kill tests count every failed request).
     */
    private readonly resend = false,
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request<T = any>(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<HttpAnswer<T>> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...(init.headers ?? {}) };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    const send = () => fetch(this.baseUrl + path, { method, headers, body: init.body, redirect: 'manual' });
    let res: Response;
    try {
      res = await send();
    } catch (e) {
      if (!this.resend || (e as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw e;
      this.resent++;
      res = await send();
    }
    const text = await res.text();
    const setCookies = res.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, text, body, setCookies };
  }

  json<T = any>(method: string, path: string, payload: unknown, headers: Record<string, string> = {}) {
    return this.request<T>(method, path, {
      body: JSON.stringify(payload),
      headers: { 'content-type': 'application/json', ...headers },
    });
  }

  login(email: string, password = 'demo-password') {
    return this.json('POST', '/api/auth/login', { email, password });
  }

  /** A tRPC query: GET with `input` as superjson JSON in the query string. */
  async query<T = any>(path: string, input?: unknown): Promise<TrpcAnswer<T>> {
    const qs = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`;
    return toTrpc<T>(await this.request('GET', `/api/trpc/${path}${qs}`));
  }

  /** A tRPC mutation: POST with a superjson JSON body. */
  async mutate<T = any>(path: string, input?: unknown): Promise<TrpcAnswer<T>> {
    return toTrpc<T>(
      await this.request('POST', `/api/trpc/${path}`, {
        body: JSON.stringify(superjson.serialize(input)),
        headers: { 'content-type': 'application/json' },
      }),
    );
  }
}

export interface TrpcAnswer<T> extends HttpAnswer {
  data?: T;
  error?: { message: string; code: number; data: { code: string; httpStatus: number; fieldErrors?: { path: string; message: string }[] } };
}

function toTrpc<T>(answer: HttpAnswer): TrpcAnswer<T> {
  const b = answer.body as any;
  if (b && typeof b === 'object' && 'result' in b) {
    return { ...answer, data: superjson.deserialize<T>(b.result.data) };
  }
  if (b && typeof b === 'object' && 'error' in b) {
    return { ...answer, error: superjson.deserialize<TrpcAnswer<T>['error']>(b.error) };
  }
  return answer;
}
