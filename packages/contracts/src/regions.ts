import { z } from 'zod';
import { pageOf, pageQuery } from './paging.ts';
import { text } from './text.ts';

// back-office-b §3 Region and Health service area, §5, §7 "Regions and service areas", §8 (save and delete errors
// show the server's model-state messages, so these texts are the ones the screens show).
export const regionMessages = {
  nameTaken: 'This health referral region name already exists, please enter a different name.',
  codeTaken: 'This health referral region code already exists, please enter a different code.',
  inUse: (count: number) => `This health referral region has ${count} health service area${count === 1 ? '' : 's'} and cannot be deleted.`,
  saved: 'The health referral region was saved successfully.',
  deleted: 'The health referral region was deleted successfully.',
  invalidFields: 'There are invalid fields on this page.',
} as const;

export const REGION_FIELD_MAX = 255;

export const region = z.object({ id: text(), name: text(), code: text(), modifiedDate: text() });
export type Region = z.infer<typeof region>;
export const regionInput = z.object({
  name: text('Name').trim().min(1).max(REGION_FIELD_MAX),
  code: text('Code').trim().min(1).max(REGION_FIELD_MAX),
});
export type RegionInput = z.input<typeof regionInput>;
export const regionQuery = pageQuery;
export const regionPage = pageOf(region);

// GET /api/healthserviceareas: one row per ZIP code. Search matches code, ZIP code, HSA name and the region's code
// and name (debounce 1000 ms on the screen, §9).
export const healthServiceArea = z.object({
  code: text(),
  zipCode: text(),
  name: text(),
  healthReferralRegionCode: text(),
  healthReferralRegion: text(),
  lastUpdated: text(),
});
export type HealthServiceArea = z.infer<typeof healthServiceArea>;
export const healthServiceAreaQuery = pageQuery;
export const healthServiceAreaPage = pageOf(healthServiceArea);

// POST /api/healthserviceareas/crosswalk (multipart, part "file"): the Dartmouth Atlas ZIP → HSA → HRR crosswalk
// (ZipHsaHrrYY.csv: zipcodeYY, hsanum, hsacity, hsastate, hrrnum, hrrcity, hrrstate). Decisions, not in the spec:
// - the file is the whole map: after an upload the service areas are exactly its rows (one transaction, all or
//   nothing; any invalid row loads nothing and every error names its line);
// - a region is matched by code (hrrnum); one the file names that does not exist is created, named "hrrcity, hrrstate";
//   existing regions keep their names, and none is deleted;
// - an HSA's name is "hsacity, hsastate"; ZIP codes written without leading zeros (as the Atlas files do) are padded.
export const CROSSWALK_MAX_BYTES = 20 * 1024 * 1024;
export const CROSSWALK_MAX_LISTED_ERRORS = 50;
export const CROSSWALK_COLUMNS = ['zipcode', 'hsanum', 'hsacity', 'hsastate', 'hrrnum', 'hrrcity', 'hrrstate'] as const;
export const crosswalkMessages = {
  fileRequired: 'You must select a .CSV file.',
  tooLarge: `The crosswalk file must be at most ${CROSSWALK_MAX_BYTES / 1024 / 1024} MB.`,
  invalid: (count: number) => `The crosswalk file has ${count} error${count === 1 ? '' : 's'}; nothing was loaded.`,
  empty: 'The crosswalk file has no rows.',
  loaded: (areas: number, regionsCreated: number) =>
    `The crosswalk was loaded: ${areas} ZIP code${areas === 1 ? '' : 's'}, ${regionsCreated} new health referral region${regionsCreated === 1 ? '' : 's'}.`,
} as const;
export const crosswalkResult = z.object({ serviceAreas: z.number().int(), regionsCreated: z.number().int(), message: text() });
export type CrosswalkResult = z.infer<typeof crosswalkResult>;

// back-office-b §9: the service areas' search waits 1000 ms (the others 300 ms).
export const SERVICE_AREA_SEARCH_DEBOUNCE_MS = 1000;
