import type { ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { RequireRoles, UnknownRoute } from '../app/guards.tsx';
import { lazyPage } from '../app/lazy-page.tsx';

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
const ClientApplicationsPage = lazyPage(() => import('./client-applications/client-applications-page.tsx').then((m) => m.ClientApplicationsPage));
const ClientApplicationFormPage = lazyPage(() => import('./client-applications/client-application-form-page.tsx').then((m) => m.ClientApplicationFormPage));
const AuditsPage = lazyPage(() => import('./audits/audits-page.tsx').then((m) => m.AuditsPage));
const SecureLogsPage = lazyPage(() => import('./securelogs/secure-logs-page.tsx').then((m) => m.SecureLogsPage));
const ReportsPage = lazyPage(() => import('./reports/reports-page.tsx').then((m) => m.ReportsPage));
const GeneratedReportsPage = lazyPage(() => import('./generated-reports/generated-reports-page.tsx').then((m) => m.GeneratedReportsPage));
const BatchImportsPage = lazyPage(() => import('./batch-imports/batch-imports-page.tsx').then((m) => m.BatchImportsPage));
const EmergenciesPage = lazyPage(() => import('./emergencies/emergencies-page.tsx').then((m) => m.EmergenciesPage));
const RoutingRulesPage = lazyPage(() => import('./routing-rules/routing-rules-page.tsx').then((m) => m.RoutingRulesPage));
const SiftMetricsPage = lazyPage(() => import('./sift-metrics/sift-metrics-page.tsx').then((m) => m.SiftMetricsPage));
const LicenseKeysPage = lazyPage(() => import('./licenses/license-keys-page.tsx').then((m) => m.LicenseKeysPage));
const LicenseTypesPage = lazyPage(() => import('./licenses/license-types-page.tsx').then((m) => m.LicenseTypesPage));
const DirectoryEntriesPage = lazyPage(() => import('./directory/directory-entries-page.tsx').then((m) => m.DirectoryEntriesPage));
const DirectoryDownloadsPage = lazyPage(() => import('./directory/directory-downloads-page.tsx').then((m) => m.DirectoryDownloadsPage));
const DocusignPage = lazyPage(() => import('./docusign/docusign-page.tsx').then((m) => m.DocusignPage));
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
  { path: 'batchimports', roles: SYS_ADMIN, Page: BatchImportsPage },
  { path: 'emergencies', roles: SYS_ADMIN, Page: EmergenciesPage },
  { path: 'directory', roles: SYS_ADMIN, Page: DirectoryEntriesPage },
  { path: 'directorydownloads', roles: SYS_ADMIN, Page: DirectoryDownloadsPage },
  { path: 'clientapplications', roles: SYS_ADMIN, Page: ClientApplicationsPage },
  { path: 'clientapplications/add', roles: SYS_ADMIN, Page: ClientApplicationFormPage },
  { path: 'clientapplications/edit/:id', roles: SYS_ADMIN, Page: ClientApplicationFormPage },
  { path: 'licensekeys', roles: SYS_ADMIN, Page: LicenseKeysPage },
  { path: 'licensetypes', roles: SYS_ADMIN, Page: LicenseTypesPage },
  { path: 'docusign', roles: SYS_ADMIN, Page: DocusignPage },
  { path: 'messageroutingrules', roles: SYS_ADMIN, Page: RoutingRulesPage },
  { path: 'featureToggle', roles: SYS_ADMIN, Page: FeatureTogglesPage },
  { path: 'healthreferralregions', roles: SYS_ADMIN, Page: RegionsPage },
  { path: 'healthserviceareas', roles: SYS_ADMIN, Page: ServiceAreasPage },
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
