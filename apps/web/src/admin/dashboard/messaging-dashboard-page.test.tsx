import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelFigures, MessageCounts, MessagingStats, SystemAlerts, WorkerDiagnostics } from '@clinicrelay/contracts/messaging-dashboard.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

const NOW = '2026-11-29T05:00:00.000Z';
const channel = (name: string, over: Partial<ChannelFigures> = {}): ChannelFigures => ({ name, state: 'OK', color: 'blue', success: 0, total: 0, failure: 0, other: 0, ...over });
const counts: MessageCounts = {
  from: '2026-11-28T05:00:00.000Z',
  to: NOW,
  inboundMessages: [channel('Direct', { success: 4, total: 4 }), channel('Local'), channel('Fax')],
  outboundMessages: [channel('Direct', { state: 'Error', color: 'red', success: 1, failure: 3, total: 4 }), channel('Local', { success: 2, total: 2 }), channel('Fax', { other: 1, total: 1 })],
};
const hours = Array.from({ length: 24 }, (_, i) => new Date(Date.parse(NOW) - (23 - i) * 3600_000).toISOString());
const series = (name: string, last: number) => ({ name, state: 'OK' as const, dailyStats: hours.map((date, i) => ({ date, value: i === 23 ? last : 0, failure: 0 })) });
const stats: MessagingStats = { hours: 24, inboundMessages: [series('Direct', 4), series('Local', 0), series('Fax', 0)], outboundMessages: [series('Direct', 4), series('Local', 2), series('Fax', 1)] };
const alerts: SystemAlerts = {
  items: [
    { alertType: 'Antivirus', name: 'Virus scanner', status: 'Warn', createdAt: null, date: NOW, detail: 'CLAMD_URL is not set: uploads and received messages are not scanned.', link: null },
    { alertType: 'FailedWorkflows', name: 'Failed workflows in the last hour', status: 'Triggered', createdAt: '2026-11-29T04:40:00.000Z', date: NOW, detail: '3 workflows failed in the last hour.', link: '/admin/dashboard/messaging/workflows?status=Failed' },
  ],
};
const workers: WorkerDiagnostics = { workers: [{ workerId: 'host:1/a', host: 'host', pid: 1, lanes: [{ name: 'delivery', concurrency: 2 }], startedAt: NOW, lastSeenAt: NOW, heartbeating: true }], queues: [] };

function start(roles: ('SysAdmin' | 'SysAdminReporting')[] = ['SysAdmin']) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles }),
    handlers: {
      'GET /api/diagnostics/messaging/messageCounts': () => json(200, counts),
      'GET /api/diagnostics/stats?hours=24': () => json(200, stats),
      'GET /api/diagnostics/messaging/systemalerts': () => json(200, alerts),
      'GET /api/diagnostics/worker': () => json(200, workers),
      'GET /api/admin/organizations/queues': () => json(200, { awaitingActivation: 0, awaitingReview: 0 }),
    },
  });
  uninstall = renderApp('/admin/dashboard/messaging').uninstall;
  return api;
}

describe('the messaging health dashboard (back-office-b §2, issue 27 §1)', { timeout: 30_000 }, () => {
  it('shows the system alerts, Triggered first, with since when and a link', async () => {
    start();
    const table = await screen.findByRole('table', { name: 'System Alerts' });
    const rows = await within(table).findAllByRole('row');
    expect(within(rows[1]!).getByText('Triggered')).toBeTruthy();
    expect(within(rows[1]!).getByRole('link', { name: 'View: Failed workflows in the last hour' }).getAttribute('href')).toBe('/admin/dashboard/messaging/workflows?status=Failed');
    expect(within(rows[2]!).getByText('Warn')).toBeTruthy();
    expect(within(rows[2]!).getByText('CLAMD_URL is not set: uploads and received messages are not scanned.')).toBeTruthy();
  });

  it('shows each channel’s figures linking to its failed workflows, its health colour, and the hourly figures for screen readers', async () => {
    start();
    const outbound = await screen.findByRole('region', { name: 'Outbound messaging' });
    const failures = await within(outbound).findByRole('link', { name: 'Direct (SMTP) outbound failure: 3' });
    expect(failures.getAttribute('href')).toBe('/admin/dashboard/messaging/workflows?status=Failed&type=release&channel=Direct');
    expect(within(outbound).getByText('Error')).toBeTruthy();
    const inbound = screen.getByRole('region', { name: 'Inbound messaging' });
    expect(within(inbound).getByRole('link', { name: 'Direct (SMTP) inbound total: 4' }).getAttribute('href')).toBe('/admin/dashboard/messaging/workflows?status=Failed&type=intake&channel=Direct');
    const table = await within(outbound).findByRole('table', { name: 'Outbound messaging: messages per hour', hidden: true });
    const rows = within(table).getAllByRole('row', { hidden: true });
    expect(rows).toHaveLength(25);
    expect(within(rows[24]!).getAllByRole('cell', { hidden: true }).slice(1).map((c) => c.textContent)).toEqual(['4', '2', '1']);
    expect(await screen.findByRole('table', { name: 'Workers' })).toBeTruthy();
  });

  it('is open to SysAdminReporting, without the organizations queues', async () => {
    start(['SysAdminReporting']);
    expect(await screen.findByRole('table', { name: 'System Alerts' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Organizations waiting' })).toBeNull();
  });
});
