// `npm run bench`: each figure is printed beside its reference baseline measured in the same run,
// so the ratio means something on a noisy machine. `npm run bench -- files first-load` runs only those.
import { spawnSync } from 'node:child_process';

const benchmarks: Record<string, () => Promise<string[]>> = {
  session: async () => (await import('./session.ts')).sessionBenchmarks(),
  release: async () => (await import('./release.ts')).releaseBenchmarks(),
  extraction: async () => (await import('./extraction.ts')).extractionBenchmarks(),
  intake: async () => (await import('./intake.ts')).intakeBenchmarks(),
  files: async () => (await import('./files.ts')).filesBenchmarks(),
  'first-load': async () => (await import('./first-load.ts')).firstLoadBenchmarks(),
  directory: async () => (await import('./directory.ts')).directoryBenchmarks(),
  'direct-smime': async () => (await import('./direct-smime.ts')).directSmimeBenchmarks(),
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
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, name], { stdio: 'inherit' });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
}
