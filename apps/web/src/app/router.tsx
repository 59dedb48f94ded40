import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, Outlet, type RouteObject } from 'react-router';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { hasSession } from '../api/tokens.ts';
import { LoginPage } from '../features/account/login-page.tsx';
import { LogoutPage } from '../features/account/logout-page.tsx';
import { AccessDeniedPage } from './access-denied-page.tsx';
import { adminRoutes } from './admin-routes.ts';
import { AuthErrorPage } from './auth-error-page.tsx';
import { CallbackPage } from './callback-page.tsx';
import { CenteredLoader } from './centered-loader.tsx';
import {
  RequireActivatedOrganization,
  RequireAuth,
  RequireRoles,
  RoleHome,
  UnknownRoute,
} from './guards.tsx';
import { RouteErrorPage } from './route-error-page.tsx';
import { UnauthorizedPage } from './unauthorized-page.tsx';

interface LazyPageHandle {
  preload: () => Promise<unknown>;
}

const RELOAD_KEY = 'clinicrelay.reloadedFor';

// A page in a chunk of its own, fetched the first time its route renders (or preloaded): sign-in stays small.
function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (component) => {
        sessionStorage.removeItem(RELOAD_KEY);
        return { default: component };
      },
      (error: unknown) => {
        loading = undefined;
        // After a deploy the old build's chunks are gone: load the new build, once per page, not an error.
        if (sessionStorage.getItem(RELOAD_KEY) !== window.location.pathname) {
          sessionStorage.setItem(RELOAD_KEY, window.location.pathname);
          window.location.reload();
        }
        throw error;
      },
    ));
  const Page = lazy(preload);
  function LazyPage(props: P) {
    return (
      <Suspense fallback={<CenteredLoader />}>
        <Page {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyPage, { handle: { preload } satisfies LazyPageHandle });
}

const AppLayout = lazyPage(() => import('./layout.tsx').then((m) => m.AppLayout));
// Its upgrade prompt is a Modal, which sign-in does not need.
const RequireSendingPlan = lazyPage(() => import('./plan-guard.tsx').then((m) => m.RequireSendingPlan));
const AdminAreaPage = lazyPage(() => import('../admin/admin-area-page.tsx').then((m) => m.AdminAreaPage));
const NetworksPage = lazyPage(() => import('../admin/networks/networks-page.tsx').then((m) => m.NetworksPage));
const ReservedWordsPage = lazyPage(() => import('../admin/reference-data/reserved-words-page.tsx').then((m) => m.ReservedWordsPage));
const SpecialtiesPage = lazyPage(() => import('../admin/reference-data/specialties-page.tsx').then((m) => m.SpecialtiesPage));
const WorkflowsPage = lazyPage(() => import('../admin/workflows/workflows-page.tsx').then((m) => m.WorkflowsPage));
const BulkRetryPage = lazyPage(() => import('../admin/workflows/bulk-retry-page.tsx').then((m) => m.BulkRetryPage));
const UtilitiesPage = lazyPage(() => import('../admin/utilities/utilities-page.tsx').then((m) => m.UtilitiesPage));
const PartnersPage = lazyPage(() => import('../admin/partners/partners-page.tsx').then((m) => m.PartnersPage));
const ResellersPage = lazyPage(() => import('../admin/resellers/resellers-page.tsx').then((m) => m.ResellersPage));
const OrganizationsPage = lazyPage(() => import('../admin/organizations/organizations-page.tsx').then((m) => m.OrganizationsPage));
const OrganizationEditPage = lazyPage(() => import('../admin/organizations/organization-edit-page.tsx').then((m) => m.OrganizationEditPage));
const UsersPage = lazyPage(() => import('../admin/users/users-page.tsx').then((m) => m.UsersPage));
const CertificatesPage = lazyPage(() => import('../admin/certificates/certificates-page.tsx').then((m) => m.CertificatesPage));
const MessageBrowserPage = lazyPage(() => import('../admin/message-browser/message-browser-page.tsx').then((m) => m.MessageBrowserPage));
const TrustAnchorsPage = lazyPage(() => import('../admin/trust-anchors/trust-anchors-page.tsx').then((m) => m.TrustAnchorsPage));
const ApiCapturePage = lazyPage(() => import('../admin/api-capture/api-capture-page.tsx').then((m) => m.ApiCapturePage));
const WebhooksPage = lazyPage(() => import('../features/webhooks/webhooks-page.tsx').then((m) => m.WebhooksPage));
const SetPasswordPage = lazyPage(() => import('../features/account/set-password-page.tsx').then((m) => m.SetPasswordPage));
const ForgotPasswordPage = lazyPage(() => import('../features/account/forgot-password-page.tsx').then((m) => m.ForgotPasswordPage));
const ChangePasswordPage = lazyPage(() => import('../features/account/change-password-page.tsx').then((m) => m.ChangePasswordPage));
const SecurityPage = lazyPage(() => import('../features/security/security-page.tsx').then((m) => m.SecurityPage));
const MessagingDashboardPage = lazyPage(() => import('../admin/dashboard/messaging-dashboard-page.tsx').then((m) => m.MessagingDashboardPage));
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
const DownloadsPage = lazyPage(() => import('../features/downloads/downloads-page.tsx').then((m) => m.DownloadsPage));
const AdminDownloadsPage = lazyPage(() => import('../admin/downloads/downloads-page.tsx').then((m) => m.AdminDownloadsPage));
const EulasPage = lazyPage(() => import('../admin/eulas/eulas-page.tsx').then((m) => m.EulasPage));
const AuditsPage = lazyPage(() => import('../admin/audits/audits-page.tsx').then((m) => m.AuditsPage));
const SecureLogsPage = lazyPage(() => import('../admin/securelogs/secure-logs-page.tsx').then((m) => m.SecureLogsPage));
const ReportsPage = lazyPage(() => import('../admin/reports/reports-page.tsx').then((m) => m.ReportsPage));
const GeneratedReportsPage = lazyPage(() => import('../admin/generated-reports/generated-reports-page.tsx').then((m) => m.GeneratedReportsPage));
const SiftMetricsPage = lazyPage(() => import('../admin/sift-metrics/sift-metrics-page.tsx').then((m) => m.SiftMetricsPage));

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];
const SYSTEM_ADMINS: readonly Role[] = ['SysAdmin', 'SysAdminReporting'];
const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

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
              {
                path: 'admin/dashboard/messaging',
                handle: MessagingDashboardPage.handle,
                element: <RequireRoles roles={SYSTEM_ADMINS}><MessagingDashboardPage /></RequireRoles>,
              },
              { path: 'admin/networks', handle: NetworksPage.handle, element: <RequireRoles roles={SYS_ADMIN}><NetworksPage /></RequireRoles> },
              // Reserved words and specialties have no route in the spec ("route not shown"): named like the others.
              { path: 'admin/reservedwords', handle: ReservedWordsPage.handle, element: <RequireRoles roles={SYS_ADMIN}><ReservedWordsPage /></RequireRoles> },
              { path: 'admin/specialties', handle: SpecialtiesPage.handle, element: <RequireRoles roles={SYS_ADMIN}><SpecialtiesPage /></RequireRoles> },
              { path: 'admin/dashboard/messaging/workflows', handle: WorkflowsPage.handle, element: <RequireRoles roles={SYS_ADMIN}><WorkflowsPage /></RequireRoles> },
              { path: 'admin/workflows', handle: BulkRetryPage.handle, element: <RequireRoles roles={SYS_ADMIN}><BulkRetryPage /></RequireRoles> },
              { path: 'admin/utils', handle: UtilitiesPage.handle, element: <RequireRoles roles={SYS_ADMIN}><UtilitiesPage /></RequireRoles> },
              { path: 'admin/partners', handle: PartnersPage.handle, element: <RequireRoles roles={SYS_ADMIN}><PartnersPage /></RequireRoles> },
              { path: 'admin/resellers', handle: ResellersPage.handle, element: <RequireRoles roles={SYS_ADMIN}><ResellersPage /></RequireRoles> },
              { path: 'admin/organizations', handle: OrganizationsPage.handle, element: <RequireRoles roles={SYS_ADMIN}><OrganizationsPage /></RequireRoles> },
              { path: 'admin/organizations/add', handle: OrganizationEditPage.handle, element: <RequireRoles roles={SYS_ADMIN}><OrganizationEditPage /></RequireRoles> },
              { path: 'admin/organizations/:id', handle: OrganizationEditPage.handle, element: <RequireRoles roles={SYS_ADMIN}><OrganizationEditPage /></RequireRoles> },
              { path: 'admin/users', handle: UsersPage.handle, element: <RequireRoles roles={SYS_ADMIN}><UsersPage /></RequireRoles> },
              { path: 'admin/certificates', handle: CertificatesPage.handle, element: <RequireRoles roles={SYS_ADMIN}><CertificatesPage /></RequireRoles> },
              { path: 'admin/messages', handle: MessageBrowserPage.handle, element: <RequireRoles roles={SYS_ADMIN}><MessageBrowserPage /></RequireRoles> },
              { path: 'admin/trust-anchors', handle: TrustAnchorsPage.handle, element: <RequireRoles roles={SYS_ADMIN}><TrustAnchorsPage /></RequireRoles> },
              { path: 'admin/apicapture', handle: ApiCapturePage.handle, element: <RequireRoles roles={SYS_ADMIN}><ApiCapturePage /></RequireRoles> },
              { path: 'settings/webhooks', handle: WebhooksPage.handle, element: <RequireRoles roles={['Administrator']}><WebhooksPage /></RequireRoles> },
              // Issue 13 §7 (the spec names no route): the files the platform publishes for organizations.
              { path: 'downloads', handle: DownloadsPage.handle, element: <RequireRoles roles={ORG_USERS}><DownloadsPage /></RequireRoles> },
              { path: 'admin/downloads', handle: AdminDownloadsPage.handle, element: <RequireRoles roles={SYS_ADMIN}><AdminDownloadsPage /></RequireRoles> },
              { path: 'admin/eulas', handle: EulasPage.handle, element: <RequireRoles roles={SYS_ADMIN}><EulasPage /></RequireRoles> },
              { path: 'admin/audits', handle: AuditsPage.handle, element: <RequireRoles roles={SYS_ADMIN}><AuditsPage /></RequireRoles> },
              { path: 'admin/securelogs', handle: SecureLogsPage.handle, element: <RequireRoles roles={SYS_ADMIN}><SecureLogsPage /></RequireRoles> },
              // Issue 27 §4: reports and sift metrics are SysAdmin's and SysAdminReporting's, generated reports SysAdmin's.
              { path: 'admin/reports', handle: ReportsPage.handle, element: <RequireRoles roles={SYSTEM_ADMINS}><ReportsPage /></RequireRoles> },
              { path: 'admin/generatedreports', handle: GeneratedReportsPage.handle, element: <RequireRoles roles={SYS_ADMIN}><GeneratedReportsPage /></RequireRoles> },
              { path: 'admin/siftmetrics', handle: SiftMetricsPage.handle, element: <RequireRoles roles={SYSTEM_ADMINS}><SiftMetricsPage /></RequireRoles> },
              ...adminRoutes.map<RouteObject>((route) => ({
                path: route.path,
                handle: AdminAreaPage.handle,
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
  // A signed-in deep link fetches its layout and page chunks beside the profile, not one after another.
  if (hasSession()) {
    for (const match of matchRoutes(appRoutes, window.location) ?? []) void (match.route.handle as LazyPageHandle | undefined)?.preload();
  }
  return createBrowserRouter(appRoutes);
}
