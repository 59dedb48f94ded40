import userEvent from '@testing-library/user-event';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { batchImportMessages as text } from '@clinicrelay/contracts/batch-imports.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

const item = (rowNumber: number, over: Record<string, unknown> = {}) => ({
  id: `00000000-0000-4000-8000-00000000000${rowNumber}`,
  batchId: '00000000-0000-4000-8000-000000000100',
  batchType: 'Organization',
  itemStatus: 'Created',
  itemError: null,
  key: `abc:${rowNumber}`,
  rowNumber,
  name: `Harbor Clinic ${rowNumber}`,
  organizationId: null,
  fileName: 'Harbor clinics.csv',
  batchStatus: 'CompletedWithErrors',
  primaryContactStatus: 'Created',
  pcsErrors: null,
  createdBy: 'sysadmin@example.org',
  createDate: '2026-11-29T10:00:00.000Z',
  ...over,
});

// The admin routes and the page are lazy chunks: the first render waits for them.
const LAZY = { timeout: 15_000 };

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(items: unknown[]) {
  signIn();
  stubApi({
    profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
    handlers: {
      'GET /api/admin/import?pageNumber=1&pageSize=10': () => json(200, { items, totalCount: items.length }),
      'GET /api/admin/organizations/choices': () =>
        json(200, { brands: [{ id: 'clinicrelay', name: 'ClinicRelay' }], types: [], plans: [{ id: 'free', name: 'Free', allowedUsers: 3, allowedUsersDescription: 'Up to 3 users', isFree: true }], resellers: [], hisps: [], features: [] }),
      'GET /api/organizations/specialties': () => json(200, [{ id: 2, name: 'Family Medicine' }]),
      'GET /api/organizations/types': () => json(200, [{ id: 1, name: 'Provider' }]),
      'GET /api/admin/documentsources/documentsourceproviders?pageNumber=1&pageSize=100&type=DirectMessaging': () => json(200, { items: [{ id: 1, name: 'ClinicRelay HISP', type: 'DirectMessaging' }], totalCount: 1 }),
    },
  });
}

describe('Batch imports (back office /admin/batchimports)', { timeout: 30_000 }, () => {
  it('the Status tab lists each row with its statuses, and a row’s errors behind the icon beside its status', async () => {
    start([item(2), item(3, { itemStatus: 'Failed', itemError: 'Row 3: Name must be at least 3 characters.', primaryContactStatus: 'NotStarted' })]);
    uninstall = renderApp('/admin/batchimports').uninstall;
    expect(await screen.findByRole('heading', { name: 'Batch imports' }, LAZY)).toBeTruthy();
    const failed = (await screen.findByText('Harbor Clinic 3', {}, LAZY)).closest('tr')!;
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText('Not started')).toBeTruthy();
    expect(within(failed).getByRole('button', { name: 'Row 3 errors: Row 3: Name must be at least 3 characters.' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Close' }).getAttribute('href')).toBe('/admin/organizations');
  });

  it('an empty list says so', async () => {
    start([]);
    uninstall = renderApp('/admin/batchimports').uninstall;
    expect(await screen.findByText('There are no results matching your criteria.', {}, LAZY)).toBeTruthy();
  });

  it('the Organization import tab: every required field named, and the page says it is invalid', async () => {
    start([]);
    uninstall = renderApp('/admin/batchimports?tab=import').uninstall;
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Import' }, LAZY));
    expect(await screen.findByText('There are invalid fields on this page.')).toBeTruthy();
    for (const message of [text.fileRequired, text.planRequired, text.hispRequired, text.brandRequired, text.typeRequired, text.specialtyRequired]) expect(screen.getByText(message)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download template' })).toBeTruthy();
  });
});
