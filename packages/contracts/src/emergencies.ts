import { z } from 'zod';
import { messages } from './errors.ts';
import { isOid, normalizeOid, OID_MAX } from './carequality.ts';
import { pageOf, pageQuery } from './paging.ts';
import { text } from './text.ts';

// back-office-b "Emergencies" (§2, §3 Emergency / Emergency organization, §4, §5, §7, §8, §9; issue 29 §6).

export const emergencyMessages = {
  // §8, word for word.
  disableFailed: 'Error disabling emergency',
  enableFailed: 'Error enabling emergency',
  loadFailed: 'Error loading emergencies.',
  retrieveFailed: 'Error retrieving emergency',
  organizationsLoadFailed: 'Error loading organizations.',
  organizationSearchFailed: 'Error searching for organization',
  noOrganizationsFound: 'No organizations found',
  invalidFields: messages.invalidFields,
  // Not worded in the spec; these follow its other back-office messages.
  invalidDate: 'Please enter a valid date: M/d/yyyy, M/d/yy, MMddyyyy or MMddyy.',
  chooseOrganization: 'Please choose an organization from the list.',
  pendingDisable: 'This emergency will be disabled on its disabled date; it can still be disabled now.',
  saved: 'The emergency was saved successfully.',
  enabled: 'The emergency was enabled.',
  disabled: 'The emergency was disabled.',
  organizationSaved: 'The emergency organization was saved successfully.',
  organizationDeleted: 'The emergency organization was deleted successfully.',
  oidInvalid: 'Please enter a valid OID: numbers separated by dots, such as 2.16.840.1.113883.3.72.',
} as const;

export const EMERGENCY_NAME_MAX = 1000;
export const EMERGENCY_ORGANIZATION_NAME_MAX = 1000;
// §9: the emergency list cuts names at 30 characters (the full name in a tooltip).
export const EMERGENCY_LIST_NAME_CHARS = 30;
// §5: the organization search waits for 2 characters and 300 ms (§9 lists 500 ms for "organization search": that is
// the organizations admin list's search box, not this typeahead).
export const ORGANIZATION_SEARCH_MIN_CHARS = 2;
export const ORGANIZATION_SEARCH_DEBOUNCE_MS = 300;
// Like the routing rules' sender typeahead (§5): at most 20 results.
export const ORGANIZATION_SEARCH_LIMIT = 20;
// Not in the spec: how many organizations one emergency may cover.
export const EMERGENCY_ORGANIZATIONS_MAX = 500;

const pad = (n: string | number) => String(n).padStart(2, '0');

/** Today (UTC) as YYYY-MM-DD: dates are stored in UTC (DESIGN.md "Texts and time"). */
export const utcToday = (now: Date = new Date()) => `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}-${pad(now.getUTCDate())}`;

/**
 * §5: a disabled date typed as M/d/yyyy, M/d/yy, MMddyyyy or MMddyy, as YYYY-MM-DD ('' when blank, null when it is not
 * one of those formats or names no real day). YYYY-MM-DD itself (and an ISO date-time's date) is accepted too: it is how
 * the API answers, so what it sends can be sent back. A two-digit year is 20yy: a disabled date is today or later, never
 * a past century.
 */
export function parseDisabledDate(value: string): string | null {
  const typed = value.trim();
  if (typed === '') return '';
  let iso: string;
  const isoMatch = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(typed);
  if (isoMatch) iso = isoMatch[1]!;
  else {
    const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})$/.exec(typed) ?? /^(\d{2})(\d{2})(\d{4}|\d{2})$/.exec(typed);
    if (!match) return null;
    const [, month, day, year] = match as unknown as [string, string, string, string];
    iso = `${year.length === 2 ? `20${year}` : year}-${pad(month)}-${pad(day)}`;
  }
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : null;
}

