import { intakeMessages, type intakeRuleCreate, type intakeRuleView, type userDocumentSources, type userIntakeRules } from '@clinicrelay/contracts/intake.ts';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { writeAudit } from '../../platform/audit.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { ruleValues, toRuleView } from '../intake/rules.ts';
import * as q from './queries.ts';

export interface UsersDeps {
  db: Database;
  now: () => Date;
}

export type Caller = OrgCaller;

type RuleView = z.infer<typeof intakeRuleView>;

const isAdministrator = (caller: Caller) => caller.session.roles.includes('Administrator');


// A member of the caller's organization: Administrators reach any member, a User only themself
// (another user answers 404, so it is not revealed who is a member).
async function memberOf(deps: UsersDeps, caller: Caller, userId: string) {
  if (!isAdministrator(caller) && userId !== caller.session.userId) throw notFound();
  if (!(await q.findMembership(deps.db, caller.organizationId, userId))) throw notFound();
}

// Assignments name an organization: only the caller's current one may be changed.
function checkOrganization(caller: Caller, entries: { organizationId: string }[]) {
  if (entries.some((e) => e.organizationId !== caller.organizationId)) {
    throw badRequest(intakeMessages.assignmentOrganization, { organizationId: [intakeMessages.assignmentOrganization] });
  }
}

const audit = (deps: UsersDeps, caller: Caller, eventType: string, correlationId: string, details: Record<string, unknown>) =>
  writeAudit(
    deps.db,
    { eventType, userId: caller.session.userId, userName: caller.session.userName, organizationId: caller.organizationId, ip: caller.ip ?? null, correlationId, details },
    deps.now(),
  );

// The ids given, once each, when every one is the organization's; otherwise the request is refused.
export async function knownDocumentSources(deps: UsersDeps, caller: Caller, given: string[]) {
  const ids = [...new Set(given)];
  const known = new Set(await q.findDocumentSourceIds(deps.db, caller.organizationId, ids));
  if (ids.some((id) => !known.has(id))) {
    throw badRequest(intakeMessages.documentSourceNotInOrganization, { documentSourceId: [intakeMessages.documentSourceNotInOrganization] });
  }
  return ids;
}

export async function knownRules(deps: UsersDeps, caller: Caller, given: string[]) {
  const ids = [...new Set(given)];
  const known = new Set((await q.findRules(deps.db, caller.organizationId, ids)).map((r) => r.id));
  if (ids.some((id) => !known.has(id))) {
    throw badRequest(intakeMessages.intakeRuleNotInOrganization, { intakeRuleId: [intakeMessages.intakeRuleNotInOrganization] });
  }
  return ids;
}

// GET /api/users/{id}/documentsources: the user's addresses in the current organization.
export async function documentSourcesOf(deps: UsersDeps, caller: Caller, userId: string) {
  await memberOf(deps, caller, userId);
  return q.findUserDocumentSources(deps.db, caller.organizationId, userId);
}

// PUT /api/users/{id}/documentsources: replaces the user's addresses in the current organization.
export async function saveDocumentSources(deps: UsersDeps, caller: Caller, userId: string, body: z.infer<typeof userDocumentSources>) {
  await memberOf(deps, caller, userId);
  checkOrganization(caller, body);
  const ids = await knownDocumentSources(deps, caller, body.map((e) => e.documentSourceId));
  await deps.db.transaction((tx) => q.replaceUserDocumentSources(tx, caller.organizationId, userId, ids));
  await audit(deps, caller, 'UserDocumentSourcesChanged', userId, { documentSources: ids.length });
  return q.findUserDocumentSources(deps.db, caller.organizationId, userId);
}

// GET /api/users/{id}/rules: the user's intake rules in the current organization.
export async function rulesOf(deps: UsersDeps, caller: Caller, userId: string): Promise<RuleView[]> {
  await memberOf(deps, caller, userId);
  return (await q.findUserRules(deps.db, caller.organizationId, userId)).map(toRuleView);
}

// PUT /api/users/{id}/intakerules: replaces the user's rules in the current organization.
export async function saveRules(deps: UsersDeps, caller: Caller, userId: string, body: z.infer<typeof userIntakeRules>) {
  await memberOf(deps, caller, userId);
  checkOrganization(caller, body);
  const ids = await knownRules(deps, caller, body.map((e) => e.intakeRuleId));
  await deps.db.transaction((tx) => q.replaceUserRules(tx, caller.organizationId, userId, ids));
  await audit(deps, caller, 'UserIntakeRulesChanged', userId, { intakeRules: ids.length });
  return (await q.findUserRules(deps.db, caller.organizationId, userId)).map((r) => ({ organizationId: r.organizationId, intakeRuleId: r.id }));
}

// GET /api/intakerules.
export async function organizationRules(deps: UsersDeps, caller: Caller): Promise<RuleView[]> {
  return (await q.findRules(deps.db, caller.organizationId)).map(toRuleView);
}

// POST /api/intakerules: addresses are stored as messages carry them (Direct lower-case, fax digits).
export async function createRule(deps: UsersDeps, caller: Caller, body: z.infer<typeof intakeRuleCreate>): Promise<RuleView> {
  const row = await q.insertRule(deps.db, { organizationId: caller.organizationId, ...(await ruleValues(deps.db, caller.organizationId, body)), createdAt: deps.now() });
  await audit(deps, caller, 'IntakeRuleCreated', row.id, {});
  return toRuleView(row);
}

// DELETE /api/intakerules/{id}: its assignments go with it.
export async function deleteRule(deps: UsersDeps, caller: Caller, id: string) {
  if (!(await q.removeRule(deps.db, caller.organizationId, id))) throw notFound();
  await audit(deps, caller, 'IntakeRuleDeleted', id, {});
  return { message: intakeMessages.intakeRuleDeleted };
}
