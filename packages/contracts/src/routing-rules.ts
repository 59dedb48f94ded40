import { z } from 'zod';
import { messages } from './errors.ts';
import { pageOf, sortDir } from './paging.ts';
import { text } from './text.ts';

// back-office-b §2-§9 "Routing rules" and issue 29 §3: a routing rule for a Direct address decides how mail for that
// address leaves the platform (over Direct as usual, as a C-CDA over Direct, or as HL7 v2 over MLLP to its endpoints),
// for the sending organizations it lists.

export const ROUTING_TEXT_MAX = 255;
// §5: "port max 5 characters".
export const ROUTING_PORT_MAX_LENGTH = 5;
export const ROUTING_URL_MAX = 2048;
// §3: "Step types are numbered 0-12 (names not shown)".
export const ROUTING_STEP_TYPE_MIN = 0;
export const ROUTING_STEP_TYPE_MAX = 12;
export const routingSecurityTypes = ['Certificate', 'SAML'] as const;
export const routingConvertFormats = ['CDA', 'MDM', 'ORU'] as const;
export const routingLocationCodes = ['rrh', 'smh'] as const;
// §9: "routing rule address shows the first 17 characters".
export const ROUTING_ADDRESS_SHOWN = 17;
// §5: the sender's organization typeahead (min 2 characters, 300 ms, at most 20 results).
export const ROUTING_ORGANIZATION_SEARCH_MIN = 2;
export const ROUTING_ORGANIZATION_SEARCH_LIMIT = 20;

export const routingRuleMessages = {
  // §8: save and delete errors show the server's model-state messages; these are those messages (wording not shown).
  addressTaken: 'A routing rule for this address already exists.',
  stepTypeRequired: 'Step type is required.',
  securityTypeRequired: 'Security type is required.',
  portInvalid: 'Port must be a number from 1 to 65535.',
  hostInvalid: 'IP address must be an IP address or a host name.',
  ruleNotFound: 'The routing rule was not found.',
  endpointNotFound: 'The endpoint was not found.',
  senderNotFound: 'The sending organization was not found.',
  organizationRequired: 'Choose an organization from the list.',
  organizationUnknown: 'The organization was not found.',
  senderTaken: 'This organization already sends with this routing rule.',
  // Toasts (§8: "Each save or delete has a success message (wording not shown)").
  saved: 'The routing rule was saved.',
  deleted: 'The routing rule was deleted.',
  endpointSaved: 'The endpoint was saved.',
  endpointDeleted: 'The endpoint was deleted.',
  senderSaved: 'The sending organization was saved.',
  senderDeleted: 'The sending organization was deleted.',
  invalidFields: messages.invalidFields,
  none: 'None',
  noItems: (entityName: string) => `This routing rule has no ${entityName}s yet.`,
  endpointsHint: 'Documents for this address are sent as HL7 v2 over MLLP to the first endpoint that answers (MDM and ORU rules).',
  sendersHint: 'Only the organizations listed here are routed by this rule; with none listed, every organization is.',
  noOrganizations: 'No organizations found',
} as const;

const optionalText = (label: string, max = ROUTING_TEXT_MAX) =>
  text(label)
    .trim()
    .max(max)
    .nullish()
    .transform((v) => v || null);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const emptyAsNull = (value: unknown) => (value === '' ? null : value);

// An IPv4 or IPv6 address or a DNS host name (§3 "IP or hostname").
const HOST = /^(?:\[?[0-9A-Fa-f:.]+\]?|(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)$/;

// The rule's fields as the create/update modal sends them (POST /api/admin/routingrules[/{id}], PUT /{id}).
export const routingRuleInput = z.object({
  address: text('Address').trim().min(1).max(ROUTING_TEXT_MAX),
  stepType: z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v) : v),
    z
      .number({ error: routingRuleMessages.stepTypeRequired })
      .int(routingRuleMessages.stepTypeRequired)
      .min(ROUTING_STEP_TYPE_MIN, routingRuleMessages.stepTypeRequired)
      .max(ROUTING_STEP_TYPE_MAX, routingRuleMessages.stepTypeRequired),
  ),
  securityType: z.preprocess(emptyAsNull, z.enum(routingSecurityTypes, { error: routingRuleMessages.securityTypeRequired })),
  // Empty: the installation's default certificate (§3 "default if empty").
  customCertificateName: optionalText('Custom certificate name'),
  // Empty: no conversion; mail keeps going over Direct as it is.
  convertToFormat: z.preprocess(emptyAsNull, z.enum(routingConvertFormats).nullish().transform((v) => v ?? null)),
  locationCode: z.preprocess(emptyAsNull, z.enum(routingLocationCodes).nullish().transform((v) => v ?? null)),
  facilityOid: optionalText('Facility OID'),
  keyHieAddress: optionalText('Key HIE address'),
  displayUrl: optionalText('Display URL', ROUTING_URL_MAX),
});
export type RoutingRuleInput = z.input<typeof routingRuleInput>;

