import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { organizationMessages as text, type Organization, type OrganizationListItem } from '@clinicrelay/contracts/organizations.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { maskPhone } from './organization-form.tsx';

const ID = '5b7a4c1e-0000-4000-8000-00000000000a';
const row: OrganizationListItem = {
  id: ID,
  orgId: 7,
  name: 'Hillcrest Pediatrics',
  networkName: null,
  subdomain: 'hillcrest',
  resellerName: null,
  tierCode: null,
  isActivated: false,
  isEnabled: true,
  loginType: 'Password',
  apiCapture: true,
  isPendingCancellation: true,
  isCancelled: false,
};
const settings = { exportMode: 'Export', exportOption: null, exportDirectoryType: null, exportVisitDirectory: false, nonPatientExport: false, deliverySummaryEnableDownload: false, suppressCoverPage: false, suppressMessageBody: false, suppressAttachmentDescriptions: false, planRestricted: false } as const;
const hillcrest: Organization = {
  ...row,
  brandId: 'clinicrelay',
  organizationTypeId: 1,
  organizationSpecialtyId: 3,
  networkDbId: null,
  plan: { id: 'professional', allowedUsersDescription: 'Up to 25 users' },
  planId: 'professional',
  reseller: null,
  resellerId: null,
  affiliateResellerId: null,
  affiliateResellerName: null,
  licensingResellerId: null,
  licensingResellerName: null,
  numberOfUsers: 1,
  enabledFeatures: [],
  allowedPurposeOfUseCodes: [],
  organizationNpi: '1320000007',
  organizationEmr: null,
  hispProviderId: 1,
  address: { street: '300 Hillcrest Avenue', unit: null, city: 'Eugene', state: 'OR', zip: '97401', country: 'US' },
  primaryPhone: '5415550300',
  primaryFax: null,
  phone: null,
  primaryContactFirstName: 'Hannah',
  primaryContactLastName: 'Hill',
  primaryContactEmail: 'admin@hillcrest.example.org',
  primaryContactTitle: null,
  primaryContactNpi: null,
  homeCommunityId: null,
  preferredGroupName: null,
  cancelledAt: null,
  settings,
  createdBy: null,
  createDate: '2026-01-01T00:00:00.000Z',
  modifiedBy: null,
  modifiedDate: '2026-01-01T00:00:00.000Z',
};
const choices = {
  brands: [{ id: 'clinicrelay', name: 'ClinicRelay' }],
  types: [{ id: 1, name: 'Provider' }],
  plans: [
    { id: 'free', name: 'Free', allowedUsers: 3, allowedUsersDescription: 'Up to 3 users', isFree: true },
    { id: 'professional', name: 'Professional', allowedUsers: 25, allowedUsersDescription: 'Up to 25 users', isFree: false },
  ],
  resellers: [],
  hisps: [{ id: 1, name: 'ClinicRelay HISP' }],
  features: [{ name: 'WestFaxInterface', description: 'WestFax fax provider accounts.' }],
};
const specialties = [{ id: 3, name: 'Pediatrics' }];

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(url: string, options: { features?: string[]; handlers?: Record<string, (body: unknown) => Response> } = {}) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
    features: options.features ?? [],
    handlers: {
      'GET /api/organizations?pageNumber=1&pageSize=10&sortDir=asc': () => json(200, { items: [row], totalCount: 1 }),
      'GET /api/admin/organizations/choices': () => json(200, choices),
      'GET /api/organizations/specialties': () => json(200, specialties),
      [`GET /api/organizations/${ID}`]: () => json(200, hillcrest),
      ...options.handlers,
    },
  });
  const app = renderApp(url);
  uninstall = app.uninstall;
  return { ...api, router: app.router };
}

describe('maskPhone', () => {
  it('types into (999) 999-9999 and drops a leading 1', () => {
    expect(maskPhone('503')).toBe('(503');
    expect(maskPhone('5035550')).toBe('(503) 555-0');
    expect(maskPhone('1 503 555 0100')).toBe('(503) 555-0100');
    expect(maskPhone('(503) 555-01009')).toBe('(503) 555-0100');
  });
});

