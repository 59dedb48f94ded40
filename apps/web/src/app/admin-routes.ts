import type { Role } from '@clinicrelay/contracts/roles.ts';

/** A back-office route of the screens catalog whose screen a later issue builds. */
export interface AdminRoute {
  path: string;
  title: string;
  /** What the screen will hold, in the catalog's words; nothing here is data. */
  summary: string;
  roles: readonly Role[];
}

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// Later issues replace the generic page of their route with the real screen in app/router.tsx.
export const adminRoutes: readonly AdminRoute[] = [
  { path: '/admin/emergencies', title: 'Emergencies', roles: SYS_ADMIN, summary: 'Emergencies and the organizations they apply to will be listed here.' },
  { path: '/admin/batchimports', title: 'Batch imports', roles: SYS_ADMIN, summary: 'The status of batch imports and the organization import form will appear here.' },
  { path: '/admin/clientapplications', title: 'Client applications', roles: SYS_ADMIN, summary: 'Client applications will be listed here with their logo URL, redirect URI, application URL and client ID.' },
  { path: '/admin/clientapplications/add', title: 'Add client application', roles: SYS_ADMIN, summary: 'The form to add a client application will appear here.' },
  { path: '/admin/clientapplications/edit/:id', title: 'Edit client application', roles: SYS_ADMIN, summary: 'The form to edit a client application and reset its credentials will appear here.' },
  { path: '/admin/directory', title: 'Directory', roles: SYS_ADMIN, summary: 'Directory entries will be listed here, with actions to create, update and delete them.' },
  { path: '/admin/directorydownloads', title: 'Directory downloads', roles: SYS_ADMIN, summary: 'Directory download requests will be listed here.' },
  { path: '/admin/featureToggle', title: 'Feature toggles', roles: SYS_ADMIN, summary: 'Feature toggles will be listed here, with whether each is enabled globally and per organization.' },
  { path: '/admin/healthreferralregions', title: 'Health referral regions', roles: SYS_ADMIN, summary: 'Health referral regions will be listed here, with actions to create, edit and delete them.' },
  { path: '/admin/healthserviceareas', title: 'Health service areas', roles: SYS_ADMIN, summary: 'Health service areas will be listed here, with a crosswalk upload.' },
  { path: '/admin/docusign', title: 'E-signature accounts', roles: SYS_ADMIN, summary: 'E-signature connector accounts will be listed here.' },
  { path: '/admin/licensekeys', title: 'License keys', roles: SYS_ADMIN, summary: 'License keys will be listed here, with an Expiring Soon filter and a generate action.' },
  { path: '/admin/licensetypes', title: 'License types', roles: SYS_ADMIN, summary: 'License types will be listed here, with actions to edit and delete them.' },
  { path: '/admin/messageroutingrules', title: 'Message routing rules', roles: SYS_ADMIN, summary: 'Message routing rules will be listed here, searchable by address.' },
];
