import { DEFAULT_BRAND_NAME } from '@clinicrelay/contracts/messages.ts';
import type { OrganizationSettings } from '@clinicrelay/contracts/organization-settings.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import type { OrganizationSettingsColumn } from '../../db/schema/organizations.ts';
import { notFound } from '../../platform/errors.ts';
import * as q from './queries.ts';

export interface OrganizationSettingsDeps {
  db: Database;
}

// A flag the back office never set is off.
export function settingsOf(column: OrganizationSettingsColumn | null | undefined): OrganizationSettings {
  const s = column ?? {};
  return {
    // Brands arrive with the back office; until then every organization carries the product's name.
    brandName: DEFAULT_BRAND_NAME,
    suppressCoverPage: s.suppressCoverPage === true,
    suppressMessageBody: s.suppressMessageBody === true,
    suppressAttachmentDescriptions: s.suppressAttachmentDescriptions === true,
    deliverySummaryEnableDownload: s.deliverySummaryEnableDownload === true,
    // An organization that never chose exports (rather than only prints), with no folder option.
    exportMode: s.exportMode === 'Print' ? 'Print' : 'Export',
    exportOption: s.exportOption ?? null,
    exportDirectoryType: s.exportDirectoryType ?? null,
    exportVisitDirectory: s.exportVisitDirectory === true,
    nonPatientExport: s.nonPatientExport === true,
  };
}

// The organization's name and settings, for other areas (delivery summary) that depend on them.
export async function organizationWithSettings(db: DbOrTx, organizationId: string) {
  const row = await q.findById(db, organizationId);
  if (!row) throw notFound();
  return { id: row.id, name: row.name, settings: settingsOf(row.settings) };
}

// GET /api/organizationsettings.
export async function getSettings(deps: OrganizationSettingsDeps, organizationId: string): Promise<OrganizationSettings> {
  return (await organizationWithSettings(deps.db, organizationId)).settings;
}
