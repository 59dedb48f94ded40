import type { ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { RequireRoles, UnknownRoute } from '../app/guards.tsx';
import { lazyPage } from '../app/lazy-page.tsx';
import { AdminAreaPage } from './admin-area-page.tsx';

const NetworksPage = lazyPage(() => import('./networks/networks-page.tsx').then((m) => m.NetworksPage));
const ReservedWordsPage = lazyPage(() => import('./reference-data/reserved-words-page.tsx').then((m) => m.ReservedWordsPage));
const SpecialtiesPage = lazyPage(() => import('./reference-data/specialties-page.tsx').then((m) => m.SpecialtiesPage));
const WorkflowsPage = lazyPage(() => import('./workflows/workflows-page.tsx').then((m) => m.WorkflowsPage));
const BulkRetryPage = lazyPage(() => import('./workflows/bulk-retry-page.tsx').then((m) => m.BulkRetryPage));
const UtilitiesPage = lazyPage(() => import('./utilities/utilities-page.tsx').then((m) => m.UtilitiesPage));
const PartnersPage = lazyPage(() => import('./partners/partners-page.tsx').then((m) => m.PartnersPage));
const ResellersPage = lazyPage(() => import('./resellers/resellers-page.tsx').then((m) => m.ResellersPage));
const OrganizationsPage = lazyPage(() => import('./organizations/organizations-page.tsx').then((m) => m.OrganizationsPage));
const OrganizationEditPage = lazyPage(() => import('./organizations/organization-edit-page.tsx').then((m) => m.OrganizationEditPage));
const UsersPage = lazyPage(() => import('./users/users-page.tsx').then((m) => m.UsersPage));
const CertificatesPage = lazyPage(() => import('./certificates/certificates-page.tsx').then((m) => m.CertificatesPage));
const MessageBrowserPage = lazyPage(() => import('./message-browser/message-browser-page.tsx').then((m) => m.MessageBrowserPage));
const TrustAnchorsPage = lazyPage(() => import('./trust-anchors/trust-anchors-page.tsx').then((m) => m.TrustAnchorsPage));
const ApiCapturePage = lazyPage(() => import('./api-capture/api-capture-page.tsx').then((m) => m.ApiCapturePage));
const MessagingDashboardPage = lazyPage(() => import('./dashboard/messaging-dashboard-page.tsx').then((m) => m.MessagingDashboardPage));
const AdminDownloadsPage = lazyPage(() => import('./downloads/downloads-page.tsx').then((m) => m.AdminDownloadsPage));
const EulasPage = lazyPage(() => import('./eulas/eulas-page.tsx').then((m) => m.EulasPage));
const AuditsPage = lazyPage(() => import('./audits/audits-page.tsx').then((m) => m.AuditsPage));
const SecureLogsPage = lazyPage(() => import('./securelogs/secure-logs-page.tsx').then((m) => m.SecureLogsPage));
const ReportsPage = lazyPage(() => import('./reports/reports-page.tsx').then((m) => m.ReportsPage));
const GeneratedReportsPage = lazyPage(() => import('./generated-reports/generated-reports-page.tsx').then((m) => m.GeneratedReportsPage));
const SiftMetricsPage = lazyPage(() => import('./sift-metrics/sift-metrics-page.tsx').then((m) => m.SiftMetricsPage));
const FeatureTogglesPage = lazyPage(() => import('./feature-toggles/feature-toggles-page.tsx').then((m) => m.FeatureTogglesPage));
const RegionsPage = lazyPage(() => import('./regions/regions-page.tsx').then((m) => m.RegionsPage));
const ServiceAreasPage = lazyPage(() => import('./regions/service-areas-page.tsx').then((m) => m.ServiceAreasPage));

const SYSTEM_ADMINS: readonly Role[] = ['SysAdmin', 'SysAdminReporting'];
const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

interface AdminPage {
  /** Below /admin/. */
  path: string;
  roles: readonly Role[];
  Page: ComponentType;
}

// A back-office route of the screens catalog whose screen a later issue builds; shows no data by design.
function placeholder(path: string, title: string, summary: string): AdminPage {
  return { path, roles: SYS_ADMIN, Page: () => <AdminAreaPage key={path} title={title} summary={summary} /> };
}

// Every back-office screen (back-office-a and -b §2). Reserved words and specialties have no route in the spec
// ("route not shown"): named like the others. Issue 27 §4: reports and sift metrics are SysAdmin's and
// SysAdminReporting's, generated reports SysAdmin's.
const adminPages: readonly AdminPage[] = [
  { path: 'dashboard/messaging', roles: SYSTEM_ADMINS, Page: MessagingDashboardPage },
  { path: 'networks', roles: SYS_ADMIN, Page: NetworksPage },
  { path: 'reservedwords', roles: SYS_ADMIN, Page: ReservedWordsPage },
  { path: 'specialties', roles: SYS_ADMIN, Page: SpecialtiesPage },
  { path: 'dashboard/messaging/workflows', roles: SYS_ADMIN, Page: WorkflowsPage },
  { path: 'workflows', roles: SYS_ADMIN, Page: BulkRetryPage },
  { path: 'utils', roles: SYS_ADMIN, Page: UtilitiesPage },
  { path: 'partners', roles: SYS_ADMIN, Page: PartnersPage },
  { path: 'resellers', roles: SYS_ADMIN, Page: ResellersPage },
  { path: 'organizations', roles: SYS_ADMIN, Page: OrganizationsPage },
  { path: 'organizations/add', roles: SYS_ADMIN, Page: OrganizationEditPage },
  { path: 'organizations/:id', roles: SYS_ADMIN, Page: OrganizationEditPage },
  { path: 'users', roles: SYS_ADMIN, Page: UsersPage },
  { path: 'certificates', roles: SYS_ADMIN, Page: CertificatesPage },
  { path: 'messages', roles: SYS_ADMIN, Page: MessageBrowserPage },
  { path: 'trust-anchors', roles: SYS_ADMIN, Page: TrustAnchorsPage },
  { path: 'apicapture', roles: SYS_ADMIN, Page: ApiCapturePage },
  { path: 'downloads', roles: SYS_ADMIN, Page: AdminDownloadsPage },
  { path: 'eulas', roles: SYS_ADMIN, Page: EulasPage },
  { path: 'audits', roles: SYS_ADMIN, Page: AuditsPage },
  { path: 'securelogs', roles: SYS_ADMIN, Page: SecureLogsPage },
  { path: 'reports', roles: SYSTEM_ADMINS, Page: ReportsPage },
  { path: 'generatedreports', roles: SYS_ADMIN, Page: GeneratedReportsPage },
  { path: 'siftmetrics', roles: SYSTEM_ADMINS, Page: SiftMetricsPage },
  placeholder('emergencies', 'Emergencies', 'Emergencies and the organizations they apply to will be listed here.'),
  placeholder('batchimports', 'Batch imports', 'The status of batch imports and the organization import form will appear here.'),
  placeholder('clientapplications', 'Client applications', 'Client applications will be listed here with their logo URL, redirect URI, application URL and client ID.'),
  placeholder('clientapplications/add', 'Add client application', 'The form to add a client application will appear here.'),
  placeholder('clientapplications/edit/:id', 'Edit client application', 'The form to edit a client application and reset its credentials will appear here.'),
  placeholder('directory', 'Directory', 'Directory entries will be listed here, with actions to create, update and delete them.'),
  placeholder('directorydownloads', 'Directory downloads', 'Directory download requests will be listed here.'),
  { path: 'featureToggle', roles: SYS_ADMIN, Page: FeatureTogglesPage },
  { path: 'healthreferralregions', roles: SYS_ADMIN, Page: RegionsPage },
  { path: 'healthserviceareas', roles: SYS_ADMIN, Page: ServiceAreasPage },
  placeholder('docusign', 'E-signature accounts', 'E-signature connector accounts will be listed here.'),
  placeholder('licensekeys', 'License keys', 'License keys will be listed here, with an Expiring Soon filter and a generate action.'),
  placeholder('licensetypes', 'License types', 'License types will be listed here, with actions to edit and delete them.'),
  placeholder('messageroutingrules', 'Message routing rules', 'Message routing rules will be listed here, searchable by address.'),
];

// Descendant routes of /admin/* (react-router matches them case-insensitively, like the top-level table).
export function AdminRoutes() {
  return (
    <Routes>
      {adminPages.map(({ path, roles, Page }) => (
        <Route key={path} path={path} element={<RequireRoles roles={roles}><Page /></RequireRoles>} />
      ))}
      <Route path="*" element={<UnknownRoute />} />
    </Routes>
  );
}
