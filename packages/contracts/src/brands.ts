import { z } from 'zod';
import { text } from './text.ts';

// GET /api/admin/brands (back-office-a §7, pageSize=100): the brands with their settings; a UI element is removed
// when its setting is not 'true' (§6).
export const brand = z.object({ id: text(), name: text(), settings: z.record(text(), text()) });
export const brandPage = z.object({ items: z.array(brand), totalCount: z.number().int() });
export type Brand = z.infer<typeof brand>;