/** YYYY-MM-DD → MM/dd/yy, the list's date format (§9 "Dates display as MM/dd/yy"). */
export function formatDisabledDate(iso: string | null | undefined): string {
  const match = /^\d{2}(\d{2})-(\d{2})-(\d{2})/.exec(iso ?? '');
  return match ? `${match[2]}/${match[3]}/${match[1]}` : '';
}

export type EmergencyStatus = 'Active' | 'Pending disable' | 'Disabled';

/**
 * §4: no disabledDate is active; a disabledDate after today is pending disable; the emergency is disabled from its
 * disabledDate on. The spec gives two readings ("day-of-month not after today's" and "disabledDate reached"): this is the
 * second, the date reached (disabledDate <= today, UTC), since comparing days of the month alone would disable an
 * emergency dated the 1st of next year today.
 */
export function emergencyStatus(disabledDate: string | null | undefined, today: string = utcToday()): EmergencyStatus {
  if (!disabledDate) return 'Active';
  return disabledDate.slice(0, 10) > today ? 'Pending disable' : 'Disabled';
}

const oidField = text('OID')
  .trim()
  .min(1)
  .max(OID_MAX)
  .refine((v) => v === '' || v.length > OID_MAX || isOid(v), emergencyMessages.oidInvalid)
  .transform(normalizeOid);

export const emergencyOrganization = z.object({ name: text(), oid: text() });
export type EmergencyOrganization = z.infer<typeof emergencyOrganization>;

// §3 Emergency organization: name and oid required, name max 1000.
export const emergencyOrganizationInput = z.object({
  oid: oidField,
  name: text('Name').trim().min(1).max(EMERGENCY_ORGANIZATION_NAME_MAX),
});
export type EmergencyOrganizationInput = z.input<typeof emergencyOrganizationInput>;

const disabledDateField = z
  .union([text().max(40), z.null()])
  .optional()
  .transform((value, ctx) => {
    if (value === null || value === undefined) return null;
    const iso = parseDisabledDate(value);
    if (iso === null) {
      ctx.addIssue({ code: 'custom', message: emergencyMessages.invalidDate });
      return z.NEVER;
    }
    return iso === '' ? null : iso;
  });

export const emergency = z.object({
  id: text(),
  name: text(),
  organizations: z.array(emergencyOrganization),
  // YYYY-MM-DD, null when none.
  disabledDate: text().nullable(),
  isDisabled: z.boolean(),
});
export type Emergency = z.infer<typeof emergency>;

// POST has no id; PUT sends the id of the emergency it changes (catalog: "emergency (id, name, disabledDate, organizations)").
export const emergencyInput = z.object({
  name: text('Name').trim().min(1).max(EMERGENCY_NAME_MAX),
  disabledDate: disabledDateField,
  organizations: z.array(emergencyOrganizationInput).max(EMERGENCY_ORGANIZATIONS_MAX).default([]),
});
export type EmergencyInput = z.input<typeof emergencyInput>;
export const emergencyUpdate = emergencyInput.extend({ id: text().uuid() });
export type EmergencyUpdate = z.input<typeof emergencyUpdate>;

export const emergencyQuery = pageQuery;
export const emergencyPage = pageOf(emergency);
export const emergencyParams = z.object({ id: text().uuid() });

// The separate (Carequality-type) service.
export const emergencyOrganizationQuery = pageQuery;
export const emergencyOrganizationPage = pageOf(emergencyOrganization);
export const emergencyOrganizationParams = z.object({ oid: text().trim().min(1).max(OID_MAX).transform(normalizeOid) });
// POST /api/organization/admin/_search with {orgId}: orgId is what was typed, a name or an OID.
export const organizationSearchBody = z.object({ orgId: text('Search').trim().min(ORGANIZATION_SEARCH_MIN_CHARS).max(200) });
export const organizationSearchResult = z.array(emergencyOrganization);

// Where the web app finds the separate service (EMERGENCY_SERVICE_URL).
export const emergencyServiceSettings = z.object({ baseUrl: text() });
