/**
 * What the home page shows by the caller's best role level (0 Superuser … 3 Basic), issue 13 "Home by
 * role": Basic their systems and energy; Expert + status (counts, attention); Installer + alarms and
 * commands; Superuser the whole fleet. The map comes with the overview's pins (the server sends them
 * to the levels that may see sites).
 */
export interface HomeSections {
  mySystems: boolean;
  status: boolean;
  alarms: boolean;
  commands: boolean;
}

export function homeSections(level: number): HomeSections {
  return {
    mySystems: level >= 2,
    status: level <= 2,
    alarms: level <= 1,
    commands: level <= 1,
  };
}

/** The systems list with a filter (react-admin reads `filter` from the address). */
export function stateFilterPath(filter: Record<string, unknown>): string {
  return `/system?filter=${encodeURIComponent(JSON.stringify(filter))}`;
}

/** A system's monitoring page. */
export function systemPath(system_cuid: string): string {
  return `/systems/${encodeURIComponent(system_cuid)}`;
}
