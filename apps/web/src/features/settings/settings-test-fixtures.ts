import { demoProfile } from '../../app/app-test-harness.tsx';

export const ORG_ID = '0b9d6c1e-2a3f-4d5e-8f70-1a2b3c4d5e6f';
export const adminProfile = () =>
  demoProfile({ roles: ['Administrator'], organizationId: ORG_ID, organizations: [{ id: ORG_ID, subDomain: 'lakeside', name: 'Lakeside Clinic' }] });

export const sourcesPath = (pageSize: number) => `/api/admin/documentsources?${new URLSearchParams({ organizationId: ORG_ID, pageNumber: '1', pageSize: String(pageSize), sortDir: 'asc' }).toString()}`;

export const source = (id: string, fullAddress: string, extra: Record<string, unknown> = {}) => ({
  id,
  organizationId: ORG_ID,
  organizationName: 'Lakeside Clinic',
  type: /@/.test(fullAddress) ? 'DirectMessaging' : 'Fax',
  fullAddress,
  status: 1,
  statusName: 'Activated',
  createdDate: '2026-11-02T15:00:00Z',
  isGlobal: false,
  senders: [],
  ...extra,
});

export const FAX = source('5f0e1d2c-3b4a-4596-8877-665544332211', '5035550101', { senders: [{ userId: 'u-2', fullName: 'Morgan Multi' }] });
export const DIRECT = source('6a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d', 'intake@lakeside.direct.example.org', { senders: [{ userId: 'u-3', fullName: 'Leo Shore' }] });
