// `npm run bench`: each figure is printed beside its reference baseline measured in the same run,
// so the ratio means something on a noisy machine.
import { extractionBenchmarks } from './extraction.ts';
import { filesBenchmarks } from './files.ts';
import { firstLoadBenchmarks } from './first-load.ts';
import { intakeBenchmarks } from './intake.ts';
import { releaseBenchmarks } from './release.ts';
import { sessionBenchmarks } from './session.ts';

for (const run of [sessionBenchmarks, releaseBenchmarks, extractionBenchmarks, intakeBenchmarks, filesBenchmarks, firstLoadBenchmarks]) {
  for (const line of await run()) console.log(line);
}
