/**
 * How long a test waits for something that must happen (a row, an event on a stream, a mail)
 * before it gives up. A wait guards against a hang; it never measures speed (durations are
 * `npm run bench` figures), so on a busy 2-core laptop every wait gets at least a minute, whatever
 * its caller asked. Waits that check something does NOT happen sleep instead and are not patient.
 */
export const PATIENCE_FLOOR_MS = 60_000;

export function patience(ms: number): number {
  return Math.max(ms, PATIENCE_FLOOR_MS);
}
