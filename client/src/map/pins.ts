import type { MapPin } from './types';

type State = MapPin['state'];

/** Worst first, as the server orders them (fleet.schema SYSTEM_STATES). */
export const STATE_ORDER: readonly State[] = ['ALARM', 'OFFLINE', 'UNSTABLE', 'ONLINE', 'UNKNOWN'];

/** Pin colours: alarm red, offline grey, unstable orange, online green, unknown blue-grey. */
export const STATE_COLOURS: Record<State, string> = {
  ALARM: '#d32f2f',
  OFFLINE: '#757575',
  UNSTABLE: '#ed6c02',
  ONLINE: '#2e7d32',
  UNKNOWN: '#546e7a',
};

/** The worse of two states (a cluster shows its worst). */
export function worseState(a: State, b: State): State {
  return STATE_ORDER.indexOf(a) <= STATE_ORDER.indexOf(b) ? a : b;
}

/** The systems list filtered to one site. */
export function siteSystemsPath(site_cuid: string): string {
  return `/system?filter=${encodeURIComponent(JSON.stringify({ site_cuid }))}`;
}
