// Partner and reseller logos (back-office-a §2, issue 11 §4: "type-checked, and limited to the logo width limits").
// The spec gives no numbers or texts: a logo sits in a header or on the register page, so 600 × 600 pixels and
// 1 MB are plenty. SVG is refused, not sanitized: it can carry script, and the reseller's logo is served to
// anonymous visitors.
export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_MAX_WIDTH = 600;
export const LOGO_MAX_HEIGHT = 600;
export const LOGO_ACCEPT = 'image/png,image/jpeg,image/gif';

export const logoMessages = {
  type: 'The logo must be a PNG, JPEG or GIF image.',
  tooLarge: 'The logo must be at most 1 MB.',
  tooWide: `The logo must be at most ${LOGO_MAX_WIDTH} pixels wide.`,
  tooHigh: `The logo must be at most ${LOGO_MAX_HEIGHT} pixels high.`,
  fileName: 'The logo file name must be at most 255 characters.',
} as const;
