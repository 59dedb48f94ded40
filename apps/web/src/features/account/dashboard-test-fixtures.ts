import { json } from '../../app/app-test-harness.tsx';
import { recentActivityPath } from './dashboard-api.ts';

// The dashboard's calls answered as the server would for Lakeside's Administrator; each test overrides what it needs.
export const today = () => new Date().toISOString().slice(0, 10);

export function perDay(days = 30, fill: (i: number) => { count: number; sent: number } = () => ({ count: 0, sent: 0 })) {
  const now = Date.now();
  return Array.from({ length: days }, (_, i) => ({ date: new Date(now - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10), ...fill(i) }));
}

export const statisticsFixture = (overrides: Record<string, unknown> = {}) => ({
  received: 12,
  unread: 3,
  unprocessed: 5,
  urgent: 1,
  failed: 2,
  unassigned: 4,
  sent: 7,
  bySourceType: { Direct: 10, Fax: 2 },
  perDay: perDay(30, (i) => (i === 29 ? { count: 3, sent: 2 } : { count: 0, sent: 0 })),
  ...overrides,
});

export const emptyHandlers = () => ({
  [`GET ${recentActivityPath()}`]: () => json(200, { items: [] }),
  'GET /api/audit/types': () => json(200, [{ eventType: 'MessageSent', name: 'Message sent' }]),
  'GET /api/messages/statistics': () => json(200, statisticsFixture({ received: 0, unread: 0, unprocessed: 0, urgent: 0, failed: 0, unassigned: 0, sent: 0, bySourceType: {}, perDay: perDay() })),
  'GET /api/failedmessages': () => json(200, { items: [], totalCount: 0 }),
  'GET /api/users/neversignedin': () => json(200, { items: [], totalCount: 0 }),
  'GET /api/organization/sendingstatus': () => json(200, { addresses: [{ fullAddress: 'intake@lakeside.direct.example.org', hasCertificate: true }], pending: [] }),
});
