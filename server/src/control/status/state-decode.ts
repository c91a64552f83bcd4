/**
 * The status view's helpers: the decoding of states lives with the entity types (catalogue/state-decode,
 * also used by telemetry.latest); the online-state timeline is the status view's own.
 */
export { decodeBundle, decodeValue, keyInWords, readStateMeta, toScalar, type DecodedState, type StateMeta } from '../../catalogue/state-decode';

export interface HistoryRow {
  controller_id: string;
  timestamp: Date;
  online_state: 'ONLINE' | 'OFFLINE' | 'UNSTABLE';
}

/**
 * A controller's changes (sorted by time; the last one at or before `from` first when there is one)
 * as consecutive segments clipped to [from, to]. Repeated states merge.
 */
export function toSegments(rows: readonly HistoryRow[], from: Date, to: Date): { state: HistoryRow['online_state']; from: Date; to: Date }[] {
  const out: { state: HistoryRow['online_state']; from: Date; to: Date }[] = [];
  for (let i = 0; i < rows.length; i++) {
    const start = Math.max(rows[i].timestamp.getTime(), from.getTime());
    const end = Math.min(i + 1 < rows.length ? rows[i + 1].timestamp.getTime() : to.getTime(), to.getTime());
    if (end <= start) continue;
    const last = out[out.length - 1];
    if (last && last.state === rows[i].online_state && last.to.getTime() === start) last.to = new Date(end);
    else out.push({ state: rows[i].online_state, from: new Date(start), to: new Date(end) });
  }
  return out;
}
