import { sql } from 'drizzle-orm';
import { EXPIRING_SOON_DAYS, type licenseFields } from '@clinicrelay/contracts/licenses.ts';
import type { ODataEntitySet } from '../../platform/odata.ts';

// GET /api/adminlicenses (back-office-b §7 "OData style"): the issued keys with their type and organization. The key
// itself is not here (only its hash is stored): LicenseKey is its visible first group.
export const licensesFrom = sql`licenses l
  join license_types t on t.id = l.license_type_id
  join organizations o on o.id = l.organization_id`;

const DAY_MS = 86_400_000;

// Built per request: ExpiringSoon compares with the server's clock (the test clock in tests), not the database's.
export function licenseEntitySet(now: Date): ODataEntitySet<(typeof licenseFields)[number]> {
  const soon = new Date(now.getTime() + EXPIRING_SOON_DAYS * DAY_MS);
  return {
    name: 'adminlicenses',
    key: 'Id',
    defaultOrderBy: [{ property: 'IssuedDate', descending: true }],
    properties: {
      Id: { sql: sql`l.id`, type: 'guid' },
      LicenseKey: { sql: sql`(l.key_prefix || '-…')`, type: 'string' },
      LicenseType: { sql: sql`t.name`, type: 'string' },
      Organization: { sql: sql`o.name`, type: 'string' },
      OrganizationId: { sql: sql`l.organization_id`, type: 'guid' },
      ConnectorId: { sql: sql`l.connector_id`, type: 'string' },
      ConnectorName: { sql: sql`l.connector_name`, type: 'string' },
      IssuedDate: { sql: sql`l.issued_at`, type: 'datetime' },
      ExpirationDate: { sql: sql`l.expires_at`, type: 'datetime' },
      Reference: { sql: sql`l.reference`, type: 'string' },
      // §9 "expiring within 60 days": not yet expired, and expiring at most 60 days from now.
      ExpiringSoon: { sql: sql`(l.expires_at > ${now.toISOString()}::timestamptz and l.expires_at <= ${soon.toISOString()}::timestamptz)`, type: 'boolean' },
    },
  };
}
