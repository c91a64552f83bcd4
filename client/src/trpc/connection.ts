/**
 * Whether the portal's server can be reached, as the browser app sees it (docs/client-network.md):
 * unreachable when a request got no answer at all (fetch rejected) or the browser went offline;
 * reachable again only when the server answers something (any HTTP status). The shell's offline
 * banner, react-query's onlineManager and the tRPC link that holds queries during a drop read it.
 */
export interface ConnectionState {
  reachable: boolean;
  /** When it was lost (ms), null while reachable. */
  lostAt: number | null;
  /** When the server last answered (ms), null before any answer. */
  lastAnswerAt: number | null;
}

type Listener = (state: ConnectionState) => void;

export class Connection {
  private state: ConnectionState = { reachable: true, lostAt: null, lastAnswerAt: null };
  private readonly listeners = new Set<Listener>();
  private waiters: (() => void)[] = [];
  /** This page's writes (POST) still out, how many ever left, and who waits for none to be out. */
  private writes = 0;
  private writesStarted = 0;
  private writesWaiters: (() => void)[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  getState = (): ConnectionState => this.state;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The server answered (any status): reachable, and every held request goes again. */
  markAnswered(): void {
    const at = this.now();
    if (this.state.reachable) {
      this.state = { ...this.state, lastAnswerAt: at };
      return;
    }
    this.set({ reachable: true, lostAt: null, lastAnswerAt: at });
    this.waiters.splice(0).forEach((w) => w());
  }

  /** A request got no answer, or the browser says it is offline. */
  markUnreachable(): void {
    if (!this.state.reachable) return;
    this.set({ reachable: false, lostAt: this.now() });
  }

  /** Resolves at once when reachable, else at the next answer; rejects when `signal` aborts. */
  whenReachable(signal?: AbortSignal): Promise<void> {
    if (this.state.reachable) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(signal?.reason ?? new Error('aborted'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** A write left (its answer may re-issue the session cookie: a password change, one's own memberships). */
  writeStarted(): void {
    this.writes++;
    this.writesStarted++;
  }

  /** A write answered or failed; its cookie, if any, is in the browser's jar by now. */
  writeEnded(): void {
    this.writes = Math.max(0, this.writes - 1);
    if (this.writes === 0) this.writesWaiters.splice(0).forEach((w) => w());
  }

  /** Where the page's writes stand now, for `writesSettled` (taken when a request leaves). */
  writesMark(): number {
    return this.writes > 0 ? -1 : this.writesStarted;
  }

  /**
   * Waits until none of this page's writes is out, then answers whether one was out at some moment
   * since `mark` was taken: a request sent then may carry a cookie that the write's answer replaced.
   */
  async writesSettled(mark: number): Promise<boolean> {
    const overlapped = mark === -1 || this.writes > 0 || this.writesStarted !== mark;
    if (this.writes > 0) await new Promise<void>((resolve) => this.writesWaiters.push(resolve));
    return overlapped;
  }

  /** Follows the browser's offline event (its online event waits for a real answer). */
  watchBrowser(target: Pick<Window, 'addEventListener' | 'removeEventListener'> & { navigator?: { onLine?: boolean } } = window): () => void {
    const offline = () => this.markUnreachable();
    if (target.navigator?.onLine === false) offline();
    target.addEventListener('offline', offline);
    return () => target.removeEventListener('offline', offline);
  }

  private set(patch: Partial<ConnectionState>): void {
    this.state = { ...this.state, ...patch };
    this.listeners.forEach((l) => l(this.state));
  }
}

/** The one connection of this page. */
export const connection = new Connection();
