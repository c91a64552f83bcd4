/** Spec §6: role colours by level (0 Superuser red, 1 SystemInstaller orange, 2 Expert blue, 3 Basic green). */
export const ROLE_LEVEL_COLOURS: Record<number, string> = {
  0: '#c62828',
  1: '#ef6c00',
  2: '#1565c0',
  3: '#2e7d32',
};

export const roleColour = (level: number): string => ROLE_LEVEL_COLOURS[level] ?? '#616161';

/** Text on a role colour with a contrast of at least 4.5:1 (black on the orange, white on the others). */
export const roleTextColour = (level: number): string => (level === 1 ? '#000000' : '#ffffff');
