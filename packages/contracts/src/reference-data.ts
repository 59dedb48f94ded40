import { z } from 'zod';
import { pageOf, pageQuery } from './paging.ts';
import { text } from './text.ts';

// back-office-a §2 "Reserved words" and "Specialties", §3, §7. The spec shows no texts for these lists beyond the
// calls; these follow the wording of its other back-office messages.
export const referenceDataMessages = {
  reservedWordExists: 'This reserved word already exists, please enter a different one.',
  reservedWordSaved: 'The reserved word was saved successfully.',
  reservedWordDeleted: 'The reserved word was deleted successfully.',
  specialtyExists: 'This specialty already exists, please enter a different one.',
  specialtySaved: 'The specialty was saved successfully.',
  specialtyDeleted: 'The specialty was deleted successfully.',
  specialtyInUse: (count: number) => `This specialty is assigned to ${count} organization${count === 1 ? '' : 's'} and cannot be deleted.`,
} as const;

export const NAME_MAX = 255;
const name = (label: string) => text(label).trim().min(1).max(NAME_MAX);

export const reservedWord = z.object({ id: text(), name: text(), profanity: z.boolean() });
export const reservedWordInput = z.object({ name: name('Name'), profanity: z.boolean().default(false) });
export type ReservedWordInput = z.input<typeof reservedWordInput>;
export const reservedWordQuery = pageQuery.extend({
  // The profanity filter: absent for all words, true or false for one kind.
  profanity: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});
export const reservedWordPage = pageOf(reservedWord);
export const reservedWordExistsQuery = z.object({ id: text().uuid().optional(), name: text().trim().max(NAME_MAX) });
export const isReservedWordQuery = z.object({ name: text().trim().max(NAME_MAX) });

export const specialty = z.object({ id: z.number().int(), name: text() });
export const specialtyInput = z.object({ name: name('Name') });
export type SpecialtyInput = z.input<typeof specialtyInput>;
// pageStart is the page number (1 first); the cached full list asks pageSize=5000.
export const specialtyQuery = z.object({
  pageStart: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(5000).default(10),
  search: text().trim().max(200).optional(),
});
export const specialtyPage = pageOf(specialty);
export const specialtyParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
