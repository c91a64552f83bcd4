import { splitOnFailure } from '../database/split-on-failure';

export interface RevocationState {
  inactive: boolean;
  session_epoch: number;
  revoked: boolean;
}

export interface RevocationKey {
  user_cuid: string;
  sid: string;
}

type Lookup = (keys: RevocationKey[]) => Promise<Map<string, RevocationState>>;

/**
 * Looks up the revocation state of sessions in batches without delaying any of them: a check
 * that finds a free slot is sent at once; checks arriving while the slots are busy wait for the
 * next free slot and then go together in one query. Every check still reads the database after
 * its request arrived, so a logout or deactivation is seen by the very next request.
 */
export class RevocationBatcher {
  private queue: { key: RevocationKey; resolve: (s: RevocationState | undefined) => void; reject: (e: unknown) => void }[] = [];
  private inFlight = 0;

  constructor(
    private readonly lookup: Lookup,
    private readonly maxInFlight = 2,
    private readonly maxBatch = 256,
  ) {}

  static keyOf(k: RevocationKey): string {
    return `${k.user_cuid}\u0000${k.sid}`;
  }

  check(key: RevocationKey): Promise<RevocationState | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ key, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      // A lookup refused for one key is split (splitOnFailure): only that request fails, the others get their state.
      splitOnFailure(batch, async (part) => {
        const found = await this.lookup(part.map((b) => b.key));
        return part.map((b) => found.get(RevocationBatcher.keyOf(b.key)));
      })
        .then((results) =>
          batch.forEach((b, i) => {
            const r = results[i];
            if (r.ok) b.resolve(r.value);
            else b.reject(r.error);
          }),
        )
        .catch((e: unknown) => batch.forEach((b) => b.reject(e)))
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }
}
