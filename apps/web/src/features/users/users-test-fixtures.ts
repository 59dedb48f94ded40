import type { OrgUser } from '@clinicrelay/contracts/users.ts';

// Leo Shore, a User of Lakeside, as GET /api/users lists him; tests change what they need.
export const LEO = '5b7a4c1e-0000-4000-8000-000000000002';
export const orgUserRow = (over: Partial<OrgUser> = {}): OrgUser => ({
  id: LEO,
  userName: 'leo@lakeside.example.org',
  firstName: 'Leo',
  lastName: 'Shore',
  fullName: 'Leo Shore',
  email: 'leo@lakeside.example.org',
  roles: ['User'],
  role: 'User',
  jobFunctionId: 2,
  jobFunction: 'Nurse',
  sendPermissions: 2,
  intakeRules: 1,
  lastSignIn: '2026-11-20T15:00:00Z',
  invitationStatus: 'Accepted',
  enabled: true,
  ...over,
});
