import { notificationPreferences, notificationSchedule } from '@clinicrelay/contracts/notifications.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];
const ADMINS: readonly Role[] = ['Administrator'];

// Issue 13 §5. Not in the spec: the spec names userPreferences on the User (back-office-a §3) but no call for an
// organization's Administrator to read or change another user's; GET/PUT /api/users/{id}/preferences, named in the
// style of /api/users/{id}/documentsources. The signed-in user's own are also at /api/users/preferences (session).
// The daily time of reminders and digests is an organization setting: GET/PUT /api/organizationsettings/notifications.
export function notificationsRoutes(app: App, deps: service.NotificationsDeps) {
  const tags = ['users'];
  app.route({
    method: 'GET',
    url: '/api/users/:id/preferences',
    config: { roles: ORG_USERS },
    schema: { tags, params: idParams, response: { 200: notificationPreferences } },
    handler: (request) => service.getPreferences(deps, orgCaller(request), request.params.id),
  });
  app.route({
    method: 'PUT',
    url: '/api/users/:id/preferences',
    config: { roles: ORG_USERS },
    schema: { tags, params: idParams, body: notificationPreferences, response: { 200: notificationPreferences } },
    handler: (request) => service.savePreferences(deps, orgCaller(request), request.params.id, request.body),
  });
  app.route({
    method: 'GET',
    url: '/api/organizationsettings/notifications',
    config: { roles: ADMINS },
    schema: { tags: ['organizations'], response: { 200: notificationSchedule } },
    handler: (request) => service.getSchedule(deps, orgCaller(request)),
  });
  app.route({
    method: 'PUT',
    url: '/api/organizationsettings/notifications',
    config: { roles: ADMINS },
    schema: { tags: ['organizations'], body: notificationSchedule, response: { 200: notificationSchedule } },
    handler: (request) => service.saveSchedule(deps, orgCaller(request), request.body),
  });
}
