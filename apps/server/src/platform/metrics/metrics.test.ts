import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../../app.ts';
import { testConfig, useTestApp } from '../../test/app.ts';
import type { WorkflowContext } from '../workflows/context.ts';
import { enqueue } from '../workflows/enqueue.ts';
import { runOnce } from '../workflows/runner.ts';
import { startMetricsServer } from './metrics.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };

// The Prometheus text exposition format, line by line: # HELP / # TYPE, or a sample `name{label="value",…} number`
// (Prometheus reads the number with Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan" before the
// event-loop monitor's first sample).
const SAMPLE = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? (-?[0-9.eE+-]+|nan|[+-]?inf)( \d+)?$/i;
function parse(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    expect(line, 'a sample line').toMatch(SAMPLE);
    const cut = line.lastIndexOf(' ');
    samples.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return samples;
}

describe('/metrics for monitoring systems (issue 27 §5)', () => {
  const t = useTestApp({ config: { METRICS_TOKEN: TOKEN } });
  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain; version=0.0.4');
    return { text: res.body, samples: parse(res.body) };
  };

  it('answers 401 without its bearer token or with another one', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token' }, { authorization: TOKEN }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('clinicrelay_');
    }
  });

  it('serves the text format with pending work, queue age, MDN outcomes, mail outbox and event-loop delay', async () => {
    await enqueue(t.handle.db, { type: 'metrics-test', payload: {}, runAfter: new Date(Date.now() - 60_000) });
    const { text, samples } = await scrape();
    expect(samples.get('clinicrelay_workflows{type="metrics-test",status="Pending"}')).toBe(1);
    expect(samples.get('clinicrelay_queue_oldest_age_seconds{type="metrics-test"}')).toBeGreaterThanOrEqual(59);
    for (const state of ['awaiting', 'overdue']) expect(samples.has(`clinicrelay_direct_mdn_awaiting{state="${state}"}`)).toBe(true);
    expect(text).toContain('# TYPE clinicrelay_direct_mdn_total counter');
    expect(samples.has('clinicrelay_mail_outbox{status="queued"}')).toBe(true);
    expect(samples.has('clinicrelay_mail_outbox_oldest_queued_age_seconds')).toBe(true);
    // The pool of this process, on PostgreSQL (PGlite has none).
    if (t.handle.kind === 'postgres') expect(samples.get('clinicrelay_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge');
    expect(text).toContain('# TYPE clinicrelay_http_request_duration_seconds histogram');
  });

  it('times requests by route pattern and status, and the figures move after a request', async () => {
    const key = (route: string, status: number) => `clinicrelay_http_request_duration_seconds_count{method="GET",route="${route}",status_code="${status}"}`;
    const before = (await scrape()).samples;
    await t.call('user@lakeside.example.org', 'GET', '/api/users/profiledata');
    const id = '00000000-0000-4000-8000-000000000123';
    await t.call('user@lakeside.example.org', 'GET', `/api/messages/${id}`);
    const { text, samples } = await scrape();
    expect(samples.get(key('/api/users/profiledata', 200))).toBe((before.get(key('/api/users/profiledata', 200)) ?? 0) + 1);
    expect(samples.get(key('/api/messages/:id', 404))).toBe((before.get(key('/api/messages/:id', 404)) ?? 0) + 1);
    // The pattern, never the raw URL with its ids.
    expect(text).not.toContain(id);
  });

  it('counts workflow steps by type and status, and every log line a workflow writes names it', async () => {
    const lines: string[] = [];
    const log = Fastify({
      logger: {
        ...(loggerOptions('info') as object),
        stream: new Writable({
          write(chunk: Buffer, _enc, done) {
            lines.push(chunk.toString());
            done();
          },
        }),
      },
    }).log;
    const id = await enqueue(t.handle.db, { type: 'metrics-steps', payload: {} });
    const handlers = new Map([
      [
        'metrics-steps',
        async (ctx: WorkflowContext) => {
          await ctx.step('first', 'k', async () => {
            log.info({ detail: 'inside' }, 'a step is running');
            return { ok: true };
          });
        },
      ],
    ]);
    const before = (await scrape()).samples.get('clinicrelay_workflow_steps_total{type="metrics-steps",step="first",status="Completed"}') ?? 0;
    expect(await runOnce({ db: t.handle.db, handlers, logger: log })).toBeGreaterThanOrEqual(1);
    const after = (await scrape()).samples.get('clinicrelay_workflow_steps_total{type="metrics-steps",step="first",status="Completed"}');
    expect(after).toBe(before + 1);
    const inside = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'a step is running');
    expect(inside).toMatchObject({ workflowId: id, workflowType: 'metrics-steps', detail: 'inside' });
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'workflow completed')).toMatchObject({ workflowId: id });
  });

  it('is off (404) without METRICS_TOKEN, and moves to METRICS_PORT when that is set', async () => {
    const off = await buildApp({ config: testConfig(), db: t.handle.db, logger: false });
    expect((await off.inject({ method: 'GET', url: '/metrics', headers: bearer })).statusCode).toBe(404);
    await off.close();
    const elsewhere = await buildApp({ config: testConfig({ METRICS_TOKEN: TOKEN, METRICS_PORT: '0' }), db: t.handle.db, logger: false });
    expect((await elsewhere.inject({ method: 'GET', url: '/metrics', headers: bearer })).statusCode).toBe(404);
    await elsewhere.close();

    const server = await startMetricsServer({ db: t.handle.db, token: TOKEN, port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
    try {
      expect((await fetch(url)).status).toBe(401);
      const res = await fetch(url, { headers: bearer });
      expect(res.status).toBe(200);
      parse(await res.text());
    } finally {
      server.close();
    }
  });
});
