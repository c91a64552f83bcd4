/** A heartbeat that keeps a lease while its holder works. */
export interface Heartbeat {
  /** No more beats; resolves once a beat in flight (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * Calls `beat` every `everyMs` until stopped, never two at once (a slow beat delays the next one,
 * it does not pile them up). A failed beat goes to `onError`; the next one tries again: a holder
 * loses its lease only when no beat got through for a whole lease.
 */
export function startHeartbeat(beat: () => Promise<unknown>, everyMs: number, onError: (e: unknown) => void): Heartbeat {
  let inFlight: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (inFlight) return;
    inFlight = beat()
      .then(() => undefined, onError)
      .finally(() => {
        inFlight = undefined;
      });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}

/** How often a holder renews a lease of `leaseSeconds`: three times per lease (at least every 200 ms apart). */
export const heartbeatEveryMs = (leaseSeconds: number): number => Math.max(200, Math.floor((leaseSeconds * 1000) / 3));
