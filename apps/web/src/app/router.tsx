import { createBrowserRouter, matchRoutes, Outlet, type RouteObject } from 'react-router';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { hasSession } from '../api/tokens.ts';
import { LoginPage } from '../features/account/login-page.tsx';
import { LogoutPage } from '../features/account/logout-page.tsx';
import { AccessDeniedPage } from './access-denied-page.tsx';
import { AuthErrorPage } from './auth-error-page.tsx';
import { CallbackPage } from './callback-page.tsx';
import {
  RequireActivatedOrganization,
  RequireAuth,
  RequireRoles,
  RoleHome,
  UnknownRoute,
} from './guards.tsx';
import { lazyPage, type LazyPageHandle } from './lazy-page.tsx';
import { RouteErrorPage } from './route-error-page.tsx';
import { UnauthorizedPage } from './unauthorized-page.tsx';

const AdminRoutes = lazyPage(() => import('../admin/admin-routes.tsx').then((m) => m.AdminRoutes));
const AppLayout = lazyPage(() => import('./layout.tsx').then((m) => m.AppLayout));
// Its upgrade prompt is a Modal, which sign-in does not need.
const RequireSendingPlan = lazyPage(() => import('./plan-guard.tsx').then((m) => m.RequireSendingPlan));
const WebhooksPage = lazyPage(() => import('../features/webhooks/webhooks-page.tsx').then((m) => m.WebhooksPage));
const SetPasswordPage = lazyPage(() => import('../features/account/set-password-page.tsx').then((m) => m.SetPasswordPage));
const ForgotPasswordPage = lazyPage(() => import('../features/account/forgot-password-page.tsx').then((m) => m.ForgotPasswordPage));
const ChangePasswordPage = lazyPage(() => import('../features/account/change-password-page.tsx').then((m) => m.ChangePasswordPage));
const SecurityPage = lazyPage(() => import('../features/security/security-page.tsx').then((m) => m.SecurityPage));
const DashboardPage = lazyPage(() => import('../features/account/dashboard-page.tsx').then((m) => m.DashboardPage));
const NetworkFeaturesPage = lazyPage(() => import('../features/network/network-features-page.tsx').then((m) => m.NetworkFeaturesPage));
const RegisterPage = lazyPage(() => import('../features/registration/register-page.tsx').then((m) => m.RegisterPage));
const VerifyEmailPage = lazyPage(() => import('../features/registration/verify-page.tsx').then((m) => m.VerifyEmailPage));
const SsoLoginPage = lazyPage(() => import('../features/account/sso-login-page.tsx').then((m) => m.SsoLoginPage));
const IntakeMessagePage = lazyPage(() => import('../features/intake/intake-message-page.tsx').then((m) => m.IntakeMessagePage));
const IntakePage = lazyPage(() => import('../features/intake/intake-page.tsx').then((m) => m.IntakePage));
const IntakePrintPage = lazyPage(() => import('../features/intake/intake-print-page.tsx').then((m) => m.IntakePrintPage));
const ReleaseComposePage = lazyPage(() => import('../features/release/release-compose-page.tsx').then((m) => m.ReleaseComposePage));
const ReleaseMessagePage = lazyPage(() => import('../features/release/release-message-page.tsx').then((m) => m.ReleaseMessagePage));
const SubscriptionPage = lazyPage(() => import('../features/settings/subscription-page.tsx').then((m) => m.SubscriptionPage));
const ReleasePage = lazyPage(() => import('../features/release/release-page.tsx').then((m) => m.ReleasePage));
const OrgUsersPage = lazyPage(() => import('../features/users/users-page.tsx').then((m) => m.UsersPage));
const OrgUserDetailPage = lazyPage(() => import('../features/users/user-detail-page.tsx').then((m) => m.UserDetailPage));
const AddressesPage = lazyPage(() => import('../features/settings/addresses-page.tsx').then((m) => m.AddressesPage));
const RulesPage = lazyPage(() => import('../features/settings/rules-page.tsx').then((m) => m.RulesPage));
const NotificationsPage = lazyPage(() => import('../features/notifications/notifications-page.tsx').then((m) => m.NotificationsPage));
const ConsentPage = lazyPage(() => import('../features/oauth/consent-page.tsx').then((m) => m.ConsentPage));
const DownloadsPage = lazyPage(() => import('../features/downloads/downloads-page.tsx').then((m) => m.DownloadsPage));

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];

