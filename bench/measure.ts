import { performance } from 'node:perf_hooks';

export interface Measurement {
  name: string;
  perOpMs: number;
  opsPerSecond: number;
  // Latency percentiles of the timed runs, when each run was timed on its own.
  p50Ms?: number;
  p95Ms?: number;
}

// Nearest-rank percentile of sorted samples.
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

// Warms up (`warmup` runs, 20 by default and never more than `iterations`), then times `iterations`
// sequential runs of `op`, each on its own for the percentiles.
export async function measure(name: string, iterations: number, op: () => Promise<unknown>, warmup = 20): Promise<Measurement> {
  for (let i = 0; i < Math.min(warmup, iterations); i++) await op();
  const samples: number[] = [];
  const start = performance.now();
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    await op();
    samples.push(performance.now() - t);
  }
  const elapsed = performance.now() - start;
  samples.sort((a, b) => a - b);
  return { name, perOpMs: elapsed / iterations, opsPerSecond: (iterations * 1000) / elapsed, p50Ms: percentile(samples, 50), p95Ms: percentile(samples, 95) };
}

// `subject` and `baseline` timed in turns (A B, B A, ...) after their warm-ups: on a machine shared with other work
// both see the same load, so their ratio holds where two measurements one after the other would not.
export async function measurePair(
  subject: { name: string; op: () => Promise<unknown> },
  baseline: { name: string; op: () => Promise<unknown> },
  iterations: number,
  warmup = 20,
): Promise<[Measurement, Measurement]> {
  for (let i = 0; i < Math.min(warmup, iterations); i++) {
    await subject.op();
    await baseline.op();
  }
  const samples: [number[], number[]] = [[], []];
  const ops = [subject.op, baseline.op] as const;
  for (let i = 0; i < iterations; i++) {
    for (const which of i % 2 ? [1, 0] : [0, 1]) {
      const t = performance.now();
      await ops[which]!();
      samples[which]!.push(performance.now() - t);
    }
  }
  const figure = (name: string, list: number[]): Measurement => {
    const total = list.reduce((sum, ms) => sum + ms, 0);
    const sorted = [...list].sort((x, y) => x - y);
    return { name, perOpMs: total / list.length, opsPerSecond: (list.length * 1000) / total, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95) };
  };
  return [figure(subject.name, samples[0]), figure(baseline.name, samples[1])];
}

export function compare(subject: Measurement, baseline: Measurement): string {
  const fmt = (m: Measurement) =>
    `${m.name}: ${m.perOpMs.toFixed(3)} ms/op (${Math.round(m.opsPerSecond)} op/s)` +
    (m.p50Ms !== undefined && m.p95Ms !== undefined ? `, p50 ${m.p50Ms.toFixed(3)} ms, p95 ${m.p95Ms.toFixed(3)} ms` : '');
  const ratio = `ratio ${(subject.perOpMs / baseline.perOpMs).toFixed(2)}x`;
  const p95Ratio = subject.p95Ms !== undefined && baseline.p95Ms !== undefined ? `, p95 ratio ${(subject.p95Ms / baseline.p95Ms).toFixed(2)}x` : '';
  return `${fmt(subject)}\n  baseline ${fmt(baseline)}\n  ${ratio}${p95Ratio}`;
}
