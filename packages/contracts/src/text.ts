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

// Sentences for the limits every schema sets (issue 9: zod's own "Too big: expected string to have <=256
// characters" reached users). `label` names the field as the screen does ("Username"); without one the
// sentence says "This field", which reads well beside the field the web shows it at.
export function limitError(label?: string) {
  const subject = label ?? 'This field';
  return (issue: z.core.$ZodRawIssue): string | undefined => {
    const plural = (n: number | bigint, one: string, many: string) => `${n} ${Number(n) === 1 ? one : many}`;
    switch (issue.code) {
      case 'too_big': {
        const max = issue.inclusive === false ? Number(issue.maximum) - 1 : issue.maximum;
        if (issue.origin === 'string') return `${subject} must be at most ${plural(max, 'character', 'characters')}.`;
        if (issue.origin === 'array' || issue.origin === 'set') return `${subject} may have at most ${plural(max, 'item', 'items')}.`;
        if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') return `${subject} must be at most ${max}.`;
        return undefined;
      }
      case 'too_small': {
        const min = issue.inclusive === false ? Number(issue.minimum) + 1 : issue.minimum;
        if (issue.origin === 'string') return Number(min) === 1 ? `${subject} is required.` : `${subject} must be at least ${plural(min, 'character', 'characters')}.`;
        if (issue.origin === 'array' || issue.origin === 'set') return `${subject} needs at least ${plural(min, 'item', 'items')}.`;
        if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') return `${subject} must be at least ${min}.`;
        return undefined;
      }
      case 'invalid_type':
        if (issue.input === undefined) return `${subject} is required.`;
        if (issue.expected === 'string') return `${subject} must be text.`;
        if (issue.expected === 'number' || issue.expected === 'int') return `${subject} must be a number.`;
        if (issue.expected === 'boolean') return `${subject} must be true or false.`;
        if (issue.expected === 'array') return `${subject} must be a list.`;
        return undefined;
      case 'invalid_value':
        return issue.values.length ? `${subject} must be one of: ${issue.values.map(String).join(', ')}.` : undefined;
      case 'invalid_format':
        return issue.format === 'email' ? `${subject} must be a valid email address.` : `${subject} is not valid.`;
      default:
        return undefined;
    }
  };
}

// Every schema without its own message or label gets these sentences instead of zod's (server and web alike:
// both import the contracts before they parse anything).
z.config({ customError: limitError() });

// z.string() with the check; a refinement keeps the ZodString type, so .max(), .trim(), .uuid() still chain.
// `label` names the field in the limit sentences ("Username must be at most 256 characters.").
export const text = (label?: string) => z.string(label === undefined ? undefined : { error: limitError(label) }).refine(isStorableText, textMessages.unstorableCharacters);

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
