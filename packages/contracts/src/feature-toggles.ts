import { z } from 'zod';
import { pageOf, pageQuery } from './paging.ts';
import { text } from './text.ts';

// back-office-b §2 "Feature toggles", §3 Feature, §5. "Feature toggle calls are not shown" (§7); the calls chosen:
//   GET  /api/admin/features?search&pageNumber&pageSize&sortDir  the list ({ items, totalCount }), by name
//   GET  /api/admin/features/{id}                                 one feature
//   POST /api/admin/features                                      a new feature (staged before a release reads it)
//   PUT  /api/admin/features/{id}                                 name, enabled, isOrganizationFeature
// No DELETE: a feature the product reads must not vanish under it, and its organizations' settings would go with it.
export const featureToggleMessages = {
  nameTaken: 'This feature already exists, please enter a different name.',
  // A feature the product reads by name (session.ts featureNames) would stop working under another name.
  builtInName: 'This feature is read by the product under its name and cannot be renamed.',
  saved: 'The feature was saved successfully.',
  invalidFields: 'There are invalid fields on this page.',
} as const;

export const FEATURE_NAME_MIN = 4;
export const FEATURE_NAME_MAX = 150;

const featureName = text('Name')
  .trim()
  .min(1)
  .max(FEATURE_NAME_MAX)
  .refine((v) => v.length === 0 || v.length >= FEATURE_NAME_MIN, `Name must be at least ${FEATURE_NAME_MIN} characters.`);

export const feature = z.object({
  id: text(),
  name: text(),
  enabled: z.boolean(),
  // On: an organization's own setting (the organization's Features section) wins over `enabled` for it.
  isOrganizationFeature: z.boolean(),
  createDate: text(),
  createdBy: text().nullable(),
  modifiedBy: text().nullable(),
  modifiedDate: text(),
});
export type Feature = z.infer<typeof feature>;

export const featureInput = z.object({
  name: featureName,
  enabled: z.boolean().default(false),
  isOrganizationFeature: z.boolean().default(false),
});
export type FeatureInput = z.input<typeof featureInput>;

export const featureQuery = pageQuery;
export const featurePage = pageOf(feature);
