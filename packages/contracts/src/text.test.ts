import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { loginRequest } from './account.ts';
import { attachmentFileName, attachmentMetaInput, MAX_FILE_NAME_LENGTH } from './attachments.ts';
import { INTAKE_SEARCH_MAX_LENGTH, intakeFilter } from './intake.ts';
import { draftSave } from './messages.ts';
import { text, textMessages } from './text.ts';

const messagesOf = (result: { error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('limit sentences (issue 9: zod’s own texts reached users)', () => {
  it('names the field when the schema gives a label', () => {
    expect(messagesOf(loginRequest.safeParse({ userName: 'a'.repeat(257), password: 'p' }))).toEqual({ userName: 'Username must be at most 256 characters.' });
    expect(messagesOf(text('Plan').min(2).safeParse('x'))).toEqual({ '': 'Plan must be at least 2 characters.' });
    expect(messagesOf(z.object({ id: text('Plan') }).safeParse({}))).toEqual({ id: 'Plan is required.' });
  });

  it('says "This field" without a label, for strings, numbers, lists and choices alike', () => {
    const schema = z.object({
      note: text().max(3),
      size: z.number().int().min(1).max(100),
      ids: z.array(text()).max(2),
      dir: z.enum(['asc', 'desc']),
      id: text().uuid(),
    });
    expect(messagesOf(schema.safeParse({ note: 'abcd', size: 101, ids: ['a', 'b', 'c'], dir: 'up', id: 'x' }))).toEqual({
      note: 'This field must be at most 3 characters.',
      size: 'This field must be at most 100.',
      ids: 'This field may have at most 2 items.',
      dir: 'This field must be one of: asc, desc.',
      id: 'This field is not valid.',
    });
    expect(messagesOf(schema.pick({ size: true }).safeParse({ size: 0 }))).toEqual({ size: 'This field must be at least 1.' });
  });

  it('keeps a schema’s own words before the generic sentence, and the unstorable-text check', () => {
    expect(messagesOf(loginRequest.safeParse({ userName: ' ', password: 'p' }))).toEqual({ userName: 'Username is required.' });
    expect(messagesOf(text('Note').max(10).safeParse('a\0b'))).toEqual({ '': textMessages.unstorableCharacters });
  });

  it('bounds the Intake search and column filters with a sentence (the web box uses the same limit)', () => {
    expect(INTAKE_SEARCH_MAX_LENGTH).toBe(200);
    expect(intakeFilter.safeParse({ filter: 'x'.repeat(200) }).success).toBe(true);
    expect(messagesOf(intakeFilter.safeParse({ filter: 'x'.repeat(201) }))).toEqual({ filter: 'Search must be at most 200 characters.' });
    expect(messagesOf(intakeFilter.safeParse({ columnFilters: { subject: { value: 'x'.repeat(201), operator: 'contains' } } }))).toEqual({
      'columnFilters.subject.value': 'Filter must be at most 200 characters.',
    });
  });

  it('bounds draft fields with their names', () => {
    expect(messagesOf(draftSave.safeParse({ subject: 's'.repeat(256), toAddress: 't'.repeat(4001) }))).toEqual({
      subject: 'Subject must be at most 255 characters.',
      toAddress: '"To" address must be at most 4000 characters.',
    });
  });
});

describe('attachment names and notes (end-user §2, §5: 255 characters)', () => {
  it('accepts a 255-character name and refuses a longer one with a sentence', () => {
    expect(MAX_FILE_NAME_LENGTH).toBe(255);
    expect(attachmentFileName.safeParse(`${'n'.repeat(251)}.pdf`).success).toBe(true);
    expect(messagesOf(attachmentFileName.safeParse(`${'n'.repeat(252)}.pdf`))).toEqual({ '': 'File names may be at most 255 characters.' });
    expect(messagesOf(attachmentFileName.safeParse('  '))).toEqual({ '': 'File name is required.' });
  });

  it('accepts 255 characters of notes and refuses more', () => {
    expect(attachmentMetaInput.safeParse({ documentDescription: 'd'.repeat(255) }).success).toBe(true);
    expect(messagesOf(attachmentMetaInput.safeParse({ documentDescription: 'd'.repeat(256) }))).toEqual({ documentDescription: 'Notes may be at most 255 characters.' });
  });
});
