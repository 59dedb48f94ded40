import { zxcvbn, zxcvbnOptions } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { passwordRuleProblem } from '@clinicrelay/contracts/passwords.ts';

// Loaded only through a dynamic import from password-field.tsx: the dictionaries (~1 MB) stay out of the main bundle.
zxcvbnOptions.setOptions({ dictionary, graphs: adjacencyGraphs });

export interface PasswordStrength {
  /** zxcvbn's score, 0 (very weak) to 4 (strong). */
  score: number;
  /** The policy's message (the server's rule), or null when the password may be used. */
  problem: string | null;
}

export function measurePassword(password: string, userName?: string | null): PasswordStrength {
  const inputs = userName ? [userName, userName.split('@')[0] ?? ''] : [];
  // zxcvbn's cost grows with length; past 128 characters the length rule answers anyway.
  const score = zxcvbn(password.slice(0, 128), inputs).score;
  return { score, problem: passwordRuleProblem(password, userName, score) };
}
