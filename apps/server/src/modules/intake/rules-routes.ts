import { intakeRuleCreate, intakeRuleView } from '@clinicrelay/contracts/intake.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as rules from './rules.ts';

const ADMINS: readonly Role[] = ['Administrator'];

// Not in the spec, named like its siblings GET/POST /api/intakerules and DELETE /api/intakerules/{id}.
export function intakeRuleRoutes(app: App, deps: rules.IntakeRuleDeps) {
  app.route({
    method: 'PUT',
    url: '/api/intakerules/:id',
    config: { roles: ADMINS },
    schema: { tags: ['users'], params: idParams, body: intakeRuleCreate, response: { 200: intakeRuleView } },
    handler: (request) => rules.updateRule(deps, orgCaller(request), request.params.id, request.body),
  });
}