describe('Organizations', { timeout: 30_000 }, () => {
  it('lists the §2 columns, the API column only with apiCaptureEnabled, and activates through the modal', async () => {
    const { calls } = start('/admin/organizations', {
      features: ['apiCaptureEnabled'],
      handlers: { [`PUT /api/organizations/${ID}/activate`]: () => json(200, { ...hillcrest, isActivated: true }) },
    });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('Hillcrest Pediatrics')).toBeTruthy();
    for (const header of ['Id', 'Organization', 'Network', 'Subdomain', 'Reseller', 'Tier Code', 'Activation Status', 'Login Ability', 'Login Type', 'API']) {
      expect(screen.getByRole('columnheader', { name: new RegExp(`^${header}`) })).toBeTruthy();
    }
    expect(screen.getByText('Not Activated')).toBeTruthy();
    expect(screen.getByText('Capturing')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'More actions for Hillcrest Pediatrics' }));
    expect(await screen.findByRole('menuitem', { name: 'Clear cancellation' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Stop API capture' })).toBeTruthy();
    await user.click(screen.getByRole('menuitem', { name: 'Activate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Activation Status' });
    expect(within(dialog).getByText(text.activationWarning)).toBeTruthy();
    expect(within(dialog).getByRole('checkbox', { name: /Send activation email/ })).toHaveProperty('checked', true);
    expect(within(dialog).getByRole('checkbox', { name: /default records address/ })).toHaveProperty('checked', true);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(text.activationUpdated)).toBeTruthy();
    expect(calls.find((c) => c.key === `PUT /api/organizations/${ID}/activate`)?.body).toEqual({ id: ID, activated: true, sendEmail: true, seedRecords: true });
  });

  it('filters by Status (the operators’ queues) from the URL, and its Import button opens the batch organization import', async () => {
    const { calls, router } = start('/admin/organizations?status=awaitingReview', {
      handlers: { 'GET /api/organizations?pageNumber=1&pageSize=10&sortDir=asc&status=awaitingReview': () => json(200, { items: [row], totalCount: 1 }) },
    });
    expect(await screen.findByText('Hillcrest Pediatrics')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveProperty('value', 'Awaiting review');
    expect(calls.some((c) => c.key === 'GET /api/organizations?pageNumber=1&pageSize=10&sortDir=asc&status=awaitingReview')).toBe(true);
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Awaiting activation' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=awaitingActivation'));
    await user.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/batchimports'));
    expect(router.state.location.search).toBe('?tab=import');
  });

  it('opens /admin/organizations/{Id} with the number the list shows', async () => {
    const { router } = start('/admin/organizations/7', {
      handlers: { 'GET /api/organizations?orgId=7&pageNumber=1&pageSize=1': () => json(200, { items: [row], totalCount: 1 }) },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/organizations/${ID}`));
    expect(await screen.findByRole('textbox', { name: 'Organization Name' })).toHaveProperty('value', 'Hillcrest Pediatrics');
    expect(screen.getByRole('combobox', { name: 'Affiliate Reseller' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Licensing Reseller' })).toBeTruthy();
  });

  it('hides the API column and action without the setting', async () => {
    start('/admin/organizations');
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('Hillcrest Pediatrics')).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: /^API/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'More actions for Hillcrest Pediatrics' }));
    expect(await screen.findByRole('menuitem', { name: 'Disable login' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: /API capture/ })).toBeNull();
  });

  it('adds an organization: only details and contact, "Please fill out all required fields.", then saves and returns to the list', async () => {
    let created: unknown;
    const { router } = start('/admin/organizations/add', {
      handlers: {
        'POST /api/organizations/': (body) => {
          created = body;
          return json(200, hillcrest);
        },
        'GET /api/organizations/subdomain/exists?id=&subdomain=summit': () => json(200, false),
        'GET /api/organizations/subdomain/isvalid?organizationId=&subdomain=summit': () => json(200, true),
      },
    });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByRole('tab', { name: 'Details' })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Details', 'Primary Contact']);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(text.invalidForm)).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: 'Organization Name' }), 'Summit Orthopedics');
    await user.type(screen.getByRole('textbox', { name: 'Subdomain' }), 'summit');
    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Provider' }));
    await user.click(screen.getByRole('combobox', { name: 'Specialty' }));
    await user.click(await screen.findByRole('option', { name: 'Pediatrics' }));
    await user.type(screen.getByRole('textbox', { name: 'Street' }), '12 Summit Way');
    await user.type(screen.getByRole('textbox', { name: 'City' }), 'Portland');
    await user.type(screen.getByRole('combobox', { name: 'State' }), 'Oreg');
    await user.click(await screen.findByRole('option', { name: 'Oregon (OR)' }));
    await user.type(screen.getByRole('textbox', { name: 'Zip' }), '97201');
    await user.type(screen.getByRole('textbox', { name: 'Phone' }), '5035550177');
    expect(screen.getByRole('textbox', { name: 'Phone' })).toHaveProperty('value', '(503) 555-0177');
    await user.click(screen.getByRole('tab', { name: 'Primary Contact' }));
    await user.type(screen.getByRole('textbox', { name: 'First Name' }), 'Sue');
    await user.type(screen.getByRole('textbox', { name: 'Last Name' }), 'Summit');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'sue@summit.example.org');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/organizations'));
    expect(await screen.findByText(text.saved)).toBeTruthy();
    expect(created).toMatchObject({ name: 'Summit Orthopedics', subdomain: 'summit', organizationTypeId: 1, organizationSpecialtyId: 3, hispProviderId: 1, brandId: 'clinicrelay', primaryPhone: '(503) 555-0177', primaryContactFirstName: 'Sue' });
  });

  it('edits an organization: every tab once it has an id (westfax with its feature), and the NPI lookup', async () => {
    start(`/admin/organizations/${ID}`, {
      features: ['WestFaxInterface'],
      handlers: {
        'GET /api/admin/organizations/npi?npiNumber=1234567893': () =>
          json(200, {
            number: '1234567893',
            basic: { authorizedOfficialFirstName: 'Ann', authorizedOfficialMiddleName: null, authorizedOfficialLastName: 'Lee' },
            name: 'Cascade Imaging',
            organizationName: 'Cascade Imaging',
            fullName: null,
            organizationalSubpart: null,
            authorizedOfficialTelephoneNumber: '5035550999',
            status: 'A',
            addresses: [],
          }),
        'GET /api/admin/organizations/npi?npiNumber=1000000000': () => json(200, null),
      },
    });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByRole('textbox', { name: 'Organization Name' })).toHaveProperty('value', 'Hillcrest Pediatrics');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Details', 'Primary Contact', 'eFax', 'WestFax', 'Direct', 'Settings', 'Service Accounts', 'Carequality', 'QHIN', 'Info', 'IP Addresses']);
    expect(screen.getByRole('textbox', { name: 'Phone' })).toHaveProperty('value', '(541) 555-0300');

    await user.click(screen.getByRole('button', { name: 'Look up NPI' }));
    const dialog = await screen.findByRole('dialog', { name: 'NPI Search' });
    const input = within(dialog).getByRole('textbox', { name: 'NPI Number' });
    await user.clear(input);
    await user.type(input, '1000000000');
    expect(await within(dialog).findByText(text.npiNoResults)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Update NPI' })).toHaveProperty('disabled', true);
    await user.clear(input);
    await user.type(input, '1234567893');
    expect(await within(dialog).findByText('Ann Lee')).toBeTruthy();
    expect(within(dialog).getByText(text.npiNoAddresses)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Update NPI' }));
    expect(await screen.findByText(text.npiApply)).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'NPI' })).toHaveProperty('value', '1234567893');
  });
});
