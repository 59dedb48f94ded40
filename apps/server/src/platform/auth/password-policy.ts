import { passwordRuleProblem } from '@clinicrelay/contracts/passwords.ts';

type Score = (password: string, userInputs: string[]) => number;
let scorer: Promise<Score> | undefined;

// zxcvbn and its common-password dictionaries (~30 k passwords) load on the first password set, once per process,
// so test files and start-up that never set a password do not pay for them.
const loadScorer = () =>
  (scorer ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(([core, common]) => {
    core.zxcvbnOptions.setOptions({ dictionary: common.dictionary, graphs: common.adjacencyGraphs });
    return (password: string, userInputs: string[]) => core.zxcvbn(password, userInputs).score;
  }));

// Issue 14 §5: every path that sets a password (registration, set-password links, change, administrators)
// asks this first; null when the password may be used, else the message to show under the field.
// Rules (contracts/passwords.ts): 8-128 characters of any kind, not containing the user name, not common or breached.
export async function passwordProblem(password: string, userName?: string | null): Promise<string | null> {
  const cheap = passwordRuleProblem(password, userName, Number.POSITIVE_INFINITY);
  if (cheap) return cheap;
  const score = (await loadScorer())(password, userName ? [userName, userName.split('@')[0] ?? ''] : []);
  return passwordRuleProblem(password, userName, score);
}