// The endpoint modal (POST/PUT /api/admin/routingrules/endpoints): the body names its rule (routingRuleId) and, for
// PUT, itself (id); DELETE takes ?id= (the catalog does not show where the ids go).
export const routingEndpointFields = z.object({
  // One message a field: a later check is not said while an earlier one fails.
  ipAddress: text('IP address').trim().min(1, { abort: true }).max(ROUTING_TEXT_MAX, { abort: true }).regex(HOST, routingRuleMessages.hostInvalid),
  port: z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    text('Port')
      .trim()
      .min(1, { abort: true })
      .max(ROUTING_PORT_MAX_LENGTH, { abort: true })
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 65535, routingRuleMessages.portInvalid)
      .transform(Number),
  ),
  oid: optionalText('OID'),
});
export const routingEndpointCreate = routingEndpointFields.extend({ routingRuleId: text('Routing rule').uuid() });
export const routingEndpointUpdate = routingEndpointCreate.extend({ id: text('Endpoint').uuid() });

// The sender modal (POST/PUT /api/admin/routingrules/senders), placed like the endpoint's.
export const routingSenderFields = z.object({
  // Chosen from the typeahead: an organization's id, never typed text.
  organizationId: z.preprocess((v) => v ?? '', text().refine((v) => UUID.test(v), routingRuleMessages.organizationRequired)),
  organizationOid: text('Organization OID').trim().min(1).max(ROUTING_TEXT_MAX),
  facilityType: optionalText('Facility type'),
  facilityTypeCodeId: optionalText('Facility type code'),
  facilityTypeCodeScheme: optionalText('Facility type code scheme'),
});
export const routingSenderCreate = routingSenderFields.extend({ routingRuleId: text('Routing rule').uuid() });
export const routingSenderUpdate = routingSenderCreate.extend({ id: text('Sender').uuid() });
export const routingChildId = z.object({ id: text().uuid() });

export const routingEndpoint = z.object({ id: text(), routingRuleId: text(), ipAddress: text(), port: z.number().int(), oid: text().nullable() });
export type RoutingEndpoint = z.infer<typeof routingEndpoint>;
export const routingSender = z.object({
  id: text(),
  organizationId: text(),
  routingRuleId: text(),
  organizationName: text(),
  organizationOid: text(),
  facilityType: text().nullable(),
  facilityTypeCodeId: text().nullable(),
  facilityTypeCodeScheme: text().nullable(),
});
export type RoutingSender = z.infer<typeof routingSender>;

export const routingRule = z.object({
  id: text(),
  address: text(),
  stepType: z.number().int(),
  securityType: z.enum(routingSecurityTypes),
  customCertificateName: text().nullable(),
  convertToFormat: z.enum(routingConvertFormats).nullable(),
  locationCode: z.enum(routingLocationCodes).nullable(),
  facilityOid: text().nullable(),
  keyHieAddress: text().nullable(),
  displayUrl: text().nullable(),
  endpoints: z.array(routingEndpoint),
  senders: z.array(routingSender),
});
export type RoutingRule = z.infer<typeof routingRule>;

export const routingRuleSortColumns = ['address', 'stepType', 'convertToFormat'] as const;
export const routingRuleQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  // §2: search by address.
  search: text().trim().max(ROUTING_TEXT_MAX).optional(),
  sortDir: sortDir.optional(),
  col: z.enum(routingRuleSortColumns).optional(),
});
export const routingRulePage = pageOf(routingRule);

// The web's short forms (§2 "keyHieAddress (short display form with tooltip)", §9 address's first 17 characters).
export const shortAddress = (address: string, max = ROUTING_ADDRESS_SHOWN) => (address.length > max ? `${address.slice(0, max)}…` : address);
// An HIE address is shown by its local part (before '@'), or its first characters.
export const shortHieAddress = (address: string) => shortAddress(address.includes('@') ? address.slice(0, address.indexOf('@')) : address);
