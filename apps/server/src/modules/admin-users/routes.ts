import { z } from 'zod';
import {
  adminUser,
  adminUserMessages,
  adminUserCreate,
  adminUsersPage,
  adminUsersQuery,
  adminUserUpdate,
  idProofUpdate,
  jobFunction,
  messageResponse,
  orgUserDeleteParams,
  orgUserParams,
  sysAdminCreate,
  sysAdminEnable,
  userEnable,
  userOrganization,
  userOrganizationAssign,
} from '@clinicrelay/contracts/admin-users.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { adminCaller } from '../../platform/auth/guard.ts';
import { badRequest } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// back-office-a §7 "Users" and the catalog's admin-users rows. POST /api/users/resetpassword and
// /api/users/resendinvitation (body {id}, {id, userName}) are declared in modules/users, open to system administrators
// and to an organization's Administrator for its own users (issue 13), and call this module's service.
export function adminUsersRoutes(app: App, deps: service.AdminUsersDeps) {
  const config = { roles: SYS_ADMIN };
  const tags = ['admin-users'];
  const organizations = { 200: z.array(userOrganization) };

  app.route({
    method: 'GET',
    url: '/api/admin/users',
    config,
    schema: { tags, querystring: adminUsersQuery, response: { 200: adminUsersPage } },
    handler: (request) => service.listUsers(deps, request.query),
  });
  app.route({
    method: 'POST',
    url: '/api/admin/users',
    config,
    schema: { tags, body: adminUserCreate, response: { 200: adminUser } },
    handler: (request) => service.createUser(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'POST',
    url: '/api/admin/users/enable',
    config,
    schema: { tags, body: userEnable, response: { 200: messageResponse } },
    handler: (request) => service.setEnabled(deps, adminCaller(request), request.body.id, request.body.enable),
  });
  app.route({
    method: 'POST',
    url: '/api/admin/users/idproof',
    config,
    schema: { tags, body: idProofUpdate, response: { 200: messageResponse } },
    handler: (request) => service.setIdProof(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'POST',
    url: '/api/admin/users/organizations',
    config,
    schema: { tags, body: userOrganizationAssign, response: organizations },
    handler: (request) => service.addUserOrganization(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'PUT',
    url: '/api/admin/users/organizations',
    config,
    schema: { tags, body: userOrganizationAssign, response: organizations },
    handler: (request) => service.updateUserOrganization(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'GET',
    url: '/api/admin/users/:id',
    config,
    schema: { tags, params: idParams, response: { 200: adminUser } },
    handler: (request) => service.getUser(deps, request.params.id),
  });
  app.route({
    method: 'PUT',
    url: '/api/admin/users/:id',
    config,
    schema: { tags, params: idParams, body: adminUserUpdate, response: { 200: adminUser } },
    handler: (request) => service.updateUser(deps, adminCaller(request), request.params.id, request.body),
  });
  app.route({
    method: 'GET',
    url: '/api/admin/users/:id/organization',
    config,
    schema: { tags, params: idParams, response: organizations },
    handler: (request) => service.userOrganizations(deps, request.params.id),
  });
  app.route({
    method: 'GET',
    url: '/api/admin/users/:id/idproof',
    config,
    // No response schema: 200 is the file's bytes.
    schema: { tags, params: idParams },
    handler: async (request, reply) => {
      const file = await service.idProofFile(deps, adminCaller(request), request.params.id);
      const extension = file.fileName.includes('.') ? `.${file.fileName.split('.').pop()!.replace(/[^a-z0-9]/gi, '')}` : '';
      reply.header('cache-control', 'no-store');
      // Shown in a new tab; an unknown type is only ever downloaded, never rendered in our origin.
      reply.header('content-disposition', `${file.contentType === 'application/octet-stream' ? 'attachment' : 'inline'}; filename="identification${extension}"`);
      return reply.type(file.contentType).send(Buffer.from(file.bytes));
    },
  });
  app.route({
    method: 'POST',
    url: '/api/admin/users/:id/idproof/reset',
    config,
    schema: { tags, params: idParams, response: { 200: messageResponse } },
    handler: (request) => service.resetIdProof(deps, adminCaller(request), request.params.id),
  });
  app.route({
    method: 'POST',
    url: '/api/admin/users/:id/sync',
    config,
    schema: { tags, params: idParams, response: { 200: messageResponse } },
    handler: (request) => service.syncUser(deps, adminCaller(request), request.params.id),
  });
  app.route({
    method: 'POST',
    url: '/api/admin/users/:id/2fa/disable',
    config,
    schema: { tags, params: idParams, response: { 200: messageResponse } },
    handler: (request) => service.disableTwoFactor(deps, adminCaller(request), request.params.id),
  });

  app.route({
    method: 'POST',
    url: '/api/admin/sysadmin',
    config,
    schema: { tags, body: sysAdminCreate, response: { 200: adminUser } },
    handler: (request) => service.createSysAdmin(deps, adminCaller(request), request.body),
  });
  app.route({
    method: 'PUT',
    url: '/api/admin/sysadmin/:id',
    config,
    schema: { tags, params: idParams, body: sysAdminEnable, response: { 200: messageResponse } },
    handler: (request) => service.setEnabled(deps, adminCaller(request), request.params.id, request.body.enable, { systemOnly: true }),
  });

  app.route({
    method: 'POST',
    url: '/api/admin/organizations/:orgId/users',
    config,
    schema: { tags, params: orgUserParams, body: userOrganizationAssign, response: organizations },
    handler: (request) => {
      // The body repeats the organization of the path (§3 payload {userId, organizationId}); they must agree.
      if (request.body.organizationId !== request.params.orgId) throw badRequest(adminUserMessages.organizationMismatch, { organizationId: [adminUserMessages.organizationMismatch] });
      return service.addUserOrganization(deps, adminCaller(request), request.body);
    },
  });
  app.route({
    method: 'DELETE',
    url: '/api/admin/organizations/:orgId/users/:userId',
    config,
    schema: { tags, params: orgUserDeleteParams, response: organizations },
    handler: (request) => service.removeUserOrganization(deps, adminCaller(request), request.params.orgId, request.params.userId),
  });

  // end-user §7 GET /api/users/jobs (cached by the client): the job functions, for the user forms here and the
  // organization's own user screens (issue 13).
  app.route({
    method: 'GET',
    url: '/api/users/jobs',
    config: { roles: ['SysAdmin', 'Administrator', 'User'] },
    schema: { tags, response: { 200: z.array(jobFunction) } },
    handler: () => service.jobFunctions(deps),
  });
}
