// `npm run bench`: each figure is printed beside its reference baseline measured in the same run,
// so the ratio means something on a noisy machine. `npm run bench -- files first-load` runs only those.
// `npm run bench:tiny` (BENCH_TINY=1) runs every one at a tiny size, as CI does: any error exits non-zero.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { TINY } from './size.ts';

const benchmarks: Record<string, () => Promise<string[]>> = {
  session: async () => (await import('./session.ts')).sessionBenchmarks(),
  audit: async () => (await import('./audit.ts')).auditBenchmarks(),
  release: async () => (await import('./release.ts')).releaseBenchmarks(),
  extraction: async () => (await import('./extraction.ts')).extractionBenchmarks(),
  intake: async () => (await import('./intake.ts')).intakeBenchmarks(),
  files: async () => (await import('./files.ts')).filesBenchmarks(),
  'first-load': async () => (await import('./first-load.ts')).firstLoadBenchmarks(),
  directory: async () => (await import('./directory.ts')).directoryBenchmarks(),
  'direct-smime': async () => (await import('./direct-smime.ts')).directSmimeBenchmarks(),
  dashboard: async () => (await import('./dashboard.ts')).dashboardBenchmarks(),
  workflows: async () => (await import('./workflows.ts')).workflowsBenchmarks(),
  'api-capture': async () => (await import('./api-capture.ts')).apiCaptureBenchmarks(),
  reports: async () => (await import('./reports.ts')).reportsBenchmarks(),
  'batch-import': async () => (await import('./batch-import.ts')).batchImportBenchmarks(),
};
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in benchmarks));
if (unknown.length) throw new Error(`Unknown benchmark ${unknown.join(', ')}: choose from ${Object.keys(benchmarks).join(', ')}.`);
const names = asked.length ? asked : Object.keys(benchmarks);

// Each benchmark runs in a process of its own, like a server: what one loads cannot weigh on another's figures
// (the extraction bench's pdfjs brings core-js, which replaces Array.prototype.push and JSON with JavaScript and cost
// the directory bench's API a tenth of its throughput), nor can its heap.
if (names.length === 1) {
  for (const line of await benchmarks[names[0]!]!()) console.log(line);
} else {
  for (const name of names) {
    const started = performance.now();
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, name], { stdio: 'inherit' });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (child.status !== 0) {
      console.error(`bench ${name} failed (${child.signal ?? `exit ${child.status}`}) after ${seconds} s`);
      process.exit(child.status || 1);
    }
    console.log(`-- bench ${name}${TINY ? ' (tiny)' : ''}: ${seconds} s`);
  }
}
