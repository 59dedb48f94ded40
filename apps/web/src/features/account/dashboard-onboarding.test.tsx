import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { sendingTexts } from '@clinicrelay/contracts/organizations.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { onboardingTexts } from './dashboard-onboarding.tsx';
import { emptyHandlers } from './dashboard-test-fixtures.ts';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(profile: Parameters<typeof demoProfile>[0], handlers: ReturnType<typeof emptyHandlers> = emptyHandlers()) {
  signIn();
  stubApi({ profile: demoProfile({ roles: ['Administrator'], ...profile }), handlers });
  uninstall = renderApp('/account/dashboard').uninstall;
}

describe('the dashboard’s onboarding checklist (issue 13 §1)', { timeout: 30_000 }, () => {
  it('lists the steps, done or not, while the organization is not activated', async () => {
    start({ orgIsActivated: false, orgIsAcceptedEULA: true, orgIsIdProofed: false });
    const region = await screen.findByRole('region', { name: onboardingTexts.title });
    expect(within(region).getByText(onboardingTexts.intro)).toBeTruthy();
    const items = within(region).getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toEqual(['Terms accepted: done', 'Identity proofed: not yet', 'Activated: not yet']);
  });

  it('is gone once the organization is activated', async () => {
    start({ orgIsActivated: true });
    expect(await screen.findByRole('heading', { name: 'Dashboard', level: 1 })).toBeTruthy();
    expect(await screen.findByRole('region', { name: 'Message statistics' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: onboardingTexts.title })).toBeNull();
    expect(screen.queryByRole('region', { name: sendingTexts.title })).toBeNull();
  });

  it('once activated, says what is still pending to send everywhere (issue 26 §3b)', async () => {
    const records = 'records@hillcrest.direct.example.org';
    const pending = sendingTexts.needsCertificate([records], 'ClinicRelay');
    start({ orgIsActivated: true }, { ...emptyHandlers(), 'GET /api/organization/sendingstatus': () => json(200, { addresses: [{ fullAddress: records, hasCertificate: false }], pending: [pending] }) });
    const region = await screen.findByRole('region', { name: sendingTexts.title });
    expect(within(region).getByRole('listitem').textContent).toBe(pending);
  });
});
