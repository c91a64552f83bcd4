/** What the demo contains: tests, the start-up banner and the demo seed read these. */
export const DEMO_PASSWORD = 'demo-password';
export const DEMO_COMPANY_NAME = 'Demo Solar Ltd';
export const OTHER_COMPANY_NAME = 'Other Energy Co';

export interface DemoUser {
  email: string;
  name: string;
  /** Role level of the user's membership (0 Superuser … 3 Basic). */
  level: 0 | 1 | 2 | 3;
  /** Name of the company the user is a member of. */
  company: string;
  is_company_admin: boolean;
}

export const DEMO_USERS: readonly DemoUser[] = [
  { email: 'superuser@demo.local', name: 'Demo Superuser', level: 0, company: DEMO_COMPANY_NAME, is_company_admin: true },
  { email: 'installer@demo.local', name: 'Demo Installer', level: 1, company: DEMO_COMPANY_NAME, is_company_admin: true },
  { email: 'expert@demo.local', name: 'Demo Expert', level: 2, company: DEMO_COMPANY_NAME, is_company_admin: false },
  { email: 'basic@demo.local', name: 'Demo Basic', level: 3, company: DEMO_COMPANY_NAME, is_company_admin: false },
  { email: 'other@demo.local', name: 'Other Company User', level: 3, company: OTHER_COMPANY_NAME, is_company_admin: false },
];

export const DEMO_SYSTEMS = {
  /** Demo company's system with a controller and four devices. */
  farm: 'Demo Farm Mini-grid',
  /** Demo company's system shared with the other company, which may change it. */
  workshop: 'Demo Workshop Solar',
  /** Other company's system shared (read-only) with the demo company. */
  clinic: 'Shared Clinic Solar',
} as const;

export const DEMO_CONTROLLER_ID = 'demo-ctrl-1';
