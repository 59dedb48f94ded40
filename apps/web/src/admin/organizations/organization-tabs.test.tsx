import userEvent from '@testing-library/user-event';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { carequalityMessages } from '@clinicrelay/contracts/carequality.ts';
import { documentSourceMessages } from '@clinicrelay/contracts/document-sources.ts';
import { faxAccountMessages } from '@clinicrelay/contracts/fax-accounts.ts';
import { serviceAccountMessages } from '@clinicrelay/contracts/service-accounts.ts';
import type { ReactElement } from 'react';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { CarequalityTab } from './carequality-tab.tsx';
import { DirectTab } from './direct-tab.tsx';
import { EfaxTab } from './fax-tabs.tsx';
import { ServiceAccountsTab } from './service-accounts-tab.tsx';

const ORG = '5b7a4c1e-0000-4000-8000-0000000000aa';
const organization = { id: ORG, name: 'Hillcrest Pediatrics', subdomain: 'hillcrest' };
const source = (id: string, fullAddress: string, type: 'DirectMessaging' | 'Fax', status: number, statusName: string) => ({
  id, organizationId: ORG, organizationName: organization.name, type, fullAddress, status, statusName, createdDate: '2026-11-01T10:00:00.000Z', isGlobal: false,
});

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(element: ReactElement, handlers: NonNullable<Parameters<typeof stubApi>[0]>['handlers']) {
  signIn();
  const api = stubApi({ profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }), handlers });
  uninstall = renderApp('/tab', [{ path: '/tab', element }]).uninstall;
  return api;
}

describe('organization tabs (issue 11, helper B)', { timeout: 30_000 }, () => {
  it('Direct tab: activates a provisioning address, offers nothing but Activate on a deleted one, checks a fax number before saving', async () => {
    const provisioning = source('a1000000-0000-4000-8000-000000000001', 'front@hillcrest.direct.example.org', 'DirectMessaging', 0, 'Provisioning');
    const deleted = source('a1000000-0000-4000-8000-000000000002', '5035550303', 'Fax', 4, 'Deleted');
    const { calls } = start(<DirectTab organization={organization} />, {
      [`GET /api/admin/documentsources?organizationId=${ORG}&pageNumber=1&pageSize=10&sortDir=asc`]: () => json(200, { items: [provisioning, deleted], totalCount: 2 }),
      [`POST /api/admin/documentsources/activate/${provisioning.id}`]: () => json(200, { ...provisioning, status: 1, statusName: 'Activated' }),
      'POST /api/admin/documentsources': () => json(200, source('a1000000-0000-4000-8000-000000000003', '5035550404', 'Fax', 0, 'Provisioning')),
    });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('503-555-0303')).toBeTruthy();
    expect(screen.getByText('Provisioning')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit 503-555-0303' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete 503-555-0303' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Activate 503-555-0303' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Activate front@hillcrest.direct.example.org' }));
    await waitFor(() => expect(calls.some((c) => c.key === `POST /api/admin/documentsources/activate/${provisioning.id}`)).toBe(true));
    expect(await screen.findByText(documentSourceMessages.activated)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Add address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add address' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Fax number' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Fax number' }), '555-0404');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(documentSourceMessages.faxInvalid)).toBeTruthy();
    await user.clear(within(dialog).getByRole('textbox', { name: 'Fax number' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Fax number' }), '(503) 555-0404');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.key === 'POST /api/admin/documentsources')?.body).toEqual({ organizationId: ORG, type: 'Fax', fullAddress: '(503) 555-0404' }));
    expect(await screen.findByText(documentSourceMessages.saved)).toBeTruthy();
  });

  it('Service accounts tab: the empty text, and an allowed address count below the addresses listed is refused before any call', async () => {
    const account = { id: 'b1000000-0000-4000-8000-000000000001', clientId: 'hillcrest-emr', serviceAccountEnabled: true, clientIpAddresses: ['203.0.113.1', '203.0.113.2'], allowedAddressCount: 3 };
    let accounts: unknown[] = [];
    const { calls } = start(<ServiceAccountsTab organization={organization} />, {
      [`GET /api/organizations/${ORG}/serviceaccount`]: () => json(200, accounts),
      [`GET /api/organizations/${ORG}/serviceaccount/limit`]: () => json(200, { count: 1 }),
    });
    expect(await screen.findByText(serviceAccountMessages.empty)).toBeTruthy();
    uninstall?.();
    cleanup();
    accounts = [account];
    uninstall = renderApp('/tab', [{ path: '/tab', element: <ServiceAccountsTab organization={organization} /> }]).uninstall;
    const user = userEvent.setup({ delay: null });
    const count = await screen.findByRole('textbox', { name: 'Allowed Addresses of hillcrest-emr' });
    await user.clear(count);
    await user.type(count, '1');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('The number of Allowed Addresses cannot be lower than 2')).toBeTruthy();
    expect(calls.some((c) => c.key.includes('/ipaddresses/limit'))).toBe(false);
  });

  it('Carequality tab: a default toggled when the call fails is put back, with the error', async () => {
    const oid = { id: 'c1000000-0000-4000-8000-000000000001', organizationId: ORG, value: '2.16.840.1.113883.3.72', isDefault: false };
    const newEntry = { id: null, organizationId: ORG, parentOrgId: null, isParent: false, isActive: true, responderType: null, address: '', city: '', state: '', zipCode: '', country: 'US', purposeOfUseCodes: [], displayName: organization.name, legalName: organization.name, homeCommunityId: null, otherNames: [], initiatorOnly: false, syncedAt: null };
    start(<CarequalityTab organization={organization} />, {
      [`GET /api/admin/organizations/${ORG}/oids`]: () => json(200, [oid]),
      [`PUT /api/admin/organizations/${ORG}/oids`]: () => json(500, { message: 'An error occurred.' }),
      [`GET /api/admin/organizations/${ORG}/directoryentries`]: () => json(200, { items: [], totalCount: 0, newEntry }),
    });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText(carequalityMessages.noEntries)).toBeTruthy();
    const toggle = await screen.findByRole('switch', { name: `Default: ${oid.value}` });
    await user.click(toggle);
    expect(await screen.findByText('An error occurred.')).toBeTruthy();
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(false));
  });

  it('eFax tab: without a subdomain only the No SubDomain warning; with one, the group name copies to the clipboard', async () => {
    const accounts = { organizationName: organization.name, subdomain: '', provider: 'sandbox', eFaxAccount: null, westFaxAccount: null };
    start(<EfaxTab organization={organization} />, { [`GET /api/organizations/${ORG}/faxaccounts`]: () => json(200, accounts) });
    expect(await screen.findByText(faxAccountMessages.noSubdomain)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create eFax account' })).toBeNull();
    uninstall?.();
    cleanup();

    stubApi({
      profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
      handlers: { [`GET /api/organizations/${ORG}/faxaccounts`]: () => json(200, { ...accounts, subdomain: 'hillcrest', eFaxAccount: { groupName: 'hillcrest', accountType: 'Kno2EFaxAccount', modifiedDate: '2026-11-01T10:00:00.000Z' } }) },
    });
    uninstall = renderApp('/tab', [{ path: '/tab', element: <EfaxTab organization={organization} /> }]).uninstall;
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Copy Group Name' }));
    expect(await screen.findByText(faxAccountMessages.groupNameCopied)).toBeTruthy();
    expect(screen.getByText(faxAccountMessages.sandbox)).toBeTruthy();
  });
});