// end-user §2. react-router matches case-insensitively and tolerates a trailing slash by default.
export const appRoutes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/account/login', element: <LoginPage /> },
      { path: '/account/login/:connection', handle: SsoLoginPage.handle, element: <SsoLoginPage /> },
      { path: '/account/logout', element: <LogoutPage /> },
      { path: '/account/register', handle: RegisterPage.handle, element: <RegisterPage /> },
      // The account-creation and password-reset mails link here (admin-users, not in the spec).
      { path: '/account/password', handle: SetPasswordPage.handle, element: <SetPasswordPage /> },
      // Issue 14 §5 (path not in the spec): "Forgot your password?" on the sign-in page.
      { path: '/account/forgot-password', handle: ForgotPasswordPage.handle, element: <ForgotPasswordPage /> },
      // The registration's verification mail links here (issue 14 §1).
      { path: '/account/verify', handle: VerifyEmailPage.handle, element: <VerifyEmailPage /> },
      // Reseller registration links (back-office-a: "/register/" + the reseller's path) land on the same page.
      { path: '/register/*', handle: RegisterPage.handle, element: <RegisterPage /> },
      { path: '/unauthorized', element: <UnauthorizedPage /> },
      { path: '/access-denied', element: <AccessDeniedPage /> },
      { path: '/auth-error', element: <AuthErrorPage /> },
      { path: '/callback', element: <CallbackPage /> },
      // Intake sub-screens (paths not in the spec): /intake/{id} views a message, /intake/print is the
      // print window, outside the session and layout: it gets its token from its opener by postMessage.
      { path: '/intake/print', handle: IntakePrintPage.handle, element: <IntakePrintPage /> },
      {
        element: <RequireAuth />,
        children: [
          // Issue 29 §1: the OAuth consent screen, signed in but outside the layout (the authorization server sends the browser here).
          { path: '/consent/:uid', handle: ConsentPage.handle, element: <ConsentPage /> },
          {
            handle: AppLayout.handle,
            element: <AppLayout />,
            children: [
              { index: true, element: <RoleHome /> },
              { path: 'admin', element: <RoleHome /> },
              {
                path: 'account/dashboard',
                handle: DashboardPage.handle,
                element: <RequireRoles roles={['Administrator']}><DashboardPage /></RequireRoles>,
              },
              // Issue 13 §3 and §4 (paths not in the spec): the organization's addresses and its intake rules.
              { path: 'settings/addresses', handle: AddressesPage.handle, element: <RequireRoles roles={['Administrator']}><AddressesPage /></RequireRoles> },
              { path: 'settings/rules', handle: RulesPage.handle, element: <RequireRoles roles={['Administrator']}><RulesPage /></RequireRoles> },
              // Issue 13 §5 (path not in the spec): every user's notification mails; Administrators also set the daily time.
              { path: 'settings/notifications', handle: NotificationsPage.handle, element: <RequireRoles roles={ORG_USERS}><NotificationsPage /></RequireRoles> },
              // Issue 13 §2: the organization's users, for its Administrators (the route is not in the spec).
              { path: 'settings/users', handle: OrgUsersPage.handle, element: <RequireRoles roles={['Administrator']}><OrgUsersPage /></RequireRoles> },
              { path: 'settings/users/:id', handle: OrgUserDetailPage.handle, element: <RequireRoles roles={['Administrator']}><OrgUserDetailPage /></RequireRoles> },
              // Issue 14 §4 (path not in the spec): the Administrator's plan, sandbox checkout and cancellation.
              { path: 'settings/subscription', handle: SubscriptionPage.handle, element: <RequireRoles roles={['Administrator']}><SubscriptionPage /></RequireRoles> },
              // Issue 14 §5 and §6 (paths not in the spec): every signed-in user's own password and two-factor sign-in (user menu).
              { path: 'settings/password', handle: ChangePasswordPage.handle, element: <ChangePasswordPage /> },
              { path: 'settings/security', handle: SecurityPage.handle, element: <SecurityPage /> },
              // The page says so to a user who administers no network (the sidebar shows it only to those who do).
              { path: 'account/network', handle: NetworkFeaturesPage.handle, element: <RequireRoles roles={ORG_USERS}><NetworkFeaturesPage /></RequireRoles> },
              {
                path: 'intake',
                element: <RequireRoles roles={ORG_USERS} />,
                children: [
                  { index: true, handle: IntakePage.handle, element: <IntakePage /> },
                  { path: ':id', handle: IntakeMessagePage.handle, element: <IntakeMessagePage /> },
                ],
              },
              {
                path: 'release',
                // end-user §2/§6: on the Stay Connected plan the Release area shows the upgrade prompt instead.
                element: (
                  <RequireRoles roles={ORG_USERS}>
                    <RequireSendingPlan>
                      <Outlet />
                    </RequireSendingPlan>
                  </RequireRoles>
                ),
                children: [
                  { index: true, handle: ReleasePage.handle, element: <ReleasePage /> },
                  {
                    path: 'new',
                    handle: ReleaseComposePage.handle,
                    element: (
                      <RequireActivatedOrganization redirectTo="/release">
                        <ReleaseComposePage mode="new" />
                      </RequireActivatedOrganization>
                    ),
                  },
                  { path: 'draft/:id', handle: ReleaseComposePage.handle, element: <ReleaseComposePage mode="draft" /> },
                  { path: 'forward/:id', handle: ReleaseComposePage.handle, element: <ReleaseComposePage mode="forward" /> },
                  { path: 'forward/draft/:id', handle: ReleaseComposePage.handle, element: <ReleaseComposePage mode="forwardDraft" /> },
                  { path: 'reply/:id', handle: ReleaseComposePage.handle, element: <ReleaseComposePage mode="reply" /> },
                  { path: 'reply/draft/:id', handle: ReleaseComposePage.handle, element: <ReleaseComposePage mode="replyDraft" /> },
                  { path: ':id', handle: ReleaseMessagePage.handle, element: <ReleaseMessagePage /> },
                ],
              },
              { path: 'settings/webhooks', handle: WebhooksPage.handle, element: <RequireRoles roles={['Administrator']}><WebhooksPage /></RequireRoles> },
              // Issue 13 §7 (the spec names no route): the files the platform publishes for organizations.
              { path: 'downloads', handle: DownloadsPage.handle, element: <RequireRoles roles={ORG_USERS}><DownloadsPage /></RequireRoles> },
              // The back office's route table is a chunk of its own: sign-in does not carry it.
              { path: 'admin/*', handle: AdminRoutes.handle, element: <AdminRoutes /> },
            ],
          },
          { path: '*', element: <UnknownRoute /> },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  // A signed-in deep link fetches its layout and page chunks beside the profile, not one after another.
  if (hasSession()) {
    for (const match of matchRoutes(appRoutes, window.location) ?? []) void (match.route.handle as LazyPageHandle | undefined)?.preload();
  }
  return createBrowserRouter(appRoutes);
}
