import { z } from 'zod';

// Not shown in the spec as a call: the settings of the signed-in user's organization that Release
// needs (end-user §3 interoperability setting deliverySummaryEnableDownload; §9 fax suppress settings,
// which give the fax options their defaults; the brand, which names a non-PHI fax's origin).
// GET /api/organizationsettings. The back office edits them.
export const organizationSettings = z.object({
  brandName: z.string(),
  suppressCoverPage: z.boolean(),
  suppressMessageBody: z.boolean(),
  suppressAttachmentDescriptions: z.boolean(),
  deliverySummaryEnableDownload: z.boolean(),
});
export type OrganizationSettings = z.infer<typeof organizationSettings>;
