// `npm run bench`: each figure is printed beside its reference baseline measured in the same run,
// so the ratio means something on a noisy machine. `npm run bench -- files first-load` runs only those.
import { directSmimeBenchmarks } from './direct-smime.ts';
import { directoryBenchmarks } from './directory.ts';
import { extractionBenchmarks } from './extraction.ts';
import { filesBenchmarks } from './files.ts';
import { firstLoadBenchmarks } from './first-load.ts';
import { intakeBenchmarks } from './intake.ts';
import { releaseBenchmarks } from './release.ts';
import { sessionBenchmarks } from './session.ts';

const benchmarks: Record<string, () => Promise<string[]>> = {
  session: sessionBenchmarks,
  release: releaseBenchmarks,
  extraction: extractionBenchmarks,
  intake: intakeBenchmarks,
  files: filesBenchmarks,
  'first-load': firstLoadBenchmarks,
  directory: directoryBenchmarks,
  'direct-smime': directSmimeBenchmarks,
};
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in benchmarks));
if (unknown.length) throw new Error(`Unknown benchmark ${unknown.join(', ')}: choose from ${Object.keys(benchmarks).join(', ')}.`);

for (const [name, run] of Object.entries(benchmarks)) {
  if (asked.length && !asked.includes(name)) continue;
  for (const line of await run()) console.log(line);
}
