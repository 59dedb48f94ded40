import userEvent from '@testing-library/user-event';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoProfile, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

let uninstall: (() => void) | undefined;
afterEach(() => {
  uninstall?.();
  vi.unstubAllGlobals();
});

const csv = (fileName: string) => () => new Response('Signed In,User Name\r\n', { status: 200, headers: { 'content-type': 'text/csv', 'content-disposition': `attachment; filename="${fileName}"` } });

describe('Reports (/admin/reports)', { timeout: 30_000 }, () => {
  it('offers the tiles of back-office-a §2, checks the Devices Report range and downloads it', async () => {
    signIn();
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:report', revokeObjectURL: () => undefined }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const api = stubApi({
      profile: demoProfile({ roles: ['SysAdminReporting'], organizationId: null, organizationName: null, organizations: [] }),
      handlers: { 'GET /api/admin/reports/devices?startDate=2026-01-01&endDate=2026-01-31': csv('ClinicRelay_Devices_2026-02-01_10-00-00.csv') },
    });
    uninstall = renderApp('/admin/reports').uninstall;
    expect(await screen.findByRole('heading', { name: 'Reports', level: 1 })).toBeTruthy();
    for (const title of ['Devices', 'Direct Addresses', 'Organizations', 'Users', 'Messages', 'Unassigned Addresses', 'Intake Rules', 'Download Profiles', 'Download Contacts Statistics']) {
      expect(screen.getByRole('region', { name: title })).toBeTruthy();
    }
    // SysAdmin's only.
    expect(screen.queryByRole('region', { name: 'Generated Reports' })).toBeNull();

    await userEvent.click(within(screen.getByRole('region', { name: 'Devices' })).getByRole('button', { name: 'Choose dates' }));
    const modal = await screen.findByRole('dialog', { name: 'Devices Report' });
    const startBox = within(modal).getByRole('textbox', { name: 'Start Date' });
    const endBox = within(modal).getByRole('textbox', { name: 'End Date' });
    await userEvent.clear(startBox);
    await userEvent.type(startBox, '01/31/2026');
    await userEvent.clear(endBox);
    await userEvent.type(endBox, '01/01/2026');
    await userEvent.click(within(modal).getByRole('button', { name: 'Download' }));
    expect(await within(modal).findByText('Start Date must be smaller or equal than End Date.')).toBeTruthy();
    expect(within(modal).getByText('There are invalid fields on this page.')).toBeTruthy();

    await userEvent.clear(startBox);
    await userEvent.type(startBox, '1/1/2026');
    await userEvent.clear(endBox);
    await userEvent.type(endBox, '1/31/2026');
    await userEvent.click(within(modal).getByRole('button', { name: 'Download' }));
    await expect.poll(() => saved).toEqual(['ClinicRelay_Devices_2026-02-01_10-00-00.csv']);
    expect(api.calls.map((c) => c.key)).toContain('GET /api/admin/reports/devices?startDate=2026-01-01&endDate=2026-01-31');
    click.mockRestore();
  });
});
