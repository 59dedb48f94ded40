// `npm run check:first-load` (CI): builds the web app when its sources are newer than the build, measures the sign-in
// page's first load as `npm run bench -- first-load` does, and exits non-zero when its JavaScript is over the target.
import { measureFirstLoad, TARGET_JS_BYTES } from './first-load.ts';

const { jsWireBytes, lines } = await measureFirstLoad();
for (const line of lines) console.log(line);
if (jsWireBytes > TARGET_JS_BYTES) {
  console.error(
    `The sign-in page loads ${(jsWireBytes / 1000).toFixed(1)} kB of compressed JavaScript, over the ${(TARGET_JS_BYTES / 1000).toFixed(0)} kB budget: ` +
      'move what sign-in does not need out of the entry chunk (a lazy route, a lazy component) or shrink what it imports.',
  );
  process.exit(1);
}
