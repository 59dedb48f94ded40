import { performance } from 'node:perf_hooks';

export interface Measurement {
  name: string;
  perOpMs: number;
  opsPerSecond: number;
}

// Warms up, then times `iterations` sequential runs of `op`.
export async function measure(name: string, iterations: number, op: () => Promise<unknown>): Promise<Measurement> {
  for (let i = 0; i < Math.min(20, iterations); i++) await op();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await op();
  const elapsed = performance.now() - start;
  return { name, perOpMs: elapsed / iterations, opsPerSecond: (iterations * 1000) / elapsed };
}

export function compare(subject: Measurement, baseline: Measurement): string {
  const fmt = (m: Measurement) => `${m.name}: ${m.perOpMs.toFixed(3)} ms/op (${Math.round(m.opsPerSecond)} op/s)`;
  return `${fmt(subject)}\n  baseline ${fmt(baseline)}\n  ratio ${(subject.perOpMs / baseline.perOpMs).toFixed(2)}x`;
}
