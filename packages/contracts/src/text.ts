import { z } from 'zod';

// Every string the API accepts is built here (issue 8 §3; a bare z.string() in contracts fails the lint):
// PostgreSQL stores neither a NUL character nor half of a UTF-16 surrogate pair, so both are refused at the
// edge with a 400 naming the field, never a 500 from the database.

export const textMessages = {
  // Not in the spec: nobody types these; they come from broken clients or probes.
  unstorableCharacters: 'Text cannot contain NUL characters or unpaired surrogate characters.',
} as const;

// Without the u flag a regular expression sees UTF-16 code units, so a lone surrogate is matchable.
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (value: string) => !UNSTORABLE.test(value);

// z.string() with the check; a refinement keeps the ZodString type, so .max(), .trim(), .uuid() still chain.
export const text = () => z.string().refine(isStorableText, textMessages.unstorableCharacters);

// Every string inside a JSON value, keys included; iterative, so deep nesting cannot overflow the stack.
export function isStorableJson(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (!isStorableText(v)) return false;
    } else if (Array.isArray(v)) pending.push(...(v as unknown[]));
    else if (v && typeof v === 'object') {
      for (const [key, inner] of Object.entries(v)) {
        if (!isStorableText(key)) return false;
        pending.push(inner);
      }
    }
  }
  return true;
}

// A free-form JSON value (stored as jsonb) with the same rule for every string in it.
export const jsonValue = () => z.unknown().refine(isStorableJson, textMessages.unstorableCharacters);
