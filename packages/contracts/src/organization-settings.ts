import { z } from 'zod';
import { text } from './text.ts';

// Interoperability settings (end-user §3): the spec names the fields but not their values; these are ours.
export const exportModes = ['Print', 'Export'] as const;
export const exportOptions = ['PatientFolder', 'SingleFolder'] as const;
export type ExportMode = (typeof exportModes)[number];
export type ExportOption = (typeof exportOptions)[number];

// Not shown in the spec as a call: the settings of the signed-in user's organization that Release and
// Intake need (end-user §3 interoperability settings; §9 fax suppress settings, which give the fax
// options their defaults; the brand, which names a non-PHI fax's origin).
// GET /api/organizationsettings. The back office edits them.
export const organizationSettings = z.object({
  brandName: text(),
  suppressCoverPage: z.boolean(),
  suppressMessageBody: z.boolean(),
  suppressAttachmentDescriptions: z.boolean(),
  deliverySummaryEnableDownload: z.boolean(),
  // Print: Intake only prints, so its patient and attachment fields are read-only (end-user §4 "Page strategies").
  exportMode: z.enum(exportModes),
  exportOption: z.enum(exportOptions).nullable(),
  exportDirectoryType: text().max(100).nullable(),
  // With exportOption PatientFolder, a folder per visit: Intake's visit fields are editable only then.
  exportVisitDirectory: z.boolean(),
  nonPatientExport: z.boolean(),
});
export type OrganizationSettings = z.infer<typeof organizationSettings>;

/** end-user §4 "Page strategies", Intake: patient and attachment fields are disabled in print export mode. */
export const isPrintExportMode = (s: Pick<OrganizationSettings, 'exportMode'>) => s.exportMode === 'Print';
/** Visit fields are enabled only for a patient-folder export with a visit directory. */
export const visitFieldsEnabled = (s: Pick<OrganizationSettings, 'exportOption' | 'exportVisitDirectory'>) =>
  s.exportOption === 'PatientFolder' && s.exportVisitDirectory;
