import { z } from 'zod';

export const healthResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'unavailable']),
  // Whether uploads are scanned for viruses (CLAMD_URL), and whether the scanner answers.
  antivirus: z.enum(['ok', 'unreachable', 'not configured — uploads are not scanned']),
});
