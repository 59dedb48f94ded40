import { API_CAPTURE_MAX_BODY_BYTES, type ApiCaptureConfig, type ApiCapturePage, type ApiCaptureQuery } from '@clinicrelay/contracts/api-capture.ts';
import type { Database } from '../../db/client.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import * as q from './queries.ts';

export interface ApiCaptureDeps {
  db: Database;
  now: () => Date;
  retentionDays: number;
}

const DAY_MS = 86_400_000;

// back-office-b §9: a default range of one day (the 24 hours before end, end defaulting to now); sortDir '1' is newest first.
export async function capturePage(deps: ApiCaptureDeps, query: ApiCaptureQuery): Promise<ApiCapturePage> {
  const end = query.end ? new Date(query.end) : deps.now();
  const start = query.start ? new Date(query.start) : new Date(end.getTime() - DAY_MS);
  const page = await q.findCapturePage(deps.db, {
    pageNumber: query.pageNumber,
    pageSize: query.pageSize,
    start,
    end,
    descending: query.sortDir === '1',
    search: query.search || undefined,
    tenantId: query.tenantId,
    networkId: query.networkId,
    statusCode: query.statusCode,
    method: query.method,
  });
  return {
    totalCount: page.totalCount,
    items: page.items.map((r) => ({
      id: r.id,
      tenantid: r.organizationId,
      tenantName: r.organizationName,
      networkid: r.networkId,
      networkName: r.networkName,
      userId: r.userId,
      userName: r.userName,
      tokenHash: r.tokenHash,
      date: r.capturedAt.toISOString(),
      userIdSourceType: r.userIdSourceType,
      durationMs: Math.round(r.durationMs * 100) / 100,
      value: { request: r.request, response: r.response },
    })),
  };
}

export async function captureConfig(deps: ApiCaptureDeps, caller: OrgCaller): Promise<ApiCaptureConfig> {
  return { apiCapture: await q.organizationCapture(deps.db, caller.organizationId), retentionDays: deps.retentionDays, maxBodyBytes: API_CAPTURE_MAX_BODY_BYTES };
}
