import { parseArgs } from 'node:util';
import { duration } from '../import/progress.ts';
import { generateNppesFiles } from './generator.ts';

// `npm run directory:generate -- --providers N --out FILE [--seed S]`: an npidata_pfile-format file of N providers and
// its endpoint file beside it (endpoint_pfile… for npidata_pfile…, else endpoint_ + the name).
const usage = 'Usage: npm run directory:generate -- --providers N --out FILE [--seed S]';
let values: { providers?: string; out?: string; seed?: string };
try {
  values = parseArgs({ options: { providers: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' } } }).values;
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const providers = Number(values.providers);
const seed = values.seed === undefined ? 1 : Number(values.seed);
if (!Number.isInteger(providers) || providers < 1 || providers > 200_000_000 || !values.out || !Number.isInteger(seed)) {
  console.error(usage);
  process.exit(2);
}

const started = performance.now();
let lastLine = 0;
const tty = process.stderr.isTTY;
const result = await generateNppesFiles({
  providers,
  out: values.out,
  seed,
  onProgress: (written) => {
    const now = performance.now();
    if (now - lastLine < (tty ? 200 : 5_000) && written < providers) return;
    lastLine = now;
    const rate = written / ((now - started) / 1000 || 1);
    const text = `${((written / providers) * 100).toFixed(1)}%  ${written.toLocaleString('en-US')} providers  ${Math.round(rate).toLocaleString('en-US')}/s  ${duration(((providers - written) / (rate || 1)) * 1000)} left`;
    process.stderr.write(tty ? `\r${text}\x1b[K` : `${text}\n`);
  },
}).catch((error: Error) => {
  if (tty) process.stderr.write('\n');
  console.error(`Cannot write the files: ${error.message}`);
  process.exit(1);
});
if (tty) process.stderr.write('\r\x1b[K');
const n = (v: number) => v.toLocaleString('en-US');
console.log(
  `Wrote ${result.npidataFile} (${n(result.providers)} providers: ${n(result.individuals)} individuals, ${n(result.organizations)} organizations, ` +
    `${n(result.deactivated)} deactivated) and ${result.endpointFile} (${n(result.directAddresses)} Direct addresses for ${n(result.providersWithDirect)} providers) ` +
    `in ${duration(performance.now() - started)}.`,
);
