// `npm run bench`: each figure is printed beside its reference baseline measured in the same run,
// so the ratio means something on a noisy machine.
import { sessionBenchmarks } from './session.ts';

const results = await sessionBenchmarks();
for (const line of results) console.log(line);
