import { createBrowserRouter, type RouteObject } from 'react-router';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { AdminAreaPage } from '../admin/admin-area-page.tsx';
import { MessagingDashboardPage } from '../admin/dashboard/messaging-dashboard-page.tsx';
import { DashboardPage } from '../features/account/dashboard-page.tsx';
import { LoginPage } from '../features/account/login-page.tsx';
import { LogoutPage } from '../features/account/logout-page.tsx';
import { RegisterPage } from '../features/account/register-page.tsx';
import { SsoLoginPage } from '../features/account/sso-login-page.tsx';
import { IntakeMessagePage } from '../features/intake/intake-message-page.tsx';
import { IntakePage } from '../features/intake/intake-page.tsx';
import { IntakePrintPage } from '../features/intake/intake-print-page.tsx';
import { ReleaseComposePage } from '../features/release/release-compose-page.tsx';
import { ReleaseMessagePage } from '../features/release/release-message-page.tsx';
import { ReleasePage } from '../features/release/release-page.tsx';
import { AccessDeniedPage } from './access-denied-page.tsx';
import { adminRoutes } from './admin-routes.ts';
import { AuthErrorPage } from './auth-error-page.tsx';
import { CallbackPage } from './callback-page.tsx';
import {
  RequireActivatedOrganization,
  RequireAuth,
  RequireRoles,
  RoleHome,
  UnknownRoute,
} from './guards.tsx';
import { AppLayout } from './layout.tsx';
import { RouteErrorPage } from './route-error-page.tsx';
import { UnauthorizedPage } from './unauthorized-page.tsx';

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];
const SYSTEM_ADMINS: readonly Role[] = ['SysAdmin', 'SysAdminReporting'];

// end-user §2. react-router matches case-insensitively and tolerates a trailing slash by default.
export const appRoutes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/account/login', element: <LoginPage /> },
      { path: '/account/login/:connection', element: <SsoLoginPage /> },
      { path: '/account/logout', element: <LogoutPage /> },
      { path: '/account/register', element: <RegisterPage /> },
      // Reseller registration links (back-office-a: "/register/" + the reseller's path) land on the same page.
      { path: '/register/*', element: <RegisterPage /> },
      { path: '/unauthorized', element: <UnauthorizedPage /> },
      { path: '/access-denied', element: <AccessDeniedPage /> },
      { path: '/auth-error', element: <AuthErrorPage /> },
      { path: '/callback', element: <CallbackPage /> },
      // Intake sub-screens (paths not in the spec): /intake/{id} views a message, /intake/print is the
      // print window, outside the session and layout: it gets its token from its opener by postMessage.
      { path: '/intake/print', element: <IntakePrintPage /> },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { index: true, element: <RoleHome /> },
              { path: 'admin', element: <RoleHome /> },
              {
                path: 'account/dashboard',
                element: <RequireRoles roles={['Administrator']}><DashboardPage /></RequireRoles>,
              },
              {
                path: 'intake',
                element: <RequireRoles roles={ORG_USERS} />,
                children: [
                  { index: true, element: <IntakePage /> },
                  { path: ':id', element: <IntakeMessagePage /> },
                ],
              },
              {
                path: 'release',
                element: <RequireRoles roles={ORG_USERS} />,
                children: [
                  { index: true, element: <ReleasePage /> },
                  {
                    path: 'new',
                    element: (
                      <RequireActivatedOrganization redirectTo="/release">
                        <ReleaseComposePage mode="new" />
                      </RequireActivatedOrganization>
                    ),
                  },
                  { path: 'draft/:id', element: <ReleaseComposePage mode="draft" /> },
                  { path: 'forward/:id', element: <ReleaseComposePage mode="forward" /> },
                  { path: 'forward/draft/:id', element: <ReleaseComposePage mode="forwardDraft" /> },
                  { path: 'reply/:id', element: <ReleaseComposePage mode="reply" /> },
                  { path: 'reply/draft/:id', element: <ReleaseComposePage mode="replyDraft" /> },
                  { path: ':id', element: <ReleaseMessagePage /> },
                ],
              },
              {
                path: 'admin/dashboard/messaging',
                element: <RequireRoles roles={SYSTEM_ADMINS}><MessagingDashboardPage /></RequireRoles>,
              },
              ...adminRoutes.map<RouteObject>((route) => ({
                path: route.path,
                element: (
                  <RequireRoles roles={route.roles}>
                    <AdminAreaPage key={route.path} title={route.title} summary={route.summary} />
                  </RequireRoles>
                ),
              })),
            ],
          },
          { path: '*', element: <UnknownRoute /> },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
